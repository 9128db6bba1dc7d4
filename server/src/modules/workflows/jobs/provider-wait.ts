// A job that waits for a remote provider holds no worker. The step that started the provider's work throws
// `WaitForProvider`; the runner then lets go of the job (no lease, still `processing`, so it keeps its
// account's slot) and leaves a queue message that brings it back after a poll interval. The provider's
// webhook brings it back at once. The message lives in the queue's tables, so a restart loses nothing, and
// the sweep re-sends the message of a waiting job that has none (lost between commit and send).
import type { Services } from "../../../request-context.ts";
import { messageId, QUEUE } from "../../../queue/queue.ts";
import type { WorkflowMessage } from "../launch/enqueue.ts";

/** Thrown by a step whose provider work is not finished yet: come back in `seconds`. */
export class WaitForProvider extends Error {
  constructor(
    readonly seconds: number,
    readonly pending: number,
  ) {
    super(`waiting for ${pending} generation${pending === 1 ? "" : "s"} at the video service`);
  }
}

/** Sends the job's next message, `delaySeconds` from now, under a new queue generation (the old message is dropped). */
async function sendResume(services: Services, jobId: string, delaySeconds: number): Promise<void> {
  const rows = await services.prisma.$queryRaw<{ queue_generation: number; old: number }[]>`
    UPDATE jobs SET queue_generation = queue_generation + 1, updated_at = now()
    WHERE id = ${jobId} AND status = 'processing' AND lease_owner IS NULL AND awaiting_provider_since IS NOT NULL
    RETURNING queue_generation, queue_generation - 1 AS old`;
  const row = rows[0];
  if (!row) return;
  await services.queue.delete(QUEUE.workflow, messageId(jobId, row.old)).catch(() => {});
  await services.queue.send<WorkflowMessage>(
    QUEUE.workflow,
    { jobId },
    { id: messageId(jobId, row.queue_generation), ...(delaySeconds > 0 ? { startAfter: Math.ceil(delaySeconds) } : {}) },
  );
  if (delaySeconds <= 0) services.wakeWorkers();
}

/**
 * The runner lets go of a job that waits for its provider: only while this worker holds it. Returns
 * whether it did (a job cancelled meanwhile is not resumed).
 */
export async function releaseToWait(services: Services, jobId: string, owner: string, seconds: number): Promise<boolean> {
  const released = await services.prisma.$executeRaw`
    UPDATE jobs SET lease_owner = NULL, awaiting_provider_since = COALESCE(awaiting_provider_since, now()), updated_at = now()
    WHERE id = ${jobId} AND status = 'processing' AND lease_owner = ${owner}`;
  if (released !== 1) return false;
  await sendResume(services, jobId, seconds);
  return true;
}

/** The provider said a generation of this job is done (its webhook): the job resumes now. */
export async function wakeWaitingJob(services: Services, jobId: string): Promise<void> {
  await sendResume(services, jobId, 0);
}

/** Sweep: waiting jobs untouched for `staleSeconds` get their message again (one lost to a crash). */
export async function resendStaleProviderWaits(services: Services, staleSeconds: number): Promise<number> {
  const stale = await services.prisma.job.findMany({
    where: {
      status: "processing",
      leaseOwner: null,
      awaitingProviderSince: { not: null },
      updatedAt: { lt: new Date(Date.now() - staleSeconds * 1000) },
    },
    select: { id: true },
    take: 100,
  });
  for (const job of stale) await sendResume(services, job.id, 0);
  return stale.length;
}
