// Human review (HITL): a job launched with `hitl: true` pauses after art direction. Approve resumes it
// from the stored storyboard; reject fails and refunds; a review left pending longer than
// HITL_TIMEOUT_SECONDS expires and refunds (periodic sweep, and on every GET).
import { HitlDecision } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext, Services } from "../../context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";
import { enqueueJob } from "./enqueue.ts";
import { failAndRefund } from "./fail-job.ts";
import { emitJobEvent } from "./job-events.ts";
import { findOwnJob, toJobView } from "./jobs.ts";
import { type ArtDirectionOutput, mediaUrl } from "./pipeline/steps.ts";

export async function expireStaleReviews(services: Services): Promise<number> {
  const cutoff = new Date(Date.now() - services.config.hitlTimeoutSeconds * 1000);
  const stale = await services.prisma.job.findMany({
    where: { status: "awaiting_review", reviewRequestedAt: { lt: cutoff } },
    select: { id: true },
    take: 200,
  });
  let expired = 0;
  const t = services.config.hitlTimeoutSeconds;
  const within = t >= 3600 ? `${Math.round((t / 3600) * 10) / 10} hours` : t >= 60 ? `${Math.round(t / 60)} minutes` : `${t} seconds`;
  for (const job of stale) {
    const done = await failAndRefund(services, job.id, `Review expired: no decision within ${within}; credits refunded`, {
      reviewDecision: "expired",
      onlyIfStatus: "awaiting_review",
    });
    if (done) expired += 1;
  }
  return expired;
}

export async function getHitlState(ctx: RequestContext, jobId: string) {
  await findOwnJob(ctx, jobId);
  await expireStaleReviews(ctx.services);
  const job = await findOwnJob(ctx, jobId);
  const step = await ctx.services.prisma.jobStep.findUnique({ where: { jobId_name: { jobId, name: "art_direction" } } });
  const direction = step?.output as ArtDirectionOutput | undefined;
  const previews = new Map(direction?.previews.map((p) => [p.sceneId, mediaUrl(ctx.services, p.key)]) ?? []);
  const expiresAt = job.reviewRequestedAt
    ? new Date(job.reviewRequestedAt.getTime() + ctx.services.config.hitlTimeoutSeconds * 1000)
    : null;
  return {
    jobId: job.id,
    status: job.status,
    hitl: job.hitl,
    review: {
      state: job.status === "awaiting_review" ? "pending" : (job.reviewDecision ?? (job.hitl ? "not_reached" : "not_requested")),
      requestedAt: job.reviewRequestedAt?.toISOString() ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
      decidedAt: job.reviewedAt?.toISOString() ?? null,
      feedback: job.reviewFeedback,
    },
    storyboard: direction
      ? {
          title: direction.storyboard.title,
          framework: direction.framework,
          formats: direction.formats,
          brand: direction.storyboard.brand,
          scenes: direction.storyboard.scenes.map((scene) => ({ ...scene, preview: previews.get(scene.id) ?? null })),
        }
      : null,
    job: toJobView(job),
  };
}

export async function decideHitl(ctx: RequestContext, input: z.input<typeof HitlDecision>) {
  requireUser(ctx); // 401 before validation, like every other operation
  const { jobId, action, feedback } = parseInput(HitlDecision, input);
  await findOwnJob(ctx, jobId);
  await expireStaleReviews(ctx.services);
  const job = await findOwnJob(ctx, jobId);
  if (job.status !== "awaiting_review") {
    const why = job.reviewDecision === "expired" ? "its review expired and the credits were refunded" : `it is ${job.status}`;
    throw new AppError("CONFLICT", `Job ${jobId} is not waiting for review: ${why}`);
  }
  const { services } = ctx;
  if (action === "reject") {
    const rejected = await failAndRefund(services, jobId, `Rejected in review${feedback ? `: ${feedback}` : ""}; credits refunded`, {
      reviewDecision: "rejected",
      reviewFeedback: feedback ?? null,
      onlyIfStatus: "awaiting_review",
    });
    // Another decision (an approve, a cancel, the expiry) got there first.
    if (!rejected) throw new AppError("CONFLICT", `Job ${jobId} is no longer waiting for review`);
  } else {
    const resumed = await services.prisma.job.updateMany({
      where: { id: jobId, status: "awaiting_review" },
      data: {
        status: "queued",
        reviewDecision: "approved",
        reviewFeedback: feedback ?? null,
        reviewedAt: new Date(),
        queueGeneration: { increment: 1 },
      },
    });
    if (resumed.count !== 1) throw new AppError("CONFLICT", `Job ${jobId} is no longer waiting for review`);
    const updated = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    await emitJobEvent(services, updated, "workflow.step", {
      step: "review",
      status: "queued",
      progress: updated.progress,
      result: { review: "approved" },
    });
    await enqueueJob(services, updated);
  }
  await recordAudit(services.prisma, ctx, {
    action: `workflow.review_${action}`,
    targetType: "job",
    targetId: jobId,
    metadata: { feedback: feedback ?? null },
  });
  return getHitlState(ctx, jobId);
}
