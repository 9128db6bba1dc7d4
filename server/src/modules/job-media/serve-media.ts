// Reading a job's media file: only its owner (or an admin) may; anyone else gets 404. A refunded job has
// no media (the refund deletes them): 404 even if a file lingers (a render that was finishing).
// Nothing is delivered before the job completes (409): until then a cancel or failure may still refund
// it in full, and it must not leave a downloaded render behind. Review stills are the one exception.
// In the domain (modules/job-media), not in media/ with the storage: who may read a file is a rule of
// jobs and moderation, and the storage below knows neither.
import type { Job } from "@adgen/prisma";
import { STEP } from "@adgen/schema";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { assertMediaOnline } from "../moderation/media-gate.ts";
import { findJobFor, type JobActor } from "./job-access.ts";
import { mediaContentType } from "../../media/content-type.ts";
import { jobMediaKey } from "../../media/storage.ts";

/** The Content-Type of a job's media file, by its extension (the studio names every file it writes). */
export { mediaContentType };

export async function openJobMedia(services: Services, actor: JobActor, jobId: string, file: string) {
  if (!/^[A-Za-z0-9._-]+$/.test(file) || file.startsWith(".")) throw Errors.notFound("File");
  const job = await findJobFor(services, actor, jobId);
  await assertJobFileDeliverable(services.prisma, job, file, "File");
  const key = jobMediaKey(jobId, file);
  const info = await services.media.stat(key);
  if (!info) throw Errors.notFound("File");
  return {
    key,
    bytes: info.bytes,
    modifiedAt: info.modifiedAt,
    contentType: mediaContentType(file),
  };
}

/**
 * The one rule for handing out a stored file of a job (the media route and export by URL ask here): a
 * refunded job has none (404, `what` not found); a job that has not completed delivers nothing (409)
 * but the review stills of its storyboard, which its reviewer needs and which any refund deletes; a
 * project removed by moderation has none (404).
 */
export async function assertJobFileDeliverable(
  db: Tx,
  job: Pick<Job, "id" | "status" | "refundedAt">,
  file: string,
  what: string,
): Promise<void> {
  if (job.refundedAt) throw Errors.notFound(what);
  if (job.status !== "completed" && !(await isReviewStill(db, job.id, file))) {
    throw new AppError("CONFLICT", `Job ${job.id} is ${job.status.replace("_", " ")}: its files can be downloaded once it is completed`);
  }
  // A project removed by a moderation decision has no media until an appeal reverses it.
  await assertMediaOnline(db, job.id);
}

/** Whether the file is one of the still previews the art direction made for the job's review. */
async function isReviewStill(db: Tx, jobId: string, file: string): Promise<boolean> {
  const step = await db.jobStep.findUnique({
    where: { jobId_name: { jobId, name: STEP.artDirection } },
    select: { output: true },
  });
  const previews = (step?.output as { previews?: { key?: unknown }[] } | null)?.previews;
  const key = jobMediaKey(jobId, file);
  return Array.isArray(previews) && previews.some((preview) => preview?.key === key);
}
