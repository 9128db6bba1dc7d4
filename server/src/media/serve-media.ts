// Reading a job's media file: only its owner (or an admin) may; anyone else gets 404. A refunded job has
// no media (the refund deletes them): 404 even if a file lingers (a render that was finishing).
import type { RequestContext } from "../context.ts";
import { Errors } from "../errors.ts";
import { assertMediaOnline } from "../modules/moderation/media-gate.ts";
import { findOwnJob } from "../modules/workflows/jobs.ts";
import { mediaContentType } from "./content-type.ts";
import { jobMediaKey } from "./storage.ts";

/** The Content-Type of a job's media file, by its extension (the studio names every file it writes). */
export { mediaContentType };

export async function openJobMedia(ctx: RequestContext, jobId: string, file: string) {
  if (!/^[A-Za-z0-9._-]+$/.test(file) || file.startsWith(".")) throw Errors.notFound("File");
  const job = await findOwnJob(ctx, jobId);
  if (job.refundedAt) throw Errors.notFound("File");
  // A project removed by a moderation decision has no media until an appeal reverses it.
  await assertMediaOnline(ctx.services.prisma, job.id);
  const key = jobMediaKey(jobId, file);
  const info = await ctx.services.media.stat(key);
  if (!info) throw Errors.notFound("File");
  return {
    key,
    bytes: info.bytes,
    modifiedAt: info.modifiedAt,
    contentType: mediaContentType(file),
  };
}
