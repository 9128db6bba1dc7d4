// Stripe's events, read from their documented shapes, before and after API version 2025-03-31.basil:
// - checkout.session.completed (or async_payment_succeeded): a pack's payment, named by its payment
//   intent, or a plan's first period (mode subscription), named by the subscription's first invoice.
// - invoice.paid / invoice.payment_succeeded with billing_reason subscription_cycle: a renewal, its own
//   payment, named by the invoice id.
// - Which payment intent and charge paid an invoice: `payment_intent` and `charge` on the invoice before
//   basil, `payments.data[].payment` (when included) and the invoice_payment.paid event from basil on.
//   Recorded as links, because a refund or dispute names the charge and payment intent, and since basil
//   no longer the invoice (`charge.invoice` was removed).
// - charge.refunded, charge.dispute.created and charge.dispute.funds_withdrawn: reversals.
import { amountCents, completed, ids, ignored, type Json, linksTo, obj, refundedShare, requireId, text } from "./event-fields.ts";
import type { PaymentEvent, PaymentLink } from "./types.ts";

/** The payment intents and charges an invoice names as having paid it, linked to the invoice's id. */
function invoiceLinks(invoice: Json): PaymentLink[] {
  const payments = obj(invoice.payments).data;
  const paidBy = (Array.isArray(payments) ? payments : []).map((entry) => obj(obj(entry).payment));
  return linksTo(text(invoice.id), [
    invoice.payment_intent,
    invoice.charge,
    ...paidBy.flatMap((payment) => [payment.payment_intent, payment.charge]),
  ]);
}

/** The subscription's metadata: `parent.subscription_details` in current API versions, else the older field. */
function subscriptionMetadata(invoice: Json): Json {
  const current = obj(obj(obj(invoice.parent).subscription_details).metadata);
  return Object.keys(current).length > 0 ? current : obj(obj(invoice.subscription_details).metadata);
}

export function stripeEvent(body: Json): PaymentEvent {
  const base = { provider: "stripe" as const, eventId: requireId("stripe", body.id, "id"), type: text(body.type) ?? "unknown" };
  const object = obj(obj(body.data).object);
  switch (base.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const status = text(object.payment_status);
      if (status && status !== "paid" && status !== "no_payment_required") return ignored(base, `payment status is ${status}`);
      const metadata = obj(object.metadata);
      // client_reference_id is the seller's own reference: this service's checkout puts the order id there
      // (and in the metadata), a Payment Link or another checkout usually the customer's id (Stripe's guide
      // recommends it). It names the order only when the metadata names no account; it is always a hint
      // of whose payment this is, should nothing else match.
      const reference = text(object.client_reference_id);
      return completed(base, metadata, {
        orderId: text(metadata.orderId) ?? (text(metadata.userId) ? null : reference),
        customerReference: reference,
        customerEmail: text(obj(object.customer_details).email) ?? text(object.customer_email),
        // A subscription's first period is paid by its first invoice: refunds of that charge lead there.
        paymentId: text(object.payment_intent) ?? text(object.invoice) ?? text(object.subscription) ?? text(object.id),
        sessionId: text(object.id),
        amountCents: amountCents("stripe", object.amount_total, "data.object.amount_total"),
        currency: text(object.currency)?.toUpperCase() ?? null,
      });
    }
    // A subscription's later periods (the first is the checkout above): the plan's allowance again.
    // Stripe sends both events for one payment; the invoice id makes them one payment.
    case "invoice.paid":
    case "invoice.payment_succeeded": {
      const links = invoiceLinks(object);
      if (text(object.billing_reason) !== "subscription_cycle") {
        return ignored(base, "only renewals (billing_reason subscription_cycle) are granted here", links);
      }
      return {
        ...completed(base, subscriptionMetadata(object), {
          paymentId: requireId("stripe", object.id, "invoice id"),
          amountCents: amountCents("stripe", object.amount_paid, "data.object.amount_paid"),
          currency: text(object.currency)?.toUpperCase() ?? null,
        }),
        ...(links.length ? { links } : {}),
      };
    }
    case "invoice_payment.paid": {
      const payment = obj(object.payment);
      const invoice = text(object.invoice) ?? text(obj(object.invoice).id);
      const links = linksTo(invoice, [payment.payment_intent, payment.charge]);
      return ignored(base, links.length ? `recorded which payment paid invoice ${invoice}` : "the invoice payment names no invoice", links);
    }
    case "charge.refunded":
      return {
        ...base,
        action: "reversed",
        reason: "refund",
        orderId: text(obj(object.metadata).orderId),
        paymentId: text(object.payment_intent) ?? text(object.id),
        alsoKnownAs: ids(object.invoice, object.id),
        share: refundedShare(
          amountCents("stripe", object.amount, "data.object.amount"),
          amountCents("stripe", object.amount_refunded, "data.object.amount_refunded"),
        ),
      };
    // Either may come first (or only one); the second finds the payment already settled.
    case "charge.dispute.created":
    case "charge.dispute.funds_withdrawn":
      return {
        ...base,
        action: "reversed",
        reason: "chargeback",
        orderId: text(obj(object.metadata).orderId),
        paymentId: text(object.payment_intent) ?? text(object.charge),
        alsoKnownAs: ids(object.charge),
        share: 1,
      };
    default:
      return ignored(base, `event type ${base.type} is not used here`);
  }
}
