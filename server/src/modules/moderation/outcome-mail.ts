// The e-mails a decision owes (queued in mail_outbox inside the decision's transaction): each reporter
// who gave an address learns the outcome of their notice (DSA Art. 16(5)); the project's owner gets the
// statement of reasons and how to appeal (Art. 17). An appeal's outcome goes to the owner.
import type { ModerationDecision, ModerationReport } from "@adgen/prisma";
import type { ModerationAction } from "@adgen/schema";
import type { Services, Tx } from "../../request-context.ts";
import { queueMail } from "../notifications/mail-outbox.ts";

const ACTION_WORDS: Record<ModerationAction, string> = {
  remove: "The project was removed: its media are no longer available.",
  restrict:
    "The project was restricted: it can no longer be published to a social platform (a scheduled post was cancelled), and its media stay available to its owner only.",
  dismiss: "No action was taken: we did not find the content illegal or against our terms.",
};

async function ownerEmail(tx: Tx, userId: string) {
  return (await tx.user.findUnique({ where: { id: userId }, select: { email: true } }))?.email ?? null;
}

export async function queueDecisionMails(
  tx: Tx,
  {
    decision,
    notices,
    projectName,
    services,
  }: { decision: ModerationDecision; notices: ModerationReport[]; projectName: string; services: Services },
): Promise<number> {
  const action = decision.action as ModerationAction;
  let reporters = 0;
  for (const notice of notices) {
    if (!notice.reporterEmail) continue;
    reporters += 1;
    await queueMail(tx, {
      to: notice.reporterEmail,
      kind: "moderation.notice_outcome",
      subject: `Your notice ${notice.reference}: decision`,
      body: `${notice.reporterName ? `Dear ${notice.reporterName},\n\n` : ""}We have decided on your notice ${notice.reference}.\n\n${ACTION_WORDS[action]}\n\nStatement of reasons:\n${decision.statement}\n`,
    });
  }
  if (action !== "dismiss") {
    const to = await ownerEmail(tx, decision.userId);
    if (to) {
      await queueMail(tx, {
        to,
        kind: "moderation.decision",
        subject: `A moderation decision about your project "${projectName || "Untitled"}"`,
        body: `${ACTION_WORDS[action]}\n\nStatement of reasons:\n${decision.statement}\n\nYou can appeal this decision from the project's page: ${services.config.publicUrl}/studio/jobs/${decision.jobId}\nDecision id: ${decision.id}\n`,
      });
    }
  }
  return reporters;
}

export async function queueAppealOutcomeMail(
  tx: Tx,
  { decision, previous, services }: { decision: ModerationDecision; previous: ModerationAction; services: Services },
) {
  const to = await ownerEmail(tx, decision.userId);
  if (!to) return;
  const outcome =
    decision.appealStatus === "upheld"
      ? `Your appeal was not successful: the decision (${previous}) stands.`
      : `Your appeal changed the decision from ${previous} to ${decision.action}. ${ACTION_WORDS[decision.action as ModerationAction]}`;
  await queueMail(tx, {
    to,
    kind: "moderation.appeal_outcome",
    subject: "The outcome of your appeal",
    body: `${outcome}\n\nReasons:\n${decision.appealResolution ?? ""}\n\nProject: ${services.config.publicUrl}/studio/jobs/${decision.jobId}\n`,
  });
}
