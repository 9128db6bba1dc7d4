// Runs one workflow job to its end (or to its review pause). Safe to call again for the same job: it
// skips finished steps, and it stops as soon as the job is failed elsewhere (cancel, review reject).
import type { Job, Prisma } from "@adgen/prisma";
import type { WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../context.ts";
import { AppError } from "../../../errors.ts";
import { emitJobEvent, JOB_EVENT } from "../job-events.ts";
import { failAndRefund } from "../fail-job.ts";
import { buildResult, pipelineFor, type RenderedFormat } from "./steps.ts";

/** A failure no retry can fix: the job fails (and is refunded) at once. */
export class PermanentJobError extends Error {}

class JobStopped extends Error {}

export async function runWorkflowJob(services: Services, jobId: string): Promise<void> {
  const { prisma } = services;
  let job = await prisma.job.findUnique({ where: { id: jobId } });
  if (!job || job.status === "completed" || job.status === "failed" || job.status === "awaiting_review") return;
  const request = job.input as unknown as WorkflowRequest;

  const firstStart = job.startedAt === null;
  job = await prisma.job.update({
    where: { id: jobId },
    data: { status: "processing", attempts: { increment: 1 }, ...(firstStart ? { startedAt: new Date() } : {}) },
  });
  if (firstStart) await emitJobEvent(services, job, "workflow.started", { step: null, status: "processing", progress: 0 });

  // Stop promptly when the job is failed elsewhere (cancel, reject) while a step is running.
  const abort = new AbortController();
  const unsubscribe = services.events.subscribe((event) => {
    const data = event.data as { jobId?: string; type?: string };
    if (event.kind === JOB_EVENT && data.jobId === jobId && data.type === "workflow.failed") abort.abort(new JobStopped());
  });

  try {
    const steps = pipelineFor(request);
    const stored = await prisma.jobStep.findMany({ where: { jobId } });
    const outputs = new Map<string, unknown>(stored.map((s) => [s.name, s.output]));
    const totalWeight = steps.reduce((sum, s) => sum + s.weight, 0);
    let before = steps.filter((s) => outputs.has(s.name)).reduce((sum, s) => sum + s.weight, 0);

    for (const step of steps) {
      if (outputs.has(step.name)) continue;
      await assertStillRunning(services, jobId);
      const start = Math.floor((before / totalWeight) * 100);
      job = await prisma.job.update({ where: { id: jobId }, data: { currentStep: step.name, progress: start } });
      let reported = start;
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
            void prisma.job
              .update({ where: { id: jobId }, data: { progress: now } })
              .then((j) => emitJobEvent(services, j, "workflow.step", { step: step.name, status: "processing", progress: now }))
              .catch(() => {});
          }
        },
      });
      before += step.weight;
      const progress = Math.min(99, Math.floor((before / totalWeight) * 100));
      await assertStillRunning(services, jobId);
      await prisma.$transaction([
        prisma.jobStep.create({ data: { jobId, name: step.name, output: output as Prisma.InputJsonValue } }),
        prisma.job.update({ where: { id: jobId }, data: { progress } }),
      ]);
      outputs.set(step.name, output);
      await emitJobEvent(services, job, "workflow.step", {
        step: step.name,
        status: "processing",
        progress,
        result: { completed: step.name },
      });

      if (step.name.startsWith("render:")) {
        const rendered = output as RenderedFormat;
        if (rendered.kind === "video") {
          const url = `${services.config.publicUrl}/api/media/${rendered.key.replace(/^jobs\//, "")}`;
          await emitJobEvent(services, job, "video.ready", {
            step: step.name,
            status: "processing",
            progress,
            videoUrl: url,
            duration: rendered.durationSec,
            result: { format: rendered.format, url },
          });
        }
      }

      if (step.name === "art_direction" && job.hitl && job.reviewDecision !== "approved") {
        const paused = await prisma.job.updateMany({
          where: { id: jobId, status: "processing" },
          data: { status: "awaiting_review", reviewRequestedAt: new Date(), currentStep: "review" },
        });
        if (paused.count === 1) {
          await emitJobEvent(services, job, "workflow.suspended", {
            step: "review",
            status: "awaiting_review",
            progress,
            result: { review: "pending" },
          });
        }
        return;
      }
    }

    const result = buildResult(services, request, outputs);
    const done = await prisma.job.updateMany({
      where: { id: jobId, status: "processing" },
      data: {
        status: "completed",
        progress: 100,
        currentStep: "done",
        result: result as unknown as Prisma.InputJsonValue,
        finishedAt: new Date(),
        error: null,
      },
    });
    if (done.count === 1) {
      const first = result.assets[0];
      await emitJobEvent(services, job, "workflow.completed", {
        step: "done",
        status: "completed",
        progress: 100,
        result,
        videoUrl: result.finalVideo,
        duration: first?.duration ?? null,
      });
    }
  } catch (error) {
    if (error instanceof JobStopped || abort.signal.aborted) return;
    const message = error instanceof AppError || error instanceof PermanentJobError ? error.message : `${(error as Error).message}`;
    if (error instanceof PermanentJobError) {
      await failAndRefund(services, jobId, message);
      return;
    }
    await prisma.job.update({ where: { id: jobId }, data: { error: message.slice(0, 2000) } }).catch(() => {});
    throw error; // the queue retries; after the last attempt the dead-letter worker fails and refunds
  } finally {
    unsubscribe();
  }
}

async function assertStillRunning(services: Services, jobId: string): Promise<Job> {
  const job = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
  if (job.status !== "processing") throw new JobStopped();
  return job;
}
