// A confirmed payment that leads to no order and no pack or plan (a Payment Link without metadata, an
// order id this service never made): the customer has paid and got nothing, so it must reach a person.
// Answering 200 is still right (the provider would retry forever otherwise, and a retry would match no
// better); nothing is lost instead: in the event's own transaction the event is recorded as `unmatched`
// and an `unmatched_payment` flag is raised for the admin console (GET /api/admin/flags), on the account
// the event names (metadata userId, client_reference_id or the customer's e-mail), or, when it names no
// account this service knows, on no account, saying what the provider knows of the customer.
// apply-payment-event.ts logs a warning as well.
import type { Tx } from "../../request-context.ts";
import type { CompletedPayment, EventEffect } from "./types.ts";

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

/** What the event says about a customer this service does not know, for the admin to find them. */
function customerInWords(event: CompletedPayment): string {
  const named = [
    event.customerEmail ? `e-mail ${event.customerEmail}` : null,
    event.customerReference ? `reference ${event.customerReference}` : null,
    event.userId ? `userId ${event.userId}` : null,
  ].filter(Boolean);
  return named.length ? `the event names ${named.join(", ")}, which matches no account` : "the event names no customer";
}

export async function flagUnmatchedPayment(tx: Tx, event: CompletedPayment, reason: string): Promise<EventEffect> {
  const account = await accountNamedBy(tx, event);
  const payment = `A ${paymentInWords(event)} was confirmed but granted nothing: ${reason}`;
  if (!account) {
    const message = `${payment}; ${customerInWords(event)}. Look the customer up at ${event.provider}, then grant or refund by hand.`;
    const flag = await tx.accountFlag.create({ data: { userId: null, kind: UNMATCHED_PAYMENT_FLAG, message } });
    return { outcome: "unmatched", note: `${reason}; no account found, flag ${flag.id} raised for an admin` };
  }
  const message = `${payment}. Check what the customer bought and grant it by hand.`;
  const flag = await tx.accountFlag.create({ data: { userId: account.id, kind: UNMATCHED_PAYMENT_FLAG, message } });
  return { outcome: "unmatched", note: `${reason}; account ${account.id} flagged (flag ${flag.id})`, userId: account.id };
}
