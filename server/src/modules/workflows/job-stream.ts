// A job's progress as one ordered stream, for SSE, GraphQL and tRPC alike. A late joiner first gets
// the current state; `lastEventId` replays what came after it from the stored log; then live events
// follow until the job finishes. Subscribing before reading the log (and skipping seqs already sent)
// means no event falls between the two.
import type { JobEventView } from "@adgen/schema";
import type { RequestContext } from "../../context.ts";
import { type BusEvent, iterateEvents } from "../../events/bus.ts";
import { requireUser } from "../auth/authenticate.ts";
import { JOB_EVENT, toEventView } from "./job-events.ts";
import { findOwnJob, TERMINAL, toJobView } from "./jobs.ts";

export type StreamItem = { event: "step" | "result"; data: JobEventView };

const isTerminalKind = (kind: string) => kind === "workflow.completed" || kind === "workflow.failed";

export function sseName(kind: string): "step" | "result" {
  return isTerminalKind(kind) ? "result" : "step";
}

export async function openJobStream(
  ctx: RequestContext,
  jobId: string,
  options: { lastEventId?: number | null; signal?: AbortSignal } = {},
) {
  const job = await findOwnJob(ctx, jobId);
  const { services } = ctx;
  const queue: JobEventView[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = services.events.subscribe((event: BusEvent) => {
    if (event.kind !== JOB_EVENT) return;
    const view = event.data as JobEventView;
    if (view.jobId !== jobId) return;
    queue.push(view);
    wake?.();
  });
  // A stream abandoned before its first read never runs the generator's `finally`: release the listener here too.
  options.signal?.addEventListener("abort", unsubscribe, { once: true });

  async function* items(): AsyncGenerator<StreamItem> {
    try {
      let lastSeq = 0;
      const after = options.lastEventId ?? null;
      if (after !== null && Number.isFinite(after)) {
        const missed = await services.prisma.jobEvent.findMany({ where: { jobId, seq: { gt: after } }, orderBy: { seq: "asc" } });
        lastSeq = after;
        for (const row of missed) {
          lastSeq = row.seq;
          const view = toEventView(row);
          yield { event: sseName(row.kind), data: view };
          if (isTerminalKind(row.kind)) return;
        }
      } else {
        // Late join: the current state first, as a `step` event carrying the newest stored seq.
        const current = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
        const newest = await services.prisma.jobEvent.findFirst({ where: { jobId }, orderBy: { seq: "desc" } });
        lastSeq = newest?.seq ?? 0;
        const view = toJobView(current);
        if (TERMINAL.has(current.status)) {
          const terminal = await services.prisma.jobEvent.findFirst({
            where: { jobId, kind: { in: ["workflow.completed", "workflow.failed"] } },
            orderBy: { seq: "desc" },
          });
          if (terminal) {
            yield { event: "result", data: toEventView(terminal) };
            return;
          }
        }
        yield {
          event: "step",
          data: {
            id: lastSeq,
            jobId,
            type: "workflow.state",
            step: view.step,
            status: view.status,
            progress: view.progress,
            result: view.result,
            at: view.updatedAt,
          },
        };
      }
      // Live events from here on; the ids sent live, so the terminal event can fill in any that crossed.
      const liveFrom = lastSeq;
      const sent = new Set<number>();
      while (!options.signal?.aborted) {
        const next = queue.shift();
        if (!next) {
          // One abort listener per wait, removed after it: a long stream must not pile them up on the signal.
          const signal = options.signal;
          let onAbort: (() => void) | undefined;
          await new Promise<void>((resolve) => {
            wake = resolve;
            onAbort = () => resolve();
            signal?.addEventListener("abort", onAbort, { once: true });
          });
          if (onAbort) signal?.removeEventListener("abort", onAbort);
          wake = null;
          continue;
        }
        if (next.id <= lastSeq) continue;
        if (isTerminalKind(next.type)) {
          // Events published on different connections may cross on the bus (PostgreSQL NOTIFY): before the
          // last event, the log supplies any that have not arrived yet (a video.ready, say), in order.
          const missed = await services.prisma.jobEvent.findMany({
            where: { jobId, seq: { gt: liveFrom, lt: next.id } },
            orderBy: { seq: "asc" },
          });
          for (const row of missed) if (!sent.has(row.seq)) yield { event: sseName(row.kind), data: toEventView(row) };
          yield { event: sseName(next.type), data: next };
          return;
        }
        lastSeq = next.id;
        sent.add(next.id);
        yield { event: sseName(next.type), data: next };
      }
    } finally {
      unsubscribe();
    }
  }

  return { job: toJobView(job), items: items() };
}

/** Every job event of the signed-in account (all accounts' for an admin), as they happen. */
export function watchAccountJobEvents(ctx: RequestContext, signal?: AbortSignal): AsyncGenerator<JobEventView> {
  const user = requireUser(ctx);
  return iterateEvents(
    ctx.services.events,
    (event) => (event.kind === JOB_EVENT && (event.userId === user.id || user.role === "admin") ? (event.data as JobEventView) : undefined),
    signal,
  );
}
