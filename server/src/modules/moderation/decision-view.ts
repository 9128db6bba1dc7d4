import type { ModerationDecision } from "@adgen/prisma";
import type { ModerationAction, ModerationCategory, ModerationDecisionView } from "@adgen/schema";

/** A decision as the affected account sees it; only a remove or restrict can be appealed, once. */
export function toDecisionView(row: ModerationDecision): ModerationDecisionView {
  return {
    id: row.id,
    projectId: row.jobId,
    action: row.action as ModerationAction,
    category: row.category as ModerationCategory,
    statement: row.statement,
    decidedAt: row.createdAt.toISOString(),
    appeal:
      row.appealStatus && row.appealText && row.appealedAt
        ? {
            status: row.appealStatus as "pending" | "upheld" | "reversed",
            explanation: row.appealText,
            submittedAt: row.appealedAt.toISOString(),
            resolution: row.appealResolution,
          }
        : null,
    canAppeal: row.action !== "dismiss" && !row.appealStatus,
  };
}
