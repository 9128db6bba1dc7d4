// The service has no mail transport yet: an e-mail it owes someone is a row in mail_outbox, written in
// the same transaction as what caused it, for a sender to deliver (and mark `sent_at`) once one exists.
import type { Tx } from "../../context.ts";

export interface OutboxMail {
  to: string;
  subject: string;
  body: string;
  kind: string;
}

export async function queueMail(db: Tx, mail: OutboxMail): Promise<void> {
  await db.mailOutbox.create({ data: mail });
}
