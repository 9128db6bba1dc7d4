// Lemon Squeezy's events, read from their documented shapes (meta.event_name, meta.custom_data as the
// checkout set it, data a JSON:API resource):
// - order_created: a payment (a pack, or a plan's first period), named by the order id.
// - subscription_created: links the subscription to its first order, so the refund of its initial
//   subscription invoice finds that order.
// - subscription_payment_success (and _recovered, a renewal paid after a failed attempt), data type
//   "subscription-invoices": billing_reason "renewal" is a later period, named by the invoice id, and
//   grants the plan's allowance again; "initial" was already granted by order_created.
// - order_refunded and subscription_payment_refunded: reversals (share from refunded_amount and total).
// Subscription invoice ids and order ids are separate number sequences: invoices are prefixed.
import { amountCents, completed, ids, ignored, type Json, linksTo, obj, refundedShare, requireId, text } from "./event-fields.ts";
import type { PaymentEvent } from "./types.ts";

const invoicePayment = (id: string) => `subscription-invoice:${id}`;
const firstPaymentOf = (subscriptionId: string) => `subscription-initial:${subscriptionId}`;

export function lemonSqueezyEvent(body: Json): PaymentEvent {
  const meta = obj(body.meta);
  const data = obj(body.data);
  const type = text(meta.event_name) ?? "unknown";
  // The id (meta.webhook_id, else data.id) is kept per event name: an order's refund carries the same
  // data.id as its creation and must not pass for a repeat of it.
  const id = requireId("lemonsqueezy", meta.webhook_id ?? data.id, "meta.webhook_id or data.id");
  const base = { provider: "lemonsqueezy" as const, eventId: `${type}:${id}`, type };
  const attributes = obj(data.attributes);
  const customData = obj(meta.custom_data);
  switch (type) {
    case "order_created": {
      const status = text(attributes.status);
      if (status && status !== "paid") return ignored(base, `order status is ${status}`);
      return completed(base, customData, {
        paymentId: text(data.id),
        amountCents: amountCents("lemonsqueezy", attributes.total, "data.attributes.total"),
        currency: text(attributes.currency)?.toUpperCase() ?? null,
      });
    }
    case "order_refunded":
      return {
        ...base,
        action: "reversed",
        reason: "refund",
        orderId: text(customData.orderId),
        paymentId: text(data.id),
        alsoKnownAs: [],
        share: refundedShare(
          amountCents("lemonsqueezy", attributes.total, "data.attributes.total"),
          amountCents("lemonsqueezy", attributes.refunded_amount, "data.attributes.refunded_amount"),
        ),
      };
    case "subscription_created": {
      const subscription = text(data.id);
      const links = subscription ? linksTo(text(attributes.order_id), [firstPaymentOf(subscription)]) : [];
      return ignored(base, links.length ? `recorded subscription ${subscription}'s first order` : "the subscription names no order", links);
    }
    case "subscription_payment_success":
    case "subscription_payment_recovered": {
      const invoice = requireId("lemonsqueezy", data.id, "data.id");
      const status = text(attributes.status);
      if (status && status !== "paid") return ignored(base, `subscription invoice status is ${status}`);
      const reason = text(attributes.billing_reason);
      if (reason !== "renewal")
        return ignored(base, `billing_reason ${reason ?? "?"}: only renewals are granted here (order_created grants the first)`);
      return completed(base, customData, {
        paymentId: invoicePayment(invoice),
        amountCents: amountCents("lemonsqueezy", attributes.total, "data.attributes.total"),
        currency: text(attributes.currency)?.toUpperCase() ?? null,
      });
    }
    case "subscription_payment_refunded": {
      const invoice = requireId("lemonsqueezy", data.id, "data.id");
      const subscription = text(attributes.subscription_id);
      const initial = text(attributes.billing_reason) === "initial" && subscription;
      return {
        ...base,
        action: "reversed",
        reason: "refund",
        // Not custom_data's orderId: every event of a subscription carries its checkout's, the first order's.
        orderId: null,
        paymentId: invoicePayment(invoice),
        alsoKnownAs: ids(initial ? firstPaymentOf(subscription) : null),
        share: refundedShare(
          amountCents("lemonsqueezy", attributes.total, "data.attributes.total"),
          amountCents("lemonsqueezy", attributes.refunded_amount, "data.attributes.refunded_amount"),
        ),
      };
    }
    default:
      return ignored(base, `event type ${type} is not used here`);
  }
}
