// Runs one workflow job to its end (or to its review pause). Safe to call again for the same job: it
// skips finished steps, and it stops as soon as the job is failed elsewhere (cancel, review reject).
// The run: claim the job (job-lease.ts), run each step not yet finished, pause for review after the art
// direction of a reviewed job, finish (finish-job.ts); a failure is retried, waited out or refunded.
import type { Prisma } from "@adgen/prisma";
import { STEP, type WorkflowRequest } from "@adgen/schema";
import { randomUUID } from "node:crypto";
import type { Services } from "../../../request-context.ts";
import type { Logger } from "../../../logging/logger.ts";
import { admitNext, sendJobMessage } from "../launch/enqueue.ts";
import { SafeFetchError } from "../../net/safe-fetch.ts";
import { StoryboardValidationError } from "../../render/index.ts";
import { AppError } from "../../../errors.ts";
import { emitJobEvent } from "../jobs/job-events.ts";
import { discardRefundedJobMedia, failAndRefund } from "../jobs/fail-job.ts";
import { releaseToWait, WaitForProvider } from "../jobs/provider-wait.ts";
import { finishJob } from "./finish-job.ts";
import { assertStillRunning, claim, holdLease, JobStopped } from "./job-lease.ts";
import { type JobRun, since } from "./job-run.ts";
import { PermanentJobError } from "./job-errors.ts";
import type { PipelineStep } from "./step-types.ts";
import { pipelineFor } from "./steps.ts";

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

/** The steps' progress: the weight of the finished steps against the whole job's. */
interface Progress {
  before: number;
  total: number;
}

export async function runWorkflowJob(services: Services, jobId: string): Promise<void> {
  const owner = randomUUID();
  const claimed = await claim(services, jobId, owner);
  if (!claimed) return;
  const request = claimed.input as unknown as WorkflowRequest;
  const log = services.logger.child({ jobId });
  const startedAt = performance.now();
  log.info({ userId: claimed.userId, type: request.type, attempt: claimed.attempts }, "job started");
  const firstStart = !(await services.prisma.jobEvent.findFirst({ where: { jobId, kind: "workflow.started" }, select: { seq: true } }));
  if (firstStart) await emitJobEvent(services, claimed, "workflow.started", { step: null, status: "processing", progress: 0 });
  const lease = holdLease(services, jobId, owner);
  const run: JobRun = { services, jobId, owner, job: claimed, request, log, startedAt, signal: lease.signal, running: null };
  try {
    const steps = pipelineFor(request);
    const outputs = await runSteps(run, steps);
    if (outputs) await finishJob(run, steps, outputs);
  } catch (error) {
    await settleFailure(run, error);
  } finally {
    await lease.release();
  }
}

/** Runs the steps not yet finished, in order; null when the job paused for review after its art direction. */
async function runSteps(run: JobRun, steps: PipelineStep[]): Promise<Map<string, unknown> | null> {
  const stored = await run.services.prisma.jobStep.findMany({ where: { jobId: run.jobId } });
  const outputs = new Map<string, unknown>(stored.map((s) => [s.name, s.output]));
  const progress: Progress = {
    before: steps.filter((s) => outputs.has(s.name)).reduce((sum, s) => sum + s.weight, 0),
    total: steps.reduce((sum, s) => sum + s.weight, 0),
  };
  for (const step of steps) {
    if (outputs.has(step.name)) continue;
    const done = await runStep(run, step, outputs, progress);
    if (step.name === STEP.artDirection && run.job.hitl && run.job.reviewDecision !== "approved") {
      await pauseForReview(run, done);
      return null;
    }
  }
  return outputs;
}

