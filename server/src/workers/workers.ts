// The background side of a process: workflow workers, the dead-letter worker that fails and refunds
// jobs whose last attempt failed, webhook and export workers, and periodic sweeps.
import type { Services } from "../request-context.ts";
import { QUEUE, type QueueMessage } from "../queue/queue.ts";
import { admitNext, admitWaitingJobs, type WorkflowMessage, resendStaleQueuedJobs } from "../modules/workflows/launch/enqueue.ts";
import { failAndRefund } from "../modules/workflows/jobs/fail-job.ts";
import { resendStaleProviderWaits } from "../modules/workflows/jobs/provider-wait.ts";
import { runDueAgents } from "../modules/agents/agents.ts";
import { runWorkflowJob } from "../modules/workflows/pipeline/run-job.ts";
import { deliverWebhook, type WebhookMessage } from "../modules/webhooks/deliver.ts";
import { runExport, type ExportMessage } from "../modules/projects/exports.ts";
import { resendStaleExtractions, runKnowledgeExtraction } from "../modules/knowledge/extraction-job.ts";
import type { ExtractionMessage } from "../modules/knowledge/knowledge-items.ts";
import { type PublishMessage, runPublication } from "../modules/social/publish.ts";
import { deliverDueMail } from "../modules/mail/deliver-mail.ts";
import { createSegmentHelper, type SegmentMessage } from "../modules/render/segment-farm.ts";
import { expirePreviews } from "../modules/workflows/preview/preview-media.ts";

export interface Workers {
  workflowWorkerIds: string[];
  /** This process's pollers of the render-segment queue. */
  segmentWorkerIds: string[];
  /** Has this process's segment helper look for queued segments of other workers' renders now. */
  wakeSegmentHelper(): void;
  stop(): Promise<void>;
}

export async function startWorkers(services: Services, workflowConcurrency: number): Promise<Workers> {
  const { queue } = services;
  const workflowWorkerIds =
    workflowConcurrency > 0
      ? await queue.work<WorkflowMessage>(QUEUE.workflow, workflowConcurrency, (message) => runWorkflowJob(services, message.data.jobId))
      : [];
  if (workflowConcurrency > 0) {
    await queue.work<WorkflowMessage>(QUEUE.workflowFailed, 1, async (message: QueueMessage<WorkflowMessage>) => {
      const job = await services.prisma.job.findUnique({ where: { id: message.data.jobId } });
      // A stale message of a job that another worker resumed (and is running now) is not a failure.
      const leaseFresh =
        job?.leaseOwner && job.heartbeatAt && Date.now() - job.heartbeatAt.getTime() < services.config.jobLeaseSeconds * 1000;
      if (!job || leaseFresh) return;
      const reason = job?.error ? `The workflow failed: ${job.error}` : "The workflow stopped responding and was given up";
      await failAndRefund(services, message.data.jobId, reason);
      await admitNext(services, job.userId);
    });
    await queue.work<WebhookMessage>(QUEUE.webhook, 1, (message) =>
      deliverWebhook(services, message.data, message.retryCount, message.retryLimit),
    );
    await queue.work<ExportMessage>(QUEUE.export, 1, (message) => runExport(services, message.data.exportId));
    await queue.work<ExtractionMessage>(QUEUE.knowledge, 1, (message) => runKnowledgeExtraction(services, message));
    await queue.work<PublishMessage>(QUEUE.publish, 1, (message) => runPublication(services, message));
  }
  // Scene segments of other workers' renders, one at a time, woken by the queue or the broadcast.
  const { segmentCache: cache } = services;
  const segmentHelper = workflowConcurrency > 0 && cache ? createSegmentHelper({ ...services, cache }) : null;
  const segmentWorkerIds = segmentHelper ? await queue.work<SegmentMessage>(QUEUE.renderSegment, 1, () => segmentHelper.wake()) : [];

  const sweep = async () => {
    const failed = (task: string) => (error: Error) => services.logger.error({ task, error: error.message }, "sweep failed");
    // The agents (review expiry, orphaned-job recovery, webhook retries, performance decay): each due one
    // runs and records its run for GET /api/admin/agents.
    await runDueAgents(services).catch(failed("agents"));
    // The e-mails in mail_outbox that are due (sent through SMTP_URL; without it they wait).
    await deliverDueMail(services).catch(failed("mail"));
    if (workflowConcurrency > 0) await resendStaleQueuedJobs(services).catch(failed("requeue"));
    // Jobs waiting for generated clips whose next look was lost (a crash between letting go and sending).
    const staleWait = Math.max(60, services.config.providers.pollSeconds * 4);
    if (workflowConcurrency > 0) await resendStaleProviderWaits(services, staleWait).catch(failed("provider waits"));
    if (workflowConcurrency > 0) await resendStaleExtractions(services).catch(failed("knowledge requeue"));
    // Every instance admits waiting jobs of accounts with free slots (a finish seen by no admission, a
    // crash between a job's end and the next admission, an external worker's report).
    await admitWaitingJobs(services).catch(failed("admission"));
    // Queued segments whose wake-up was missed (a notification lost between machines).
    void segmentHelper?.wake().catch(failed("segment helper"));
    // Finished segment tasks: their segments are in the cache; the rows only told the renders' owners.
    await services.prisma.renderSegmentTask
      .deleteMany({ where: { status: { in: ["done", "failed"] }, updatedAt: { lt: new Date(Date.now() - 3600_000) } } })
      .catch(failed("segment tasks"));
    // Free previews older than a day, with their pictures (a launched one's are the job's own copies).
    await expirePreviews(services).catch(failed("previews"));
    await services.prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 24 * 3600_000) } } }).catch(() => {});
  };
  const timer = setInterval(() => void sweep(), services.config.sweepSeconds * 1000);
  timer.unref();

  return {
    workflowWorkerIds,
    segmentWorkerIds,
    wakeSegmentHelper: () => void segmentHelper?.wake().catch(() => {}),
    async stop() {
      clearInterval(timer);
    },
  };
}
