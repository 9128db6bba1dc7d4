// POST /workflow/stream: progress reported by an external worker. Allowed for the job's owner, an
// admin, or the bearer WORKER_TOKEN (CONTRACT).
import type { Prisma } from "@adgen/prisma";
import { WorkerUpdate } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext } from "../../context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { failAndRefund } from "./fail-job.ts";
import { emitJobEvent } from "./job-events.ts";
import { TERMINAL, toJobView } from "./jobs.ts";

export async function postWorkerUpdate(ctx: RequestContext, input: z.input<typeof WorkerUpdate>, options: { workerToken: string | null }) {
  const isWorker = options.workerToken !== null && options.workerToken === ctx.services.config.workerToken;
  if (!isWorker && !ctx.auth) throw Errors.unauthenticated();
  const update = parseInput(WorkerUpdate, input);
  const { prisma } = ctx.services;
  const job = await prisma.job.findUnique({ where: { id: update.jobId } });
  const user = ctx.auth?.user;
  if (!job || (!isWorker && user?.id !== job.userId && user?.role !== "admin")) throw Errors.notFound("Job");
  if (TERMINAL.has(job.status)) throw new AppError("CONFLICT", `Job is already ${job.status}`);

  if (update.status === "failed") {
    await failAndRefund(
      ctx.services,
      job.id,
      typeof update.result?.error === "string"
        ? update.result.error
        : `Failed at ${update.step ?? job.currentStep ?? "an unknown step"} (reported by a worker)`,
    );
    return toJobView(await prisma.job.findUniqueOrThrow({ where: { id: job.id } }));
  }
  const progress = update.status === "completed" ? 100 : (update.progress ?? job.progress);
  const result = update.result ? ({ ...((job.result as object | null) ?? {}), ...update.result } as Prisma.InputJsonValue) : undefined;
  const updated = await prisma.job.update({
    where: { id: job.id },
    data: {
      status: update.status ?? "processing",
      progress,
      currentStep: update.step ?? job.currentStep,
      ...(result !== undefined ? { result } : {}),
      ...(job.startedAt ? {} : { startedAt: new Date() }),
      ...(update.status === "completed" ? { finishedAt: new Date() } : {}),
    },
  });
  if (!job.startedAt)
    await emitJobEvent(ctx.services, updated, "workflow.started", { step: updated.currentStep, status: "processing", progress: 0 });
  if (update.status === "completed") {
    const final = (updated.result as { finalVideo?: string; assets?: { duration?: number }[] } | null) ?? {};
    if (final.finalVideo) {
      await emitJobEvent(ctx.services, updated, "video.ready", {
        step: updated.currentStep,
        status: "completed",
        progress: 100,
        videoUrl: final.finalVideo,
        duration: final.assets?.[0]?.duration ?? null,
      });
    }
    await emitJobEvent(ctx.services, updated, "workflow.completed", {
      step: updated.currentStep,
      status: "completed",
      progress: 100,
      result: updated.result,
      videoUrl: final.finalVideo ?? null,
      duration: final.assets?.[0]?.duration ?? null,
    });
  } else {
    await emitJobEvent(ctx.services, updated, "workflow.step", {
      step: updated.currentStep,
      status: "processing",
      progress,
      result: update.result ?? null,
    });
  }
  return toJobView(updated);
}