/** Runs one step, stores its output and announces it; returns the job's progress after it. */
async function runStep(run: JobRun, step: PipelineStep, outputs: Map<string, unknown>, progress: Progress): Promise<number> {
  const { services, jobId, owner, log } = run;
  const { prisma } = services;
  await assertStillRunning(services, jobId, owner);
  const start = Math.floor((progress.before / progress.total) * 100);
  run.job = await prisma.job.update({ where: { id: jobId }, data: { currentStep: step.name, progress: start } });
  let reported = start;
  let pending: Promise<void> = Promise.resolve();
  const running = { step: step.name, startedAt: performance.now() };
  run.running = running;
  const output = await step.run({
    services,
    job: run.job,
    request: run.request,
    outputs,
    signal: run.signal,
    progress: (fraction) => {
      const now = Math.floor(((progress.before + step.weight * Math.min(1, Math.max(0, fraction))) / progress.total) * 100);
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
  progress.before += step.weight;
  const after = Math.min(99, Math.floor((progress.before / progress.total) * 100));
  await assertStillRunning(services, jobId, owner);
  await prisma.$transaction([
    prisma.jobStep.create({ data: { jobId, name: step.name, output: output as Prisma.InputJsonValue } }),
    prisma.job.update({ where: { id: jobId }, data: { progress: after } }),
  ]);
  outputs.set(step.name, output);
  log.info({ step: step.name, durationMs: since(running.startedAt), outcome: "done" }, "job step");
  logStepWarnings(log, step.name, output);
  run.running = null;
  await emitJobEvent(services, run.job, "workflow.step", {
    step: step.name,
    status: "processing",
    progress: after,
    result: { completed: step.name },
  });
  return after;
}

/** A reviewed job waits for its person after the art direction. */
async function pauseForReview(run: JobRun, progress: number): Promise<void> {
  const { services, jobId, owner, job } = run;
  const paused = await services.prisma.job.updateMany({
    where: { id: jobId, status: "processing", leaseOwner: owner },
    // Waiting for a person holds no slot: the account's next job is admitted, and an approved job is
    // admitted again in its turn.
    data: { status: "awaiting_review", reviewRequestedAt: new Date(), currentStep: STEP.review, leaseOwner: null, admittedAt: null },
  });
  if (paused.count !== 1) return;
  run.log.info({ step: STEP.review, durationMs: since(run.startedAt) }, "job paused for review");
  await admitNext(services, job.userId);
  await emitJobEvent(services, job, "workflow.suspended", {
    step: STEP.review,
    status: "awaiting_review",
    progress,
    result: { review: "pending" },
  });
}

/**
 * A run that threw: a provider still at work is waited out, a stopped job keeps none of its files, a
 * failure no retry can fix fails (and refunds) now; any other failure is rethrown for the queue to retry.
 */
async function settleFailure(run: JobRun, error: unknown): Promise<void> {
  const { services, jobId, owner, log, running } = run;
  if (error instanceof WaitForProvider && !run.signal.aborted) {
    // The provider is still working: let go of the job (its step is not stored) and come back later.
    if (await releaseToWait(services, jobId, owner, error.seconds)) {
      log.info(
        { step: running?.step, pending: error.pending, durationMs: running ? since(running.startedAt) : 0 },
        "job waiting for the video service",
      );
    }
    return;
  }
  if (error instanceof JobStopped || run.signal.aborted) {
    if (running) log.info({ step: running.step, durationMs: since(running.startedAt), outcome: "stopped" }, "job step");
    log.info({ durationMs: since(run.startedAt) }, "job stopped");
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
  log.warn(
    {
      ...(running ? { step: running.step, durationMs: since(running.startedAt) } : {}),
      outcome: "failed",
      error: withoutQueries(message),
      // Permanent: the job fails and is refunded now; otherwise the queue tries again while attempts remain.
      permanent,
    },
    running ? "job step" : "job attempt failed",
  );
  if (permanent) {
    await failAndRefund(services, jobId, message);
    await admitNext(services, run.job.userId);
    return;
  }
  await services.prisma.job
    .updateMany({ where: { id: jobId, leaseOwner: owner }, data: { error: message.slice(0, 2000) } })
    .catch(() => {});
  throw error; // the queue retries; after the last attempt the dead-letter worker fails and refunds
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
