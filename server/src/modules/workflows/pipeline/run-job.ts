// Runs one workflow job to its end (or to its review pause). Safe to call again for the same job: it
// skips finished steps, and it stops as soon as the job is failed elsewhere (cancel, review reject).
import type { Job, Prisma } from "@adgen/prisma";
import { STEP, renderStepFormat, type WorkflowRequest } from "@adgen/schema";
import { randomUUID } from "node:crypto";
import type { Services } from "../../../request-context.ts";
import type { Logger } from "../../../logging/logger.ts";
import { admitNext, sendJobMessage } from "../enqueue.ts";
import { SafeFetchError } from "../../net/safe-fetch.ts";
import { StoryboardValidationError } from "../../render/index.ts";
import { AppError } from "../../../errors.ts";
import { emitJobEvent } from "../job-events.ts";
import { subscribeToJob } from "../job-fan-out.ts";
import { discardRefundedJobMedia, failAndRefund } from "../fail-job.ts";
import { planPublication, queuePublication } from "../../social/publish.ts";
import { buildResult, pipelineFor, type RenderedFormat } from "./steps.ts";
import { releaseToWait, WaitForProvider } from "../provider-wait.ts";

import { PermanentJobError } from "./job-errors.ts";

export { PermanentJobError };

class JobStopped extends Error {}

const since = (startedAt: number) => Math.round(performance.now() - startedAt);

