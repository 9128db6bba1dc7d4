// ad-optimizer: the project (a job) it improves. Named in `project`, it must be one of the caller's own
// projects (another account's, or an unknown id, is not found) and completed with a storyboard; without
// `project`, the caller's latest completed project is used. Checked at launch, before any charge, and
// read again by the pipeline.
import type { Job, PrismaClient } from "@adgen/prisma";
import { AppError } from "../../errors.ts";
import type { Storyboard } from "../render/types.ts";

const storyboardOf = (job: Job): Storyboard | null => {
  const storyboard = (job.result as { storyboard?: Storyboard } | null)?.storyboard;
  return storyboard && Array.isArray(storyboard.scenes) && storyboard.scenes.length > 0 ? storyboard : null;
};

const projectField = (message: string) => ({ fields: [{ field: "project", message }] });

/** How many recent completed projects are looked through for one with a storyboard. */
const RECENT_PROJECTS = 20;

export interface SourceProject {
  job: Job;
  storyboard: Storyboard;
}

/** The caller's project to improve: `projectId`, else the latest completed one. 404 / 400 otherwise. */
export async function findSourceProject(prisma: PrismaClient, userId: string, projectId: string | undefined): Promise<SourceProject> {
  if (projectId) {
    const job = await prisma.job.findFirst({ where: { id: projectId, userId } });
    if (!job) throw new AppError("NOT_FOUND", "Project not found");
    if (job.status !== "completed") {
      const message = `project ${projectId} is ${job.status}; the ad-optimizer improves a completed project: wait for it to complete or name another`;
      throw new AppError("BAD_REQUEST", message, projectField(message));
    }
    const storyboard = storyboardOf(job);
    if (!storyboard) {
      const message = `project ${projectId} has no storyboard to improve; name a project made by a workflow here`;
      throw new AppError("BAD_REQUEST", message, projectField(message));
    }
    return { job, storyboard };
  }
  const recent = await prisma.job.findMany({
    where: { userId, status: "completed" },
    orderBy: [{ finishedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    take: RECENT_PROJECTS,
  });
  for (const job of recent) {
    const storyboard = storyboardOf(job);
    if (storyboard) return { job, storyboard };
  }
  const message =
    "ad-optimizer needs a project: name one of your completed projects in project, or complete a workflow first (nothing was charged)";
  throw new AppError("BAD_REQUEST", message, projectField(message));
}
