// The other names a provider gives a payment (payment_references), and finding the order a refund or
// dispute means by any of them. A Stripe charge of a subscription invoice names its payment intent and
// charge, while the order carries the invoice's id: an invoice.paid or invoice_payment.paid event
// recorded the link, in whichever order the events arrived.
import { randomUUID } from "node:crypto";
import type { Order as OrderRow } from "@adgen/prisma";
import type { Tx } from "../../request-context.ts";
import { ids } from "./event-fields.ts";
import type { PaymentEventSource, PaymentLink, ReversedPayment } from "./types.ts";

/** Records each link once (a repeat, or a second event stating the same link, changes nothing). */
export async function recordPaymentLinks(tx: Tx, provider: PaymentEventSource, links: readonly PaymentLink[]): Promise<void> {
  for (const link of links) {
    await tx.$executeRaw`
      INSERT INTO payment_references (id, provider, reference, payment_id)
      VALUES (${randomUUID()}, ${provider}, ${link.reference}, ${link.paymentId})
      ON CONFLICT (provider, reference) DO NOTHING`;
  }
}

const SETTLED = { in: ["paid", "refunded"] };

/**
 * The paid (or already refunded) order a reversal is about: the one its metadata names, else the one whose
 * payment id is any of the ids the event gives, else the one those ids are linked to.
 */
export async function orderOfReversal(tx: Tx, event: ReversedPayment): Promise<OrderRow | null> {
  const named = event.orderId ? await tx.order.findUnique({ where: { id: event.orderId } }) : null;
  if (named) return named;
  const names = ids(event.paymentId, ...(event.alsoKnownAs ?? []));
  if (names.length === 0) return null;
  const direct = await tx.order.findFirst({ where: { provider: event.provider, providerPaymentId: { in: names }, status: SETTLED } });
  if (direct) return direct;
  const linked = await tx.paymentReference.findMany({
    where: { provider: event.provider, reference: { in: names } },
    select: { paymentId: true },
  });
  if (linked.length === 0) return null;
  return tx.order.findFirst({
    where: { provider: event.provider, providerPaymentId: { in: linked.map((l) => l.paymentId) }, status: SETTLED },
  });
}
