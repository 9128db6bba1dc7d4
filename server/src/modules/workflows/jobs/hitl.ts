// Human review (HITL): a job launched with `hitl: true` pauses after art direction. Approve resumes it
// from the stored storyboard; reject fails and refunds; a review left pending longer than
// HITL_TIMEOUT_SECONDS expires and refunds (periodic sweep, and on every GET).
import type { Prisma } from "@adgen/prisma";
import { type HitlDecision, STEP } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { recordAudit } from "../../audit/record-audit.ts";
import { enqueueJob } from "../launch/enqueue.ts";
import { failAndRefund } from "./fail-job.ts";
import { emitJobEvent } from "./job-events.ts";
import { findJobFor, type JobActor } from "./jobs.ts";
import { type ReviewView, toReviewState } from "./review-state.ts";
import { scoreStoryboard } from "../pipeline/creative-score.ts";
import type { ArtDirectionOutput } from "../pipeline/step-types.ts";

type ReviewedScenes = NonNullable<HitlDecision["scenes"]>;

/**
 * The storyboard as the reviewer approved it: the scenes they kept, in their order, with their text. The
 * ad keeps its length (the kept scenes share it), and its creative score is computed again.
 */
export function applyReviewEdits(direction: ArtDirectionOutput, reviewed: ReviewedScenes): ArtDirectionOutput {
  const byId = new Map(direction.storyboard.scenes.map((scene) => [scene.id, scene]));
  const seen = new Set<string>();
  const scenes = reviewed.map((edit, i) => {
    const original = byId.get(edit.id);
    if (!original) throw new AppError("BAD_REQUEST", `scenes.${i}.id: ${edit.id} is not a scene of this storyboard`);
    if (seen.has(edit.id)) throw new AppError("BAD_REQUEST", `scenes.${i}.id: ${edit.id} is given twice`);
    seen.add(edit.id);
    const { body: _body, cta: _cta, ...rest } = original;
    const body = edit.body === undefined ? original.body : edit.body || undefined;
    const cta = edit.cta === undefined ? original.cta : edit.cta || undefined;
    return { ...rest, headline: edit.headline ?? original.headline, ...(body ? { body } : {}), ...(cta ? { cta } : {}) };
  });
  const total = direction.storyboard.scenes.reduce((sum, scene) => sum + scene.durationSec, 0);
  const per = Math.round((total / scenes.length) * 100) / 100;
  const timed = scenes.map((scene, i) => ({
    ...scene,
    durationSec: i === scenes.length - 1 ? Math.round((total - per * (scenes.length - 1)) * 100) / 100 : per,
    transition: i === 0 ? ("fade" as const) : scene.transition,
  }));
  const storyboard = { ...direction.storyboard, scenes: timed };
  return {
    ...direction,
    storyboard,
    previews: direction.previews.filter((p) => seen.has(p.sceneId)),
    creativeScore: scoreStoryboard(storyboard, direction.formats, storyboard.brand.name),
  };
}

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

/** The review in its public shape (review-state.ts): nothing of the stored storyboard's internals is answered. */
export async function getHitlState(services: Services, actor: JobActor, jobId: string): Promise<ReviewView> {
  await findJobFor(services, actor, jobId);
  await expireStaleReviews(services);
  const job = await findJobFor(services, actor, jobId);
  const step = await services.prisma.jobStep.findUnique({ where: { jobId_name: { jobId, name: "art_direction" } } });
  return toReviewState(services, job, step?.output as ArtDirectionOutput | undefined);
}

/** Approve (with the reviewer's edits) or reject a job waiting for review; `decision` as the operation parsed it. */
export async function decideHitl(services: Services, actor: JobActor, decision: HitlDecision): Promise<ReviewView> {
  const { jobId, action, feedback, scenes } = decision;
  if (scenes && action !== "approve") throw new AppError("BAD_REQUEST", "scenes are given only with approve");
  await findJobFor(services, actor, jobId);
  await expireStaleReviews(services);
  const job = await findJobFor(services, actor, jobId);
  if (job.status !== "awaiting_review") {
    const why = job.reviewDecision === "expired" ? "its review expired and the credits were refunded" : `it is ${job.status}`;
    throw new AppError("CONFLICT", `Job ${jobId} is not waiting for review: ${why}`);
  }
  if (action === "reject") {
    const rejected = await failAndRefund(services, jobId, `Rejected in review${feedback ? `: ${feedback}` : ""}; credits refunded`, {
      reviewDecision: "rejected",
      reviewFeedback: feedback ?? null,
      onlyIfStatus: "awaiting_review",
    });
    // Another decision (an approve, a cancel, the expiry) got there first.
    if (!rejected) throw new AppError("CONFLICT", `Job ${jobId} is no longer waiting for review`);
  } else {
    // The reviewer's edits become the storyboard the renders read, in the same transaction as the approval.
    const step = scenes ? await services.prisma.jobStep.findUnique({ where: { jobId_name: { jobId, name: STEP.artDirection } } }) : null;
    const edited = scenes && step ? applyReviewEdits(step.output as unknown as ArtDirectionOutput, scenes) : null;
    const resumed = await services.prisma.$transaction(async (tx) => {
      const approved = await tx.job.updateMany({
        where: { id: jobId, status: "awaiting_review" },
        data: {
          status: "queued",
          reviewDecision: "approved",
          reviewFeedback: feedback ?? null,
          reviewedAt: new Date(),
          queueGeneration: { increment: 1 },
        },
      });
      if (approved.count === 1 && edited) {
        await tx.jobStep.update({
          where: { jobId_name: { jobId, name: STEP.artDirection } },
          data: { output: edited as unknown as Prisma.InputJsonValue },
        });
      }
      return approved;
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
  await recordAudit(
    services.prisma,
    { actorId: actor.id, ip: actor.ip ?? null },
    {
      action: `workflow.review_${action}`,
      actorId: actor.id,
      targetType: "job",
      targetId: jobId,
      metadata: { feedback: feedback ?? null },
    },
  );
  return getHitlState(services, actor, jobId);
}
