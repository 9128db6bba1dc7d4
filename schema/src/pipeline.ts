// The rules of a job's pipeline: the formats a request renders, the steps a job goes through and when
// a job is finished. The server runs jobs by them (launch-workflow, pipeline/) and the SPA shows jobs by
// them, so both always agree. Pure data and functions: no server code.
import type { AspectRatio, JobStatus } from "./enums.ts";

// ---------- Formats ----------

/** What a factory run renders when the request names no formats: every format, in this render order. */
export const FACTORY_FORMATS = ["9:16", "1:1", "16:9", "4:5"] as const satisfies readonly AspectRatio[];

/** What every other workflow renders when the request names no formats. */
export const DEFAULT_FORMAT = "9:16" as const satisfies AspectRatio;

/** The formats a request of this workflow type renders when it names none. */
export function defaultFormatsFor(type: string): AspectRatio[] {
  return type === "factory" ? [...FACTORY_FORMATS] : [DEFAULT_FORMAT];
}

/** The formats a request renders, in render order: those it names, else its type's default. */
export function formatsFor(request: { type: string; formats?: readonly AspectRatio[] | null }): AspectRatio[] {
  return request.formats?.length ? [...request.formats] : defaultFormatsFor(request.type);
}

// ---------- Steps ----------

/** Names of the job's steps, as a job's `step` and its events report them. */
export const STEP = {
  /** Read the page at the request's `url` (only requests with a url). */
  readPage: "read_page",
  /** Local audit: score the page's ad readiness (offer, mobile CTA, contact, trust, speed). */
  audit: "audit",
  /** Local audit: the scored report as a PDF. */
  auditReport: "audit_report",
  /** Inspiration (clone): the reference's hook, beats, pacing, on-screen text and call to action. */
  referenceAnalysis: "reference_analysis",
  /** Brand (Brand Clone): read the brand's colours, logo, fonts, tone and claims, and save them to the brand profile. */
  brandKit: "brand_kit",
  /** Storyboard, copy and look. */
  artDirection: "art_direction",
  /** Voice-over and captions from the storyboard's copy (types with a narrator: see `typeSteps`). */
  voice: "voice",
  /**
   * Generated clips (a launch whose `models.video` is `generated-video` or `talking-presenter`): each clip is
   * started at the video service, and the job waits for them without holding a worker.
   */
  clips: "generate_clips",
  /** Waiting for the human review (hitl jobs), between art direction and the first render. */
  review: "review",
  /** The job completed. */
  done: "done",
} as const;

const RENDER_PREFIX = "render:";

/** The render step of one format: `render:9:16`. */
export function renderStepName(format: AspectRatio): `render:${AspectRatio}`;
export function renderStepName(format: string): string;
export function renderStepName(format: string): string {
  return `${RENDER_PREFIX}${format}`;
}

/** The format a render step renders (`render:9:16` → `9:16`), or null for any other step. */
export function renderStepFormat(step: string): string | null {
  return step.startsWith(RENDER_PREFIX) ? step.slice(RENDER_PREFIX.length) : null;
}

export interface StepPlan {
  /** The request has a `url`, so the page is read first. */
  hasUrl: boolean;
  /** The formats, in render order (see `formatsFor`). */
  formats: readonly string[];
  /** The workflow type: some types add their own steps (see `typeSteps`). */
  type?: string;
  /** The launch asked for generated clips (`usesGeneratedClips`): they are made after the review, before the renders. */
  clips?: boolean;
}

/** The video models that generate clips at a remote video service (GET /config/studio lists them when configured). */
export const CLIP_MODELS = ["generated-video", "talking-presenter"] as const;

/** Whether a video model suits a workflow type: a talking presenter speaks a voice-over, so only the narrated types take it. */
export function videoModelFits(model: string, type: string): boolean {
  return model !== "talking-presenter" || (NARRATED_TYPES as readonly string[]).includes(type);
}

