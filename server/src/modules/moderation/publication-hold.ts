// A restriction or removal cancels the project's scheduled post at once, in the decision's transaction,
// so its owner sees why on the project page; the publish worker also asks the media gate before posting.
import type { Prisma } from "@adgen/prisma";
import type { Publication, WorkflowResult } from "@adgen/schema";
import type { Tx } from "../../request-context.ts";

export const PUBLICATION_CANCELLED = "Not posted: the project was restricted after a moderation decision";

/** Marks a still-scheduled publication of the job failed with the reason; answers whether it did. */
export async function cancelScheduledPublication(tx: Tx, jobId: string): Promise<boolean> {
  const job = await tx.job.findUnique({ where: { id: jobId }, select: { result: true } });
  const result = job?.result as unknown as WorkflowResult | null;
  if (result?.publication?.status !== "scheduled") return false;
  const publication: Publication = { ...result.publication, status: "failed", reason: PUBLICATION_CANCELLED };
  await tx.job.update({ where: { id: jobId }, data: { result: { ...result, publication } as unknown as Prisma.InputJsonValue } });
  return true;
}
