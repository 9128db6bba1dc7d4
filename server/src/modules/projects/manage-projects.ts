// Rename and delete one of the caller's own projects. Another account's project answers 404, as if it
// did not exist (admins included: these are the owner's actions).
import type { Job } from "@adgen/prisma";
import { FINISHED_JOB_STATUSES, type Project } from "@adgen/schema";
import { join } from "node:path";
import type { Services } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { jobMediaPrefix } from "../../media/storage.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { toProject } from "./projects.ts";

/** Finished jobs: only these may be deleted. */
const TERMINAL: ReadonlySet<string> = new Set(FINISHED_JOB_STATUSES);

async function findOwnProject(services: Services, user: { id: string }, id: string): Promise<Job> {
  const job = await services.prisma.job.findUnique({ where: { id } });
  if (!job || job.userId !== user.id) throw Errors.notFound("Project");
  return job;
}

export async function renameProject(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: { id: string; name: string },
): Promise<Project> {
  const job = await findOwnProject(services, user, input.id);
  const renamed = await services.prisma.job.update({ where: { id: job.id }, data: { name: input.name } });
  await recordAudit(services.prisma, source, { action: "project.renamed", targetType: "job", targetId: job.id });
  return toProject(renamed);
}

/**
 * Deletes the project's row (its steps and events go with it) and its media files. A job still being
 * made is refused: its worker would write files for a row that no longer exists, and cancelling first is
 * what refunds its credits.
 */
export async function deleteProject(
  services: Services,
  user: { id: string },
  source: AuditSource,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const job = await findOwnProject(services, user, id);
  if (!TERMINAL.has(job.status)) {
    throw new AppError("CONFLICT", "This project is still being made. Cancel it first (its credits are refunded), then delete it.");
  }
  // Only a finished job's row is deleted: a job that started again in between stays.
  const { count } = await services.prisma.job.deleteMany({ where: { id: job.id, status: { in: [...TERMINAL] as Job["status"][] } } });
  if (count === 0) throw new AppError("CONFLICT", "This project started running again. Cancel it first, then delete it.");
  const prefix = jobMediaPrefix(job.id);
  await services.media.remove(prefix);
  await services.media.remove(join(".work", prefix));
  await recordAudit(services.prisma, source, { action: "project.deleted", targetType: "job", targetId: job.id });
  return { id: job.id, deleted: true };
}
