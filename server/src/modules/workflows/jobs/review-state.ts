// The review as a caller sees it (ReviewState): the job, where its review stands, and the storyboard the
// art direction made. The stored storyboard is the pipeline's own: its scenes carry media keys and local
// paths (imageKey, videoKey, imagePath, subject…) and its brand the logo's key. None of that is answered:
// each scene and the brand are built here field by field, so what leaves the domain is the public shape.
import type { Job } from "@adgen/prisma";
import type { ReviewScene, ReviewState } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../../request-context.ts";
import type { Scene } from "../../render/types.ts";
import { toJobView } from "./jobs.ts";
import { type ArtDirectionOutput, mediaUrl } from "../pipeline/step-types.ts";

type PublicScene = z.output<typeof ReviewScene>;
export type ReviewView = z.output<typeof ReviewState>;

function toReviewScene(scene: Scene, preview: string | null): PublicScene {
  return {
    id: scene.id,
    durationSec: scene.durationSec,
    headline: scene.headline,
    ...(scene.body !== undefined ? { body: scene.body } : {}),
    ...(scene.cta !== undefined ? { cta: scene.cta } : {}),
    background: scene.background,
    accent: scene.accent,
    transition: scene.transition,
    preview,
    ...(scene.tone !== undefined ? { tone: scene.tone } : {}),
    ...(scene.motion !== undefined ? { motion: scene.motion } : {}),
    ...(scene.textMotion !== undefined ? { textMotion: scene.textMotion } : {}),
  };
}

function reviewStoryboard(services: Services, direction: ArtDirectionOutput): NonNullable<ReviewView["storyboard"]> {
  const previews = new Map(direction.previews.map((p) => [p.sceneId, mediaUrl(services, p.key)]));
  const { name, primary, secondary, accent, text } = direction.storyboard.brand;
  return {
    title: direction.storyboard.title,
    framework: direction.framework,
    formats: direction.formats,
    brand: { name, primary, secondary, accent, text },
    scenes: direction.storyboard.scenes.map((scene) => toReviewScene(scene, previews.get(scene.id) ?? null)),
    creativeScore: direction.creativeScore ?? null,
    ...(direction.briefReading?.length ? { briefReading: direction.briefReading } : {}),
  };
}

function reviewStateOf(job: Job): string {
  if (job.status === "awaiting_review") return "pending";
  return job.reviewDecision ?? (job.hitl ? "not_reached" : "not_requested");
}

/** `direction`: the stored art direction (absent until that step has run). */
export function toReviewState(services: Services, job: Job, direction: ArtDirectionOutput | undefined): ReviewView {
  const expiresAt = job.reviewRequestedAt ? new Date(job.reviewRequestedAt.getTime() + services.config.hitlTimeoutSeconds * 1000) : null;
  return {
    jobId: job.id,
    status: job.status as ReviewView["status"],
    hitl: job.hitl,
    review: {
      state: reviewStateOf(job),
      requestedAt: job.reviewRequestedAt?.toISOString() ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
      decidedAt: job.reviewedAt?.toISOString() ?? null,
      feedback: job.reviewFeedback,
    },
    storyboard: direction ? reviewStoryboard(services, direction) : null,
    job: toJobView(job),
  };
}
