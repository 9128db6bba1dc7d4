// PATCH /api/admin/moderation: an admin resolves a queue item with a statement of reasons (DSA Art. 17).
// - A notice: one decision for its project, which also resolves every other pending notice about it;
//   `remove` takes the project's media offline (media-gate.ts); `restrict` keeps the project from being
//   published (its media stay with its owner and the admins; a scheduled post is cancelled, a publish
//   launch built on it answers 403); `dismiss` takes no action.
// - An appeal (the item id is the decision's): `dismiss` reverses the decision (a removed project's media
//   come back), `remove` or `restrict` upholds it or changes it to that action.
// Every reporter is told the outcome by e-mail and the owner by e-mail and push, all from the same commit.
import { type ModerationAction, ModerationResolveInput } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { pushToUser } from "../notifications/deliver-push.ts";
import { toDecisionView } from "./decision-view.ts";
import { cancelScheduledPublication } from "./publication-hold.ts";
import { queueAppealOutcomeMail, queueDecisionMails } from "./outcome-mail.ts";

export async function resolveModerationItem(
  services: Services,
  admin: { id: string },
  source: AuditSource,
  input: z.input<typeof ModerationResolveInput>,
) {
  const { id, action, statement } = parseInput(ModerationResolveInput, input);
  const { prisma } = services;
  const outcome = await prisma.$transaction(async (tx) => {
    const notice = await tx.moderationReport.findUnique({ where: { id } });
    if (notice) {
      if (notice.status !== "pending") throw new AppError("CONFLICT", `Notice ${notice.reference} is already resolved`);
      const job = await tx.job.findUnique({ where: { id: notice.jobId }, select: { id: true, userId: true, name: true } });
      if (!job) throw new AppError("CONFLICT", "The reported project no longer exists; nothing to decide");
      const decision = await tx.moderationDecision.create({
        data: { jobId: job.id, userId: job.userId, action, category: notice.category, statement, decidedById: admin.id },
      });
      const publicationCancelled = action === "dismiss" ? false : await cancelScheduledPublication(tx, job.id);
      const notices = await tx.moderationReport.findMany({ where: { jobId: job.id, status: "pending" } });
      await tx.moderationReport.updateMany({
        where: { id: { in: notices.map((n) => n.id) }, status: "pending" },
        data: { status: "resolved", decisionId: decision.id, resolvedAt: new Date() },
      });
      const reportersNotified = await queueDecisionMails(tx, { decision, notices, projectName: job.name, services: services });
      await recordAudit(tx, source, {
        action: "admin.moderation_decided",
        targetType: "project",
        targetId: job.id,
        metadata: { decisionId: decision.id, action, notices: notices.map((n) => n.reference), publicationCancelled },
      });
      return { kind: "notice" as const, decision, reportersNotified };
    }
    const decision = await tx.moderationDecision.findUnique({ where: { id } });
    if (!decision) throw Errors.notFound("Moderation item");
    if (decision.appealStatus !== "pending") throw new AppError("CONFLICT", "This decision has no pending appeal to resolve");
    const upheld = action === decision.action;
    const updated = await tx.moderationDecision.update({
      where: { id },
      data: { action, appealStatus: upheld ? "upheld" : "reversed", appealResolution: statement, appealResolvedAt: new Date() },
    });
    if (action !== "dismiss") await cancelScheduledPublication(tx, decision.jobId);
    await queueAppealOutcomeMail(tx, { decision: updated, previous: decision.action as ModerationAction, services: services });
    await recordAudit(tx, source, {
      action: "admin.moderation_appeal_resolved",
      targetType: "moderation_decision",
      targetId: id,
      metadata: { projectId: decision.jobId, from: decision.action, to: action, outcome: updated.appealStatus },
    });
    return { kind: "appeal" as const, decision: updated, reportersNotified: 0 };
  });
  const view = toDecisionView(outcome.decision);
  if (view.action !== "dismiss" || outcome.kind === "appeal") {
    pushToUser(services, outcome.decision.userId, {
      title: outcome.kind === "appeal" ? "Your appeal was decided" : "A moderation decision about your project",
      body: outcome.decision.appealResolution ?? outcome.decision.statement,
      url: `/studio/jobs/${outcome.decision.jobId}`,
      tag: `moderation-${outcome.decision.id}`,
    }).catch((error: Error) => services.logger.warn({ error: error.message }, "push: moderation notification not sent"));
  }
  return { id, kind: outcome.kind, decision: view, reportersNotified: outcome.reportersNotified };
}
