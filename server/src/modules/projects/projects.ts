// Projects are jobs (CONTRACT): one project per launch, id = job id, newest first.
import type { Job } from "@adgen/prisma";
import { type Project, ReviewInput, WorkflowPrefs, type WorkflowResult, type WorkflowType } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { Errors, parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { assertCallbackUrl } from "../webhooks/callback-url.ts";
import { projectNameFrom } from "./project-name.ts";

const PROJECT_STATUS: Record<Job["status"], Project["status"]> = {
  queued: "pending",
  processing: "processing",
  awaiting_review: "processing",
  completed: "completed",
  failed: "failed",
};

export function toProject(job: Job): Project {
  const result = job.result as WorkflowResult | null;
  return {
    id: job.id,
    user_id: job.userId,
    name: job.name || projectNameFrom({ type: job.type as WorkflowType, concept: (job.input as { concept?: string } | null)?.concept }),
    type: job.type,
    status: PROJECT_STATUS[job.status],
    input_data: JSON.stringify(job.input ?? {}),
    output_data: JSON.stringify(result ?? (job.error ? { error: job.error } : {})),
    credits_used: job.creditsUsed,
    created_at: job.createdAt.toISOString(),
    job_status: job.status,
    thumbnail: result?.thumbnail ?? null,
    rating: (job.rating as Project["rating"]) ?? null,
  };
}

/** `%`, `_` and `\\` taken literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listProjects(
  services: Services,
  user: { id: string },
  options: { limit?: number; q?: string } = {},
): Promise<Project[]> {
  const q = options.q?.trim();
  // The concept lives inside the JSON input; ILIKE on it (and on the name) is the case-insensitive "contains".
  const matching = q
    ? (
        await services.prisma.$queryRaw<{ id: string }[]>`
          SELECT id FROM jobs WHERE user_id = ${user.id}
            AND (name ILIKE ${`%${likeLiteral(q)}%`} OR input->>'concept' ILIKE ${`%${likeLiteral(q)}%`})`
      ).map((row) => row.id)
    : undefined;
  const jobs = await services.prisma.job.findMany({
    where: { userId: user.id, ...(matching ? { id: { in: matching } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(options.limit ?? 500, 500),
  });
  return jobs.map(toProject);
}

/** Rates one of the account's projects; `source` is who rated it, from where (for the audit log). */
export async function rateProject(services: Services, user: { id: string }, source: AuditSource, input: z.input<typeof ReviewInput>) {
  const { projectId, rating, feedback } = parseInput(ReviewInput, input);
  const job = await services.prisma.job.findUnique({ where: { id: projectId } });
  if (!job || job.userId !== user.id) throw Errors.notFound("Project");
  const updated = await services.prisma.job.update({
    where: { id: projectId },
    data: { rating, ratingFeedback: feedback ?? null, ratedAt: new Date() },
  });
  await recordAudit(services.prisma, source, {
    action: "project.rated",
    targetType: "job",
    targetId: projectId,
    metadata: { rating },
  });
  return { projectId, rating: updated.rating, feedback: updated.ratingFeedback, ratedAt: updated.ratedAt?.toISOString() ?? null };
}

export async function reviewHistory(services: Services, user: { id: string }) {
  const jobs = await services.prisma.job.findMany({
    where: { userId: user.id, OR: [{ rating: { not: null } }, { reviewDecision: { not: null } }] },
    orderBy: { updatedAt: "desc" },
    take: 200,
  });
  return jobs.map((job) => ({
    projectId: job.id,
    type: job.type,
    status: job.status,
    rating: job.rating,
    feedback: job.ratingFeedback,
    ratedAt: job.ratedAt?.toISOString() ?? null,
    review: job.reviewDecision
      ? { decision: job.reviewDecision, feedback: job.reviewFeedback, decidedAt: job.reviewedAt?.toISOString() ?? null }
      : null,
  }));
}

export async function getWorkflowPrefs(services: Services, user: { id: string }) {
  const row = await services.prisma.workflowPreferences.findUnique({ where: { userId: user.id } });
  return (row?.prefs as WorkflowPrefs | undefined) ?? {};
}

export async function saveWorkflowPrefs(services: Services, user: { id: string }, input: z.input<typeof WorkflowPrefs>) {
  const prefs = parseInput(WorkflowPrefs, input);
  if (prefs.callbackUrl) await assertCallbackUrl(services.resolver, prefs.callbackUrl);
  const existing = await getWorkflowPrefs(services, user);
  const merged = { ...existing, ...prefs };
  await services.prisma.workflowPreferences.upsert({
    where: { userId: user.id },
    create: { userId: user.id, prefs: merged },
    update: { prefs: merged },
  });
  return merged;
}
