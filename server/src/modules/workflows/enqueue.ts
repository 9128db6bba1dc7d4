// Puts a job on the queue. The message id derives from (job, queue generation): the periodic sweep
// can re-send a job whose message was lost (a crash right after commit) without ever doubling it.
import type { Job } from "@adgen/prisma";
import type { Services } from "../../context.ts";
import { messageId, QUEUE } from "../../queue/queue.ts";

export interface WorkflowMessage {
  jobId: string;
}

export async function enqueueJob(services: Services, job: Pick<Job, "id" | "queueGeneration">): Promise<void> {
  await services.queue.send<WorkflowMessage>(QUEUE.workflow, { jobId: job.id }, { id: messageId(job.id, job.queueGeneration) });
  services.wakeWorkers();
}

/** Re-sends queued jobs that have waited longer than `olderThanSeconds` (idempotent by message id). */
export async function resendStaleQueuedJobs(services: Services, olderThanSeconds = 30): Promise<number> {
  const stale = await services.prisma.job.findMany({
    where: { status: "queued", updatedAt: { lt: new Date(Date.now() - olderThanSeconds * 1000) } },
    select: { id: true, queueGeneration: true },
    take: 100,
  });
  for (const job of stale) await enqueueJob(services, job);
  return stale.length;
}
