import type { JobView } from "@adgen/schema";
import type { RequestContext } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { failAndRefund } from "./fail-job.ts";
import { findOwnJob, TERMINAL, toJobView } from "./jobs.ts";

/** Cancels a job that has not finished: it fails at once with its credits refunded; a running worker stops at its next check. */
export async function cancelJob(ctx: RequestContext, jobId: string): Promise<JobView> {
  const job = await findOwnJob(ctx, jobId);
  if (TERMINAL.has(job.status)) throw new AppError("CONFLICT", `Job is already ${job.status}; only unfinished jobs can be cancelled`);
  await ctx.services.prisma.job.update({ where: { id: job.id }, data: { cancelRequestedAt: new Date() } });
  await failAndRefund(ctx.services, job.id, "Cancelled by the user");
  await recordAudit(ctx.services.prisma, ctx, { action: "workflow.cancelled", targetType: "job", targetId: job.id });
  return toJobView(await ctx.services.prisma.job.findUniqueOrThrow({ where: { id: job.id } }));
}
