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
  /** Storyboard, copy and look. */
  artDirection: "art_direction",
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
}

/** The steps the pipeline runs, in order: read the page (with a url), art direction, one render per format. */
export function pipelineSteps(plan: StepPlan): string[] {
  return [...(plan.hasUrl ? [STEP.readPage] : []), STEP.artDirection, ...plan.formats.map((f) => renderStepName(f))];
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
