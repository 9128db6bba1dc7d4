// Who may reach a job: its owner, or an admin; anyone else is told it does not exist (404). Below the
// workflows and projects that both ask it, with the job's media.
import type { Job } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";

export interface JobActor {
  id: string;
  role: string;
  ip?: string | null;
}

/** The job if the account owns it (or is an admin); 404 otherwise. */
export async function findJobFor(services: Services, actor: JobActor, jobId: string): Promise<Job> {
  if (typeof jobId !== "string" || !jobId.trim()) throw new AppError("BAD_REQUEST", "jobId is required");
  const job = await services.prisma.job.findUnique({ where: { id: jobId } });
  if (!job || (job.userId !== actor.id && actor.role !== "admin")) throw Errors.notFound("Job");
  return job;
}
