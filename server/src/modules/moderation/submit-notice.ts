// POST /api/moderation/report: a notice (DSA Art. 16). The reporter gets a reference to quote; the notice
// waits in the admin queue. Name and e-mail are required except for child sexual abuse notices (the
// schema says so); a signed-in reporter's e-mail is theirs unless they give another.
import { ModerationReportInput } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { isUniqueViolation, parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { newNoticeReference } from "./reference.ts";
import { resolveNoticeTarget } from "./target.ts";

export async function submitNotice(services: Services, reporter: { id: string }, source: AuditSource, input: ModerationReportInput) {
  const notice = parseInput(ModerationReportInput, input);
  const job = await resolveNoticeTarget(services, notice.target);
  const { prisma } = services;
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await prisma.$transaction(async (tx) => {
        const created = await tx.moderationReport.create({
          data: {
            reference: newNoticeReference(),
            reporterId: reporter.id,
            reporterName: notice.reporterName ?? null,
            reporterEmail: notice.reporterEmail?.toLowerCase() ?? null,
            jobId: job.id,
            target: notice.target,
            category: notice.category,
            explanation: notice.explanation,
          },
        });
        await recordAudit(tx, source, {
          action: "moderation.notice_submitted",
          targetType: "project",
          targetId: job.id,
          metadata: { reference: created.reference, category: notice.category },
        });
        return created;
      });
      return { reference: row.reference, status: "pending" as const, submittedAt: row.createdAt.toISOString() };
    } catch (error) {
      // A reference collision (32^10 space) is retried with a new one.
      if (isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}
