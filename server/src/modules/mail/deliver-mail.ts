// The sender of mail_outbox: the workers' sweep calls `deliverDueMail`, which claims the rows that are
// due, sends each through SMTP and records the outcome on the row: `sent` with the time and Message-ID,
// or the error with the next attempt after a growing delay, until MAIL_MAX_ATTEMPTS (then `failed`).
// Without SMTP_URL nothing is claimed: the rows stay `pending` and the admin reports say why.
import type { Services } from "../../request-context.ts";
import { createMailer } from "./smtp-transport.ts";

export const MAIL_MAX_ATTEMPTS = 5;
/** Rows claimed per run; the rest wait for the next sweep. */
const BATCH = 20;
/** A claimed row is pushed this far ahead, so the row of a sender that died mid-send is tried again later. */
const CLAIM_MS = 5 * 60_000;

/** Delay before attempt n + 1 after n failed attempts: 1, 2, 4, 8 … minutes, at most an hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);
}

export interface MailRun {
  configured: boolean;
  sent: number;
  failed: number;
  /** Of the failed, how many were given up (status `failed`). */
  givenUp: number;
}

interface ClaimedMail {
  id: string;
  to: string;
  subject: string;
  body: string;
  kind: string;
  attempts: number;
}

/** Takes the due rows for this sender (SKIP LOCKED: two instances never take the same row). */
async function claimDueMail(services: Services, now: Date): Promise<ClaimedMail[]> {
  const until = new Date(now.getTime() + CLAIM_MS);
  return services.prisma.$queryRaw<ClaimedMail[]>`
    UPDATE mail_outbox SET next_attempt_at = ${until}
    WHERE id IN (
      SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY created_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
    )
    RETURNING id, "to", subject, body, kind, attempts`;
}

export async function deliverDueMail(services: Services, options: { now?: Date } = {}): Promise<MailRun> {
  const run: MailRun = { configured: false, sent: 0, failed: 0, givenUp: 0 };
  const mailer = createMailer(services.config.mail);
  if (!mailer) return run;
  run.configured = true;
  const now = options.now ?? new Date();
  const { prisma, logger } = services;
  try {
    for (const mail of await claimDueMail(services, now)) {
      const attempt = mail.attempts + 1;
      try {
        const messageId = await mailer.send(mail);
        await prisma.mailOutbox.update({
          where: { id: mail.id },
          data: { status: "sent", sentAt: new Date(), messageId, attempts: attempt, lastError: null },
        });
        run.sent += 1;
        logger.info({ mailId: mail.id, kind: mail.kind, attempt }, "mail sent");
      } catch (error) {
        const final = attempt >= MAIL_MAX_ATTEMPTS;
        const lastError = (error as Error).message.slice(0, 1000);
        await prisma.mailOutbox.update({
          where: { id: mail.id },
          data: {
            attempts: attempt,
            lastError,
            status: final ? "failed" : "pending",
            nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt)),
          },
        });
        run.failed += 1;
        if (final) run.givenUp += 1;
        logger.warn({ mailId: mail.id, kind: mail.kind, attempt, final, error: lastError }, "mail delivery failed");
      }
    }
  } finally {
    mailer.close();
  }
  return run;
}
