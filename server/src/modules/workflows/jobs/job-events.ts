// A job's events: stored in order (the SSE id is the row's seq) and then published on the bus, so a
// live subscriber and a late one that replays the log see the same sequence.
import type { Job, Prisma } from "@adgen/prisma";
import type { EventKind, JobEventView } from "@adgen/schema";
import type { Services, Tx } from "../../../request-context.ts";
import { notifyJobOutcome } from "../../notifications/job-notifications.ts";
import { scheduleWebhooks } from "../../webhooks/deliver.ts";

export const JOB_EVENT = "job.event";

/**
 * The progress of a job whose steps have all run but which has not completed yet: what the last step
 * leaves (run-job.ts caps it there) and what each `video.ready` says. Only `workflow.completed` says
 * 100 and `completed`, so a client that stops at the first completed event gets the result.
 */
export const LAST_STEP_PROGRESS = 99;

/** A `video.ready` event: the job is not complete until `workflow.completed` follows. */
export function videoReadyData(video: { step: string | null; videoUrl: string; duration: number | null; result?: unknown }): JobEventData {
  return { ...video, status: "processing", progress: LAST_STEP_PROGRESS };
}

export interface JobEventData {
  step?: string | null;
  status: string;
  progress: number;
  result?: unknown;
  error?: string | null;
  videoUrl?: string | null;
  duration?: number | null;
}

export function toEventView(row: { seq: number; jobId: string; kind: string; data: unknown; createdAt: Date }): JobEventView {
  const data = row.data as JobEventData;
  const terminal = row.kind === "workflow.completed" || row.kind === "workflow.failed";
  return {
    id: row.seq,
    jobId: row.jobId,
    type: row.kind,
    step: data.step ?? null,
    status: data.status,
    progress: data.progress,
    result: data.result ?? null,
    ...(terminal
      ? {
          success: row.kind === "workflow.completed",
          videoUrl: data.videoUrl ?? null,
          duration: data.duration ?? null,
          error: data.error ?? null,
        }
      : {}),
    ...(row.kind === "video.ready" ? { videoUrl: data.videoUrl ?? null, duration: data.duration ?? null } : {}),
    at: row.createdAt.toISOString(),
  };
}

/** Appends an event inside `db` (a transaction or the client); call `publishJobEvents` after commit. */
export async function appendJobEvent(db: Tx, job: Pick<Job, "id" | "userId">, kind: EventKind, data: JobEventData) {
  return db.jobEvent.create({ data: { jobId: job.id, userId: job.userId, kind, data: data as unknown as Prisma.InputJsonValue } });
}

/** Publishes stored events on the bus and queues their webhook deliveries. */
export function publishJobEvents(
  services: Services,
  rows: { seq: number; jobId: string; userId: string; kind: string; data: unknown; createdAt: Date }[],
) {
  for (const row of rows) services.events.publish({ kind: JOB_EVENT, userId: row.userId, data: toEventView(row) });
  // A finished or failed job also tells its owner's browsers (Web Push).
  for (const row of rows) notifyJobOutcome(services, row);
  scheduleWebhooks(services, rows).catch((error: Error) =>
    services.logger.error({ jobId: rows[0]?.jobId, error: error.message }, "webhooks: could not schedule deliveries"),
  );
}

/** Appends and publishes in one go (outside a transaction). */
export async function emitJobEvent(services: Services, job: Pick<Job, "id" | "userId">, kind: EventKind, data: JobEventData) {
  const row = await appendJobEvent(services.prisma, job, kind, data);
  publishJobEvents(services, [{ ...row, userId: job.userId }]);
  return row;
}
