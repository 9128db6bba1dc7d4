// Workflow helpers shared by the studio, the job view and the projects gallery: format ids, media
// URLs, the job's step list and the credit errors explained in words. The rules themselves (default
// formats, planned steps, job statuses) come from @adgen/schema, where the server reads them too.
import { ASPECT_RATIOS, type AspectRatio, isCancelled, type JobStatus, renderStepFormat, STEP, WORKFLOWS } from "@adgen/schema";
import { errorCode, errorMessage } from "./errors.ts";

export const ALL_FORMATS: readonly AspectRatio[] = ASPECT_RATIOS;

/** "9:16" → "9x16", for test ids, element ids and file names. */
export function ratioId(ratio: string): string {
  return ratio.replaceAll(":", "x");
}

/** Display order of formats, whatever order they were picked in. */
export function sortFormats<T extends string>(formats: readonly T[]): T[] {
  const order = ALL_FORMATS as readonly string[];
  return [...formats].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

const FORMAT_LABELS: Record<string, string> = {
  "16:9": "Landscape",
  "9:16": "Vertical",
  "1:1": "Square",
  "4:5": "Portrait",
};

export function formatLabel(ratio: string): string {
  return FORMAT_LABELS[ratio] ?? ratio;
}

/** CSS aspect-ratio value for a ratio string ("9:16" → "9 / 16"). */
export function cssAspect(ratio: string): string {
  const [w, h] = ratio.split(":");
  return w && h ? `${w} / ${h}` : "16 / 9";
}

const NAMES: Record<string, string> = Object.fromEntries(WORKFLOWS.map((w) => [w.type, w.name]));

export function workflowName(type: string): string {
  return NAMES[type] ?? type;
}

const REQUIRES_URL = new Set<string>(WORKFLOWS.filter((w) => w.requiresUrl).map((w) => w.type));

/** Whether this workflow type reads a page when given a `url`, though it can do without (it falls back). */
export function acceptsUrl(type: string): boolean {
  return REQUIRES_URL.has(type) || WORKFLOWS.some((w) => w.type === type && w.urlFallback);
}

/** Whether requests of this workflow type always have a `url` (so their job reads the page). */
export function requiresUrl(type: string): boolean {
  return REQUIRES_URL.has(type);
}

/**
 * Media URLs in results are absolute (the server's public URL). The SPA is served from the same
 * server, so the path alone keeps the request same-origin and the session cookie goes with it.
 */
export function mediaSrc(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, window.location.origin);
    if (parsed.pathname.startsWith("/api/media/")) return `${parsed.pathname}${parsed.search}`;
    return parsed.toString();
  } catch {
    return undefined;
  }
}

/** The attachment download of one generated file (the server checks ownership and origin). */
export function downloadHref(url: string): string {
  return `/api/export?source=${encodeURIComponent(url)}`;
}

/** A fresh idempotency key; `crypto.randomUUID` needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------- Job status and steps ----------

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  queued: "Queued",
  processing: "Processing",
  awaiting_review: "Awaiting review",
  completed: "Completed",
  failed: "Failed",
};

/** The job's status in words: a cancelled job is `failed` to the API and "Cancelled" to a person. */
export function jobStatusLabel(job: { status: JobStatus; error?: string | null }): string {
  return isCancelled(job) ? "Cancelled" : JOB_STATUS_LABELS[job.status];
}

/** The badge's modifier class: `status-cancelled` for a cancelled job, else `status-<status>`. */
export function statusClass(job: { status: string; error?: string | null }): string {
  return isCancelled(job) ? "status-cancelled" : `status-${job.status}`;
}

export type StepState = "done" | "active" | "waiting" | "pending" | "failed";

export interface StepView {
  /** The server's step name: read_page, art_direction, review, render:9:16, done. */
  name: string;
  /** Test id suffix: read_page, art_direction, review, render-9x16, done. */
  id: string;
  label: string;
  detail?: string;
  state: StepState;
}