/** A URL's query string may carry a token (a signed link): warnings are logged without it. */
const withoutQueries = (text: string) => text.replace(/(https?:\/\/[^\s?#"']+)[?#][^\s"']*?([.,:;)]?)(?=[\s"']|$)/g, "$1?…$2");

/**
 * What a step could not use (a page that did not load, a picture that failed): a step reports it as
 * `warnings` (the art direction as `generation.warnings`); the operator sees each as a warn line.
 */
function logStepWarnings(log: Logger, step: string, output: unknown): void {
  const found = output as { warnings?: unknown; generation?: { warnings?: unknown } } | null;
  const warnings = [found?.warnings, found?.generation?.warnings].flatMap((list) => (Array.isArray(list) ? list : []));
  for (const warning of warnings) {
    if (typeof warning === "string") log.warn({ step, warning: withoutQueries(warning) }, "job step warning");
  }
}

/**
 * Claims the job for this worker: only an admitted, queued or processing job whose lease is free or
 * lapsed (its worker died) can be claimed, so two workers never run one job at once. A message of a
 * finished (cancelled, failed, completed) or not admitted job claims nothing and is dropped at once.
 */
async function claim(services: Services, jobId: string, owner: string): Promise<Job | null> {
  const lease = services.config.jobLeaseSeconds;
  const rows = await services.prisma.$queryRaw<{ id: string }[]>`
    UPDATE jobs SET lease_owner = ${owner}, heartbeat_at = now(), status = 'processing',
      attempts = attempts + (CASE WHEN awaiting_provider_since IS NULL THEN 1 ELSE 0 END), awaiting_provider_since = NULL,
      started_at = COALESCE(started_at, now()), updated_at = now()
    WHERE id = ${jobId} AND status IN ('queued', 'processing') AND admitted_at IS NOT NULL
      AND (lease_owner IS NULL OR heartbeat_at < now() - (${lease}::int * interval '1 second'))
    RETURNING id`;
  return rows.length ? services.prisma.job.findUnique({ where: { id: jobId } }) : null;
}

export async function runWorkflowJob(services: Services, jobId: string): Promise<void> {
  const { prisma } = services;
  const owner = randomUUID();
  const claimed = await claim(services, jobId, owner);
  if (!claimed) return;
  let job: Job = claimed;
  const request = job.input as unknown as WorkflowRequest;
  const log = services.logger.child({ jobId });
  const runStartedAt = performance.now();
  log.info({ userId: job.userId, type: request.type, attempt: job.attempts }, "job started");
  /** The step under way, for the line of a step that fails or is stopped. */
  let running: { step: string; startedAt: number } | null = null;
  const firstStart = !(await prisma.jobEvent.findFirst({ where: { jobId, kind: "workflow.started" }, select: { seq: true } }));
  if (firstStart) await emitJobEvent(services, job, "workflow.started", { step: null, status: "processing", progress: 0 });

  // Renew the lease while working; a worker that dies stops renewing and the sweep hands the job on.
  const heartbeat = setInterval(
    () => {
      void prisma.job.updateMany({ where: { id: jobId, leaseOwner: owner }, data: { heartbeatAt: new Date() } }).catch(() => {});
    },
    Math.max(500, (services.config.jobLeaseSeconds * 1000) / 3),
  );

  // Stop promptly when the job is failed elsewhere (cancel, reject) while a step is running.
  const abort = new AbortController();
  const unsubscribe = subscribeToJob(services.events, jobId, (view) => {
    if (view.type === "workflow.failed") abort.abort(new JobStopped());
  });

  try {
    const steps = pipelineFor(request);
    const stored = await prisma.jobStep.findMany({ where: { jobId } });
    const outputs = new Map<string, unknown>(stored.map((s) => [s.name, s.output]));
    const totalWeight = steps.reduce((sum, s) => sum + s.weight, 0);
    let before = steps.filter((s) => outputs.has(s.name)).reduce((sum, s) => sum + s.weight, 0);

    for (const step of steps) {
      if (outputs.has(step.name)) continue;
      await assertStillRunning(services, jobId, owner);
      const start = Math.floor((before / totalWeight) * 100);
      job = await prisma.job.update({ where: { id: jobId }, data: { currentStep: step.name, progress: start } });
      let reported = start;
      let pending: Promise<void> = Promise.resolve();
      running = { step: step.name, startedAt: performance.now() };
      const output = await step.run({
        services,
        job,
        request,
        outputs,
        signal: abort.signal,
        progress: (fraction) => {
          const now = Math.floor(((before + step.weight * Math.min(1, Math.max(0, fraction))) / totalWeight) * 100);
          // Persist and announce in steps of 10 points, so the event log stays small.
          if (now >= reported + 10 && now < 100) {
            reported = now;
            // Chained, so progress events are stored in order and before the step's completion.
            pending = pending
              .then(() => prisma.job.update({ where: { id: jobId }, data: { progress: now } }))
              .then((j) => emitJobEvent(services, j, "workflow.step", { step: step.name, status: "processing", progress: now }))
              .then(() => undefined)
              .catch(() => {});
          }
        },
      });
      await pending;
      before += step.weight;
      const progress = Math.min(99, Math.floor((before / totalWeight) * 100));
      await assertStillRunning(services, jobId, owner);
      await prisma.$transaction([
        prisma.jobStep.create({ data: { jobId, name: step.name, output: output as Prisma.InputJsonValue } }),
        prisma.job.update({ where: { id: jobId }, data: { progress } }),
      ]);
      outputs.set(step.name, output);
      log.info({ step: step.name, durationMs: since(running.startedAt), outcome: "done" }, "job step");
      logStepWarnings(log, step.name, output);
      running = null;
      await emitJobEvent(services, job, "workflow.step", {
        step: step.name,
        status: "processing",
        progress,
        result: { completed: step.name },
      });

      if (step.name === STEP.artDirection && job.hitl && job.reviewDecision !== "approved") {
        const paused = await prisma.job.updateMany({
          where: { id: jobId, status: "processing", leaseOwner: owner },
          // Waiting for a person holds no slot: the account's next job is admitted, and an approved job is
          // admitted again in its turn.
          data: { status: "awaiting_review", reviewRequestedAt: new Date(), currentStep: STEP.review, leaseOwner: null, admittedAt: null },
        });
        if (paused.count === 1) {
          log.info({ step: STEP.review, durationMs: since(runStartedAt) }, "job paused for review");
          await admitNext(services, job.userId);
          await emitJobEvent(services, job, "workflow.suspended", {
            step: STEP.review,
            status: "awaiting_review",
            progress,
            result: { review: "pending" },
          });
        }
        return;
      }
    }

    const result = buildResult(services, request, outputs);
    // `publish: true`: the post is scheduled now and recorded in the result; it goes out at its time.
    const publication = await planPublication(services, job, request, result);
    if (publication) result.publication = publication.publication;
    const done = await prisma.job.updateMany({
      where: { id: jobId, status: "processing", leaseOwner: owner },
      data: {
        leaseOwner: null,
        status: "completed",
        progress: 100,
        currentStep: STEP.done,
        result: result as unknown as Prisma.InputJsonValue,
        finishedAt: new Date(),
        error: null,
      },
    });
    // Failed elsewhere meanwhile (cancel): a refunded job keeps none of the files this run stored.
    if (done.count === 0) {
      log.info({ durationMs: since(runStartedAt) }, "job finished after it was stopped; its files were discarded");
      await discardRefundedJobMedia(services, jobId);
    }
    if (done.count === 1) {
      log.info({ durationMs: since(runStartedAt), assets: result.assets.length }, "job completed");
      if (publication?.queue) await queuePublication(services, publication.queue);
      await admitNext(services, job.userId);
      // A video is ready for download (SPEC) only now: nothing of a job is served before it completes.
      for (const step of steps) {
        const rendered = renderStepFormat(step.name) !== null ? (outputs.get(step.name) as RenderedFormat) : null;
        if (rendered?.kind !== "video") continue;
        const url = `${services.config.publicUrl}/api/media/${rendered.key.replace(/^jobs\//, "")}`;
        await emitJobEvent(services, job, "video.ready", {
          step: step.name,
          status: "completed",
          progress: 100,
          videoUrl: url,
          duration: rendered.durationSec,
          result: { format: rendered.format, url },
        });
      }
      const first = result.assets[0];
      await emitJobEvent(services, job, "workflow.completed", {
        step: STEP.done,
        status: "completed",
        progress: 100,
        result,
        videoUrl: result.finalVideo,
        duration: first?.duration ?? null,
      });
    }
  } catch (error) {
    if (error instanceof WaitForProvider && !abort.signal.aborted) {
      // The provider is still working: let go of the job (its step is not stored) and come back later.
      const waiting: { step: string; startedAt: number } | null = running;
      if (await releaseToWait(services, jobId, owner, error.seconds)) {
        log.info(
          { step: waiting?.step, pending: error.pending, durationMs: waiting ? since(waiting.startedAt) : 0 },
          "job waiting for the video service",
        );
      }
      return;
    }
    if (error instanceof JobStopped || abort.signal.aborted) {
      const stoppedStep: { step: string; startedAt: number } | null = running;
      if (stoppedStep) log.info({ step: stoppedStep.step, durationMs: since(stoppedStep.startedAt), outcome: "stopped" }, "job step");
      log.info({ durationMs: since(runStartedAt) }, "job stopped");
      // Stopped by a cancel or reject: a render that finished after the refund deleted the job's media
      // has just stored its file; it must not stay downloadable.
      await discardRefundedJobMedia(services, jobId);
      return;
    }
    const message = error instanceof AppError || error instanceof PermanentJobError ? error.message : `${(error as Error).message}`;
    // No retry fixes a refused address or an invalid storyboard: fail (and refund) at once.
    const permanent =
      error instanceof PermanentJobError ||
      (error instanceof SafeFetchError && error.reason === "unsafe_url") ||
      error instanceof StoryboardValidationError;
    const failedStep: { step: string; startedAt: number } | null = running;
    log.warn(
      {
        ...(failedStep ? { step: failedStep.step, durationMs: since(failedStep.startedAt) } : {}),
        outcome: "failed",
        error: withoutQueries(message),
        // Permanent: the job fails and is refunded now; otherwise the queue tries again while attempts remain.
        permanent,
      },
      failedStep ? "job step" : "job attempt failed",
    );
    if (permanent) {
      await failAndRefund(services, jobId, message);
      await admitNext(services, job.userId);
      return;
    }
    await prisma.job.updateMany({ where: { id: jobId, leaseOwner: owner }, data: { error: message.slice(0, 2000) } }).catch(() => {});
    throw error; // the queue retries; after the last attempt the dead-letter worker fails and refunds
  } finally {
    clearInterval(heartbeat);
    unsubscribe();
    await prisma.job.updateMany({ where: { id: jobId, leaseOwner: owner }, data: { leaseOwner: null } }).catch(() => {});
  }
}

async function assertStillRunning(services: Services, jobId: string, owner: string): Promise<Job> {
  const job = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
  if (job.status !== "processing" || job.leaseOwner !== owner) throw new JobStopped();
  return job;
}

/**
 * Jobs whose worker died (lease lapsed): put back on the queue to resume, or, when they have used
 * their attempts, failed and refunded.
 */
export async function recoverOrphanedJobs(services: Services): Promise<number> {
  const lease = services.config.jobLeaseSeconds;
  const orphans = await services.prisma.job.findMany({
    where: { status: "processing", leaseOwner: { not: null }, heartbeatAt: { lt: new Date(Date.now() - lease * 1000) } },
    take: 100,
  });
  for (const job of orphans) {
    if (job.attempts > services.config.queue.retryLimit) {
      await failAndRefund(services, job.id, `The worker running this job stopped responding (${job.attempts} attempts)`);
      await admitNext(services, job.userId);
      continue;
    }
    const released = await services.prisma.job.updateMany({
      where: { id: job.id, leaseOwner: job.leaseOwner, heartbeatAt: job.heartbeatAt },
      data: { leaseOwner: null, queueGeneration: { increment: 1 } },
    });
    // Still admitted: it keeps its account's slot and gets a fresh message.
    if (released.count === 1) await sendJobMessage(services, { id: job.id, queueGeneration: job.queueGeneration + 1 });
  }
  return orphans.length;
}
