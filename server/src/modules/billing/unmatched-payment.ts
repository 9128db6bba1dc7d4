// A confirmed payment that leads to no order and no pack or plan (a Payment Link without metadata, an
// order id this service never made): the customer has paid and got nothing, so it must reach a person.
// Answering 200 is still right (Stripe would retry forever otherwise); the event is recorded as
// `unmatched`, the account it names (metadata userId, client_reference_id or the customer's e-mail) is
// flagged for the admin console, and apply-payment-event.ts logs a warning.
import type { Tx } from "../../context.ts";
import type { EventEffect } from "./apply-payment-event.ts";
import type { CompletedPayment } from "./provider-events.ts";

export const UNMATCHED_PAYMENT_FLAG = "unmatched_payment";

async function accountNamedBy(tx: Tx, event: CompletedPayment): Promise<{ id: string } | null> {
  const ids = [event.userId, event.customerReference].filter((id): id is string => !!id);
  const byId = ids.length ? await tx.user.findFirst({ where: { id: { in: ids } }, select: { id: true } }) : null;
  if (byId || !event.customerEmail) return byId;
  return tx.user.findUnique({ where: { email: event.customerEmail.toLowerCase() }, select: { id: true } });
}

function paymentInWords(event: CompletedPayment): string {
  const amount = event.amountCents !== null ? ` of ${(event.amountCents / 100).toFixed(2)} ${event.currency ?? ""}`.trimEnd() : "";
  return `${event.provider} payment${amount} (event ${event.eventId}, payment ${event.paymentId ?? "unknown"})`;
}

export async function flagUnmatchedPayment(tx: Tx, event: CompletedPayment, reason: string): Promise<EventEffect> {
  const account = await accountNamedBy(tx, event);
  if (!account) {
    return { outcome: "unmatched", note: `${reason}; no account to flag either: look the payment up at the provider` };
  }
  const message = `A ${paymentInWords(event)} was confirmed but granted nothing: ${reason}. Check what the customer bought and grant it by hand.`;
  await tx.accountFlag.create({ data: { userId: account.id, kind: UNMATCHED_PAYMENT_FLAG, message } });
  return { outcome: "unmatched", note: `${reason}; account ${account.id} flagged`, userId: account.id };
}
