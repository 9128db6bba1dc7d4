// Reading jobs, with the ownership rule in one place: a job is visible to its owner and to admins;
// anyone else gets 404, as if it did not exist.
import type { Job } from "@adgen/prisma";
import { FINISHED_JOB_STATUSES, type JobView, StoryboardView, type WorkflowResult } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { subscribeToJob } from "./job-fan-out.ts";

/** Finished jobs (schema `FINISHED_JOB_STATUSES`): no more events, no cancel, no worker update. */
export const TERMINAL: ReadonlySet<string> = new Set(FINISHED_JOB_STATUSES);

/**
 * Why a finished job refuses a cancel or a worker update (409). A completed job delivered its files, so
 * it is never failed or refunded afterwards; a failed one was refunded when it failed.
 */
export function finishedJobMessage(status: string, refused: "cancelled" | "updated"): string {
  return status === "completed"
    ? `Job is already completed: its files were delivered, so it cannot be ${refused} and nothing is refunded`
    : `Job is already ${status}; only unfinished jobs can be ${refused}`;
}

/**
 * The stored result as answered: its storyboard carries only the documented fields (StoryboardView). Results
 * stored before local paths were kept off them still hold the renderer's own fields (a scene's `imagePath`, a
 * local file): those stay on the server. A storyboard outside the documented shape is left as stored, so the
 * output check (under tests) names what is wrong instead of hiding it.
 */
function answeredResult(result: WorkflowResult | null): WorkflowResult | null {
  if (!result?.storyboard) return result ?? null;
  const documented = StoryboardView.safeParse(result.storyboard);
  return documented.success ? { ...result, storyboard: documented.data } : result;
}

export function toJobView(job: Job): JobView {
  return {
    jobId: job.id,
    type: job.type as JobView["type"],
    quality: job.quality as JobView["quality"],
    status: job.status,
    step: job.currentStep,
    progress: job.progress,
    creditsUsed: job.creditsUsed,
    refunded: job.refundedAt !== null,
    result: answeredResult(job.result as WorkflowResult | null),
    error: job.error,
    hitl: job.hitl,
    batchId: job.batchId,
    input: (job.input ?? {}) as Record<string, unknown>,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/**
 * Who acts on a job: the signed-in account (its id and role, as the invocation path authenticated it) and,
 * for the audit log, the address the request came from.
 */
import { findJobFor, type JobActor } from "../../job-media/job-access.ts";

export { findJobFor, type JobActor } from "../../job-media/job-access.ts";

export async function getJob(services: Services, actor: JobActor, jobId: string): Promise<JobView> {
  return toJobView(await findJobFor(services, actor, jobId));
}

/** Resolves when the job is finished or waiting for review, or when `timeoutMs` passes. */
export async function waitForJob(services: Services, jobId: string, timeoutMs: number): Promise<Job> {
  const settled = (job: Job | null) => !job || TERMINAL.has(job.status) || job.status === "awaiting_review";
  let wake: () => void = () => {};
  const unsubscribe = subscribeToJob(services.events, jobId, () => wake());
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const job = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      const remaining = deadline - Date.now();
      if (settled(job) || remaining <= 0) return job;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 2000));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}