/** Whether a launch asks for generated clips: its `models.video` is one of `CLIP_MODELS`, and it makes a video. */
export function usesGeneratedClips(request: {
  type: string;
  imagesOnly?: boolean | null;
  models?: { video?: string | null } | null;
}): boolean {
  const video = request.models?.video;
  if (!video || !(CLIP_MODELS as readonly string[]).includes(video)) return false;
  return !(request.imagesOnly || request.type === "staticad");
}

/** Steps a workflow type runs between reading the page and art direction. */
const TYPE_STEPS: Readonly<Record<string, readonly string[]>> = {
  // The audit reads the page even when the request names none (it falls back to the brand's website).
  "local-audit": [STEP.audit, STEP.auditReport],
  // The reference at `url` (required for clone) is read, then analysed; the new ad follows its structure.
  clone: [STEP.referenceAnalysis],
  // The brand film reads the brand's site (the request's url, else the profile's websiteUrl) for its kit.
  brand: [STEP.brandKit],
};

/** The steps a workflow type adds to every job's steps (none for most types). */
export function typeSteps(type: string | undefined): readonly string[] {
  return (type && TYPE_STEPS[type]) || [];
}

/** Types whose ads are narrated (a presenter, a creator). */
export const NARRATED_TYPES = ["avatar", "influencer"] as const;

/**
 * Steps a workflow type runs after art direction (and its review) and before the renders: the voice-over
 * for narrated types. They work from the approved storyboard.
 */
export function directedSteps(type: string | undefined): readonly string[] {
  return (NARRATED_TYPES as readonly string[]).includes(type ?? "") ? [STEP.voice] : [];
}

/**
 * The steps the pipeline runs, in order: read the page (with a url; always for a local audit), the
 * type's own steps (local audit: score, then the PDF report), art direction, the steps after it
 * (`directedSteps`: the voice-over of narrated types), one render per format
 * (video, or for a static ad the format's still variants).
 */
export function pipelineSteps(plan: StepPlan): string[] {
  const own = typeSteps(plan.type);
  const readsPage = plan.hasUrl || own.length > 0;
  return [
    ...(readsPage ? [STEP.readPage] : []),
    ...own,
    STEP.artDirection,
    ...directedSteps(plan.type),
    ...(plan.clips ? [STEP.clips] : []),
    ...plan.formats.map((f) => renderStepName(f)),
  ];
}

/**
 * Every step a job's `step` goes through, in order: the pipeline's steps, with `review` after art
 * direction when the job waits for a human review, then `done`.
 */
export function plannedSteps(plan: StepPlan & { hitl: boolean }): string[] {
  const steps = pipelineSteps(plan);
  if (plan.hitl) steps.splice(steps.indexOf(STEP.artDirection) + 1, 0, STEP.review);
  return [...steps, STEP.done];
}

// ---------- Job status ----------

/** The statuses a job never leaves: it has no more events, cannot be cancelled or updated. */
export const FINISHED_JOB_STATUSES = ["completed", "failed"] as const satisfies readonly JobStatus[];

export function isFinishedStatus(status: string): status is (typeof FINISHED_JOB_STATUSES)[number] {
  return (FINISHED_JOB_STATUSES as readonly string[]).includes(status);
}

/**
 * A cancelled job keeps the status `failed` (SPEC fixes the status values); its error starts with this.
 * The server writes it (`Cancelled by the user; N credits refunded`), the SPA shows such a job as "Cancelled".
 */
export const CANCELLED_ERROR_PREFIX = "Cancelled";

/** True for a job that failed because it was cancelled (by its owner or an admin). */
export function isCancelled(job: { status: string; error?: string | null }): boolean {
  return job.status === "failed" && typeof job.error === "string" && job.error.startsWith(CANCELLED_ERROR_PREFIX);
}

/** What a refund adds to a cancelled job's error: `; 3 credits refunded`. */
export function refundNote(credits: number): string {
  return `; ${credits} ${credits === 1 ? "credit" : "credits"} refunded`;
}
