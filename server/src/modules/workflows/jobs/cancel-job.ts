import type { JobView } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { recordAudit } from "../../audit/record-audit.ts";
import { admitNext, removeJobMessage } from "../launch/enqueue.ts";
import { failAndRefund } from "./fail-job.ts";
import { findJobFor, finishedJobMessage, type JobActor, TERMINAL, toJobView } from "./jobs.ts";

/**
 * Cancels a job that has not finished: it fails at once with its credits refunded in full (nothing of an
 * unfinished job is delivered), its queue message is deleted, and a running worker stops at its next
 * check. A completed job delivered its files: it cannot be cancelled, and nothing is refunded (409).
 */
export async function cancelJob(services: Services, actor: JobActor, jobId: string): Promise<JobView> {
  const job = await findJobFor(services, actor, jobId);
  if (TERMINAL.has(job.status)) throw new AppError("CONFLICT", finishedJobMessage(job.status, "cancelled"));
  await services.prisma.job.update({ where: { id: job.id }, data: { cancelRequestedAt: new Date() } });
  if (!(await failAndRefund(services, job.id, "Cancelled by the user"))) {
    // It finished meanwhile (completed: delivered, so nothing is refunded; or failed by another path).
    const now = await services.prisma.job.findUniqueOrThrow({ where: { id: job.id } });
    throw new AppError("CONFLICT", finishedJobMessage(now.status, "cancelled"));
  }
  // No worker spends time on a cancelled job: its queue message goes, and its slot goes to the account's next job.
  await removeJobMessage(services, job.id);
  await admitNext(services, job.userId);
  await recordAudit(
    services.prisma,
    { actorId: actor.id, ip: actor.ip ?? null },
    { action: "workflow.cancelled", actorId: actor.id, targetType: "job", targetId: job.id },
  );
  return toJobView(await services.prisma.job.findUniqueOrThrow({ where: { id: job.id } }));
}
