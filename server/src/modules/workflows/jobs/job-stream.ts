// A job's progress as one ordered stream, for SSE, GraphQL and tRPC alike. A late joiner first gets
// the current state; `lastEventId` replays what came after it from the stored log; then live events
// follow until the job finishes. Subscribing before reading the log (and skipping seqs already sent)
// means no event falls between the two. SSE has it pushed, the others iterate it (events/push-source.ts).
import type { JobEventView } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { iterateEvents } from "../../../bus/bus.ts";
import { type PushSource, pushableStream } from "../../../streams/push-source.ts";
import { JOB_EVENT, LAST_STEP_PROGRESS, toEventView } from "./job-events.ts";
import { subscribeToJob } from "./job-fan-out.ts";
import { findJobFor, type JobActor, TERMINAL, toJobView } from "./jobs.ts";

export type StreamItem = { id: number; event: "step" | "result"; data: JobEventView };

const item = (event: "step" | "result", data: JobEventView): StreamItem => ({ id: data.id, event, data });

const isTerminalKind = (kind: string) => kind === "workflow.completed" || kind === "workflow.failed";

export function sseName(kind: string): "step" | "result" {
  return isTerminalKind(kind) ? "result" : "step";
}

export async function openJobStream(
  services: Services,
  actor: JobActor,
  jobId: string,
  options: { lastEventId?: number | null; signal?: AbortSignal } = {},
) {
  const job = await findJobFor(services, actor, jobId);
  const source = jobEventSource(services, jobId, options.lastEventId ?? null);
  return { job: toJobView(job), items: pushableStream(source, options.signal) };
}

/**
 * The job's stream as a push source. Each `pipe` subscribes first, then sends the current state (or the
 * log after `lastEventId`), then goes live: from then on an event is written to the sink in the same call
 * that published it, so the SSE transport can put it on every socket without a promise per subscriber.
 */
function jobEventSource(services: Services, jobId: string, after: number | null): PushSource<StreamItem> {
  return {
    pipe(sink) {
      let phase: "opening" | "live" | "closing" | "done" = "opening";
      let lastSeq = 0;
      let liveFrom = 0;
      const pending: JobEventView[] = [];
      const sent = new Set<number>();
      const finish = (error?: Error) => {
        if (phase === "done") return;
        phase = "done";
        unsubscribe();
        sink.end(error);
      };
      const fail = (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)));

      const deliver = (next: JobEventView) => {
        if (next.id <= lastSeq) return;
        if (isTerminalKind(next.type)) {
          // Events published on different connections may cross on the bus (PostgreSQL NOTIFY): before the
          // last event, the log supplies any that have not arrived yet (a video.ready, say), in order.
          phase = "closing";
          services.prisma.jobEvent
            .findMany({ where: { jobId, seq: { gt: liveFrom, lt: next.id } }, orderBy: { seq: "asc" } })
            .then((missed) => {
              if (phase === "done") return;
              for (const row of missed) if (!sent.has(row.seq)) sink.write(item(sseName(row.kind), toEventView(row)));
              sink.write(item(sseName(next.type), next));
              finish();
            }, fail);
          return;
        }
        lastSeq = next.id;
        sent.add(next.id);
        sink.write(item(sseName(next.type), next));
      };

      // Subscribed before the log is read, so no event falls between the two.
      const unsubscribe = subscribeToJob(services.events, jobId, (view) => {
        if (phase === "live") deliver(view);
        else if (phase === "opening") pending.push(view);
      });

      const open = async (): Promise<boolean> => {
        if (after !== null && Number.isFinite(after)) {
          const missed = await services.prisma.jobEvent.findMany({ where: { jobId, seq: { gt: after } }, orderBy: { seq: "asc" } });
          lastSeq = after;
          for (const row of missed) {
            if (phase === "done") return false;
            lastSeq = row.seq;
            sink.write(item(sseName(row.kind), toEventView(row)));
            if (isTerminalKind(row.kind)) return false;
          }
          return true;
        }
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
            if (phase !== "done") sink.write(item("result", toEventView(terminal)));
            return false;
          }
        }
        if (phase === "done") return false;
        // Only workflow.completed says completed: a job stored as completed whose last event is not yet
        // written (its video.ready events go first) is still processing to a stream's reader.
        const settling = view.status === "completed";
        sink.write(
          item("step", {
            id: lastSeq,
            jobId,
            type: "workflow.state",
            step: view.step,
            status: settling ? "processing" : view.status,
            progress: settling ? Math.min(view.progress, LAST_STEP_PROGRESS) : view.progress,
            result: settling ? null : view.result,
            at: view.updatedAt,
          }),
        );
        return true;
      };

      open().then((goesLive) => {
        if (phase === "done") return;
        if (!goesLive) return finish();
        // Live from here on; the ids sent live, so the terminal event can fill in any that crossed.
        liveFrom = lastSeq;
        phase = "live";
        for (const view of pending.splice(0)) if (phase === "live") deliver(view);
      }, fail);

      return () => {
        if (phase === "done") return;
        phase = "done";
        unsubscribe();
      };
    },
  };
}

/** Every job event of the signed-in account (all accounts' for an admin), as they happen. */
export function watchAccountJobEvents(services: Services, actor: JobActor, signal?: AbortSignal): AsyncGenerator<JobEventView> {
  return iterateEvents(
    services.events,
    (event) =>
      event.kind === JOB_EVENT && (event.userId === actor.id || actor.role === "admin") ? (event.data as JobEventView) : undefined,
    signal,
  );
}
