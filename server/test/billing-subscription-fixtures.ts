// Subscription events as Stripe and Lemon Squeezy document them, for billing-subscriptions.test.ts.
// Stripe's come in two API generations: before 2025-03-31.basil an invoice names the payment intent and
// charge that paid it (and a charge its invoice); from basil on neither does, and invoice_payment.paid
// says which payment paid which invoice.
import { randomUUID } from "node:crypto";

const evt = () => `evt_${randomUUID()}`;

export interface PlanMetadata {
  userId: string;
  planId: string;
  interval?: string;
  orderId?: string;
}

const metadataOf = (m: PlanMetadata) => ({ interval: "monthly", ...m });

/** Checkout in mode subscription: no payment intent; the subscription and its first invoice. */
export function stripeSubscriptionCheckout(m: PlanMetadata, ids: { subscription: string; invoice: string }, amount = 2900) {
  return {
    id: evt(),
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: `cs_test_${randomUUID()}`,
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        payment_intent: null,
        subscription: ids.subscription,
        invoice: ids.invoice,
        amount_total: amount,
        currency: "usd",
        client_reference_id: m.orderId ?? null,
        metadata: metadataOf(m),
      },
    },
  };
}

export interface InvoiceOptions {
  type?: "invoice.paid" | "invoice.payment_succeeded";
  reason?: "subscription_create" | "subscription_cycle";
  /** Before basil: the invoice names its payment intent and charge. */
  legacy?: { paymentIntent: string; charge: string };
  eventId?: string;
  amount?: number;
}

export function stripeInvoicePaid(m: PlanMetadata, invoice: string, subscription: string, options: InvoiceOptions = {}) {
  const metadata = metadataOf(m);
  const object = options.legacy
    ? { subscription, subscription_details: { metadata }, payment_intent: options.legacy.paymentIntent, charge: options.legacy.charge }
    : { parent: { type: "subscription_details", subscription_details: { subscription, metadata } } };
  return {
    id: options.eventId ?? evt(),
    object: "event",
    type: options.type ?? "invoice.paid",
    data: {
      object: {
        id: invoice,
        object: "invoice",
        billing_reason: options.reason ?? "subscription_cycle",
        status: "paid",
        amount_paid: options.amount ?? 2900,
        currency: "usd",
        ...object,
      },
    },
  };
}

/** From basil on: which payment intent paid which invoice. */
export function stripeInvoicePaymentPaid(invoice: string, paymentIntent: string, amount = 2900) {
  return {
    id: evt(),
    object: "event",
    type: "invoice_payment.paid",
    data: {
      object: {
        id: `inpay_${randomUUID()}`,
        object: "invoice_payment",
        amount_paid: amount,
        invoice,
        is_default: true,
        payment: { type: "payment_intent", payment_intent: paymentIntent },
        status: "paid",
      },
    },
  };
}

/** A charge refunded (cumulative amount_refunded); `invoice` only before basil. */
export function stripeChargeRefunded(charge: { id: string; paymentIntent: string; invoice?: string; amount?: number; refunded?: number }) {
  const amount = charge.amount ?? 2900;
  return {
    id: evt(),
    object: "event",
    type: "charge.refunded",
    data: {
      object: {
        id: charge.id,
        object: "charge",
        amount,
        amount_refunded: charge.refunded ?? amount,
        payment_intent: charge.paymentIntent,
        ...(charge.invoice ? { invoice: charge.invoice } : {}),
        metadata: {},
        refunded: (charge.refunded ?? amount) >= amount,
      },
    },
  };
}

export function stripeDispute(type: "charge.dispute.created" | "charge.dispute.funds_withdrawn", charge: string, paymentIntent: string) {
  return {
    id: evt(),
    object: "event",
    type,
    data: {
      object: { id: `dp_${randomUUID()}`, object: "dispute", amount: 2900, charge, payment_intent: paymentIntent, reason: "fraudulent" },
    },
  };
}

export function lsOrderCreated(m: PlanMetadata, orderId: string, total = 2900) {
  return {
    meta: { event_name: "order_created", webhook_id: randomUUID(), custom_data: metadataOf(m) },
    data: { type: "orders", id: orderId, attributes: { status: "paid", total, currency: "USD", refunded: false } },
  };
}

export function lsSubscriptionCreated(m: PlanMetadata, subscriptionId: string, orderId: string) {
  return {
    meta: { event_name: "subscription_created", webhook_id: randomUUID(), custom_data: metadataOf(m) },
    data: { type: "subscriptions", id: subscriptionId, attributes: { order_id: Number(orderId), status: "active" } },
  };
}

export interface LsInvoiceOptions {
  event?: "subscription_payment_success" | "subscription_payment_recovered" | "subscription_payment_refunded";
  reason?: "initial" | "renewal";
  webhookId?: string;
  refundedAmount?: number;
}

export function lsSubscriptionInvoice(m: PlanMetadata, invoiceId: string, subscriptionId: string, options: LsInvoiceOptions = {}) {
  const refund = options.event === "subscription_payment_refunded";
  const refunded = options.refundedAmount ?? (refund ? 2900 : 0);
  return {
    meta: {
      event_name: options.event ?? "subscription_payment_success",
      webhook_id: options.webhookId ?? randomUUID(),
      custom_data: metadataOf(m),
    },
    data: {
      type: "subscription-invoices",
      id: invoiceId,
      attributes: {
        subscription_id: Number(subscriptionId),
        billing_reason: options.reason ?? "renewal",
        currency: "USD",
        status: refund ? (refunded >= 2900 ? "refunded" : "partial_refund") : "paid",
        refunded: refund,
        total: 2900,
        refunded_amount: refunded,
      },
    },
  };
}
