// The affected account's side: the decisions about its projects (with their statements of reasons), and
// its appeal (DSA Art. 20), which puts the decision back in the admin queue.
import { ModerationAppealInput, ModerationDecisionsQuery } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { toDecisionView } from "./decision-view.ts";

export async function listOwnDecisions(services: Services, user: { id: string }, input: z.input<typeof ModerationDecisionsQuery>) {
  const { projectId } = parseInput(ModerationDecisionsQuery, input);
  const rows = await services.prisma.moderationDecision.findMany({
    where: { userId: user.id, ...(projectId ? { jobId: projectId } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  return { decisions: rows.map(toDecisionView) };
}

export async function appealDecision(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: z.input<typeof ModerationAppealInput>,
) {
  const { decisionId, explanation } = parseInput(ModerationAppealInput, input);
  const { prisma } = services;
  return prisma.$transaction(async (tx) => {
    const decision = await tx.moderationDecision.findUnique({ where: { id: decisionId } });
    // Only the affected account may appeal; to anyone else the decision does not exist.
    if (!decision || decision.userId !== user.id) throw Errors.notFound("Decision");
    if (decision.action === "dismiss")
      throw new AppError("BAD_REQUEST", "This decision took no action against your project: there is nothing to appeal");
    if (decision.appealStatus) throw new AppError("CONFLICT", "You have already appealed this decision; you will be told the outcome");
    const updated = await tx.moderationDecision.update({
      where: { id: decision.id },
      data: { appealText: explanation, appealedAt: new Date(), appealStatus: "pending" },
    });
    await recordAudit(tx, source, {
      action: "moderation.appeal_submitted",
      targetType: "moderation_decision",
      targetId: decision.id,
      metadata: { projectId: decision.jobId },
    });
    return toDecisionView(updated);
  });
}
