// A job's progress as one ordered stream, for SSE, GraphQL and tRPC alike. A late joiner first gets
// the current state; `lastEventId` replays what came after it from the stored log; then live events
// follow until the job finishes. Subscribing before reading the log (and skipping seqs already sent)
// means no event falls between the two.
import type { JobEventView } from "@adgen/schema";
import type { RequestContext } from "../../context.ts";
import { iterateEvents } from "../../events/bus.ts";
import { requireUser } from "../auth/authenticate.ts";
import { JOB_EVENT, toEventView } from "./job-events.ts";
import { subscribeToJob } from "./job-fan-out.ts";
import { findOwnJob, TERMINAL, toJobView } from "./jobs.ts";

export type StreamItem = { id: number; event: "step" | "result"; data: JobEventView };

const item = (event: "step" | "result", data: JobEventView): StreamItem => ({ id: data.id, event, data });

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
  const unsubscribe = subscribeToJob(services.events, jobId, (view) => {
    queue.push(view);
    wake?.();
  });
  // One abort listener for the stream's life: it releases the subscription (also of a stream abandoned
  // before its first read, whose generator never runs its `finally`) and ends a wait in progress.
  options.signal?.addEventListener(
    "abort",
    () => {
      unsubscribe();
      wake?.();
    },
    { once: true },
  );

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
          yield item(sseName(row.kind), view);
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
            yield item("result", toEventView(terminal));
            return;
          }
        }
        yield item("step", {
          id: lastSeq,
          jobId,
          type: "workflow.state",
          step: view.step,
          status: view.status,
          progress: view.progress,
          result: view.result,
          at: view.updatedAt,
        });
      }
      // Live events from here on; the ids sent live, so the terminal event can fill in any that crossed.
      const liveFrom = lastSeq;
      const sent = new Set<number>();
      while (!options.signal?.aborted) {
        const next = queue.shift();
        if (!next) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
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
          for (const row of missed) if (!sent.has(row.seq)) yield item(sseName(row.kind), toEventView(row));
          yield item(sseName(next.type), next);
          return;
        }
        lastSeq = next.id;
        sent.add(next.id);
        yield item(sseName(next.type), next);
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