function stepLabel(name: string): { label: string; detail?: string } {
  if (name === STEP.readPage) return { label: "Read the page", detail: "Title, description, images and colours" };
  if (name === STEP.audit) return { label: "Audit", detail: "Offer, mobile call to action, contact, trust, speed" };
  if (name === STEP.voice) return { label: "Voice-over", detail: "Narration, captions and scene timing" };
  if (name === STEP.clips) return { label: "Video clips", detail: "Generated clips of each scene; this can take several minutes" };
  if (name === STEP.auditReport) return { label: "Audit report", detail: "The scored report as a PDF" };
  if (name === STEP.referenceAnalysis) return { label: "Reference analysis", detail: "Hook, beats, pacing and call to action" };
  if (name === STEP.brandKit) return { label: "Brand kit", detail: "Colours, logo, fonts, tone and claims, saved to your brand" };
  if (name === STEP.artDirection) return { label: "Art direction", detail: "Storyboard, copy, pictures and look" };
  if (name === STEP.review) return { label: "Your review", detail: "Approve the storyboard before rendering" };
  if (name === STEP.done) return { label: "Done" };
  const ratio = renderStepFormat(name);
  if (ratio !== null) return { label: `Render ${ratio}`, detail: formatLabel(ratio) };
  return { label: name };
}

export function stepId(name: string): string {
  const ratio = renderStepFormat(name);
  return ratio !== null ? `render-${ratioId(ratio)}` : name;
}

/**
 * Each step's state from the job's position. The pipeline is sequential, so every step before the
 * current one is finished; `completed` names steps the events reported as finished.
 */
export function stepStates(
  names: readonly string[],
  job: { status: string; step: string | null },
  completed: ReadonlySet<string>,
): StepView[] {
  const { status } = job;
  let current = job.step ? names.indexOf(job.step) : -1;
  // After an approved review the job is queued again with step "review": the review is behind it.
  const reviewPassed = job.step === STEP.review && (status === "queued" || status === "processing");
  if (reviewPassed) current += 1;
  if (current < 0) {
    // No step yet (queued) or one this list does not know: whatever the events finished is done.
    const lastDone = names.reduce((acc, name, i) => (completed.has(name) ? i : acc), -1);
    current = status === "queued" && lastDone < 0 ? -1 : lastDone + 1;
  }
  return names.map((name, i) => {
    const { label, detail } = stepLabel(name);
    let state: StepState;
    if (status === "completed") state = "done";
    else if (completed.has(name) || i < current) state = "done";
    else if (i === current) {
      if (status === "failed") state = "failed";
      else if (status === "awaiting_review") state = name === STEP.review ? "waiting" : "active";
      else if (status === "queued") state = "pending";
      else state = "active";
    } else state = "pending";
    return { name, id: stepId(name), label, ...(detail ? { detail } : {}), state };
  });
}

// ---------- Errors explained ----------

export interface LaunchProblem {
  kind: "credits" | "trial" | "reserved" | "other";
  title: string;
  message: string;
  hint?: string;
}

const INSUFFICIENT = /Insufficient credits\. Required: (\d+), available: (\d+)/i;

/** A 402/403 from a launch (or an estimate's `blockedBy`) in words, with what to do next. */
export function explainBlock(code: string | undefined, message: string): LaunchProblem {
  const credits = INSUFFICIENT.exec(message);
  if (credits) {
    const [, need, have] = credits;
    return {
      kind: "credits",
      title: "Not enough credits",
      message: `Not enough credits: needs ${need}, you have ${have}.`,
      hint: "Buy a credit pack or choose a plan on the Billing page.",
    };
  }
  if (code === "PAYMENT_REQUIRED" || /trial ended/i.test(message)) {
    return {
      kind: "trial",
      title: "Your trial has ended",
      message,
      hint: "Choose a plan or buy credits on the Billing page to keep launching workflows.",
    };
  }
  if (code === "FORBIDDEN" || /not available on the/i.test(message)) {
    return {
      kind: "reserved",
      title: "Not on your plan",
      message,
      hint: "This workflow is available on paid plans.",
    };
  }
  return { kind: "other", title: "Could not launch", message };
}

export function explainLaunchError(error: unknown): LaunchProblem {
  return explainBlock(errorCode(error), errorMessage(error));
}

/** `blockedBy` of an estimate → the error code a launch would answer. */
export function blockCode(blockedBy: string | null): string | undefined {
  if (blockedBy === "reserved_workflow") return "FORBIDDEN";
  if (blockedBy === "trial_expired" || blockedBy === "insufficient_credits") return "PAYMENT_REQUIRED";
  return undefined;
}
