// An e-mail the service owes someone is a row in mail_outbox, written in the same transaction as what
// caused it; the sender (modules/mail/deliver-mail.ts, run by the workers' sweep) delivers it through
// SMTP_URL and records `sent` with its time and Message-ID, or the error and the next attempt.
import type { Tx } from "../../request-context.ts";

export interface OutboxMail {
  to: string;
  subject: string;
  body: string;
  kind: string;
}

export async function queueMail(db: Tx, mail: OutboxMail): Promise<void> {
  await db.mailOutbox.create({ data: mail });
}
