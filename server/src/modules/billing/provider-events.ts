// What a provider's event means here, read from its documented shape: a completed payment (with the
// metadata naming userId and packId or planId), a refund or chargeback, or something to record and ignore.
// Pure: no database. A body that is not an event at all is a MalformedEventError (400).
import type { WebhookProvider } from "./signatures.ts";

export type PaymentEventSource = WebhookProvider | "sandbox";

interface EventBase {
  provider: PaymentEventSource;
  /** Unique per provider: a repeat of it changes nothing. */
  eventId: string;
  type: string;
}

export interface CompletedPayment extends EventBase {
  action: "completed";
  orderId: string | null;
  userId: string | null;
  packId: string | null;
  planId: string | null;
  interval: string | null;
  /** The provider's id of the payment (payment intent, transaction, order): refunds name it. */
  paymentId: string | null;
  sessionId: string | null;
  amountCents: number | null;
  currency: string | null;
}

export interface ReversedPayment extends EventBase {
  action: "reversed";
  reason: "refund" | "chargeback";
  orderId: string | null;
  paymentId: string | null;
  /** Share of the payment reversed (0–1]; 1 when the provider does not say. */
  share: number;
}

export interface IgnoredEvent extends EventBase {
  action: "ignored";
  note: string;
}

export type PaymentEvent = CompletedPayment | ReversedPayment | IgnoredEvent;

export class MalformedEventError extends Error {}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const obj = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : null;
const int = (value: unknown): number | null => {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : null;
};

export function parseEventBody(provider: PaymentEventSource, body: Uint8Array): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new MalformedEventError(`The ${provider} event is not valid JSON`);
  }
  if (!isObject(parsed)) throw new MalformedEventError(`The ${provider} event must be a JSON object`);
  return parsed;
}

function completed(base: EventBase, metadata: Json, rest: Partial<CompletedPayment>): CompletedPayment {
  return {
    ...base,
    action: "completed",
    orderId: text(metadata.orderId),
    userId: text(metadata.userId),
    packId: text(metadata.packId),
    planId: text(metadata.planId),
    interval: text(metadata.interval),
    paymentId: null,
    sessionId: null,
    amountCents: null,
    currency: null,
    ...rest,
  };
}

const ignored = (base: EventBase, note: string): IgnoredEvent => ({ ...base, action: "ignored", note });

function requireId(provider: string, value: unknown, where: string): string {
  const id = text(value);
  if (!id) throw new MalformedEventError(`The ${provider} event has no ${where}`);
  if (id.length > 255) throw new MalformedEventError(`The ${provider} event's ${where} is longer than 255 characters`);
  return id;
}

function stripeEvent(body: Json): PaymentEvent {
  const base = { provider: "stripe" as const, eventId: requireId("stripe", body.id, "id"), type: text(body.type) ?? "unknown" };
  const object = obj(obj(body.data).object);
  switch (base.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const status = text(object.payment_status);
      if (status && status !== "paid" && status !== "no_payment_required") return ignored(base, `payment status is ${status}`);
      const metadata = obj(object.metadata);
      return completed(base, metadata, {
        orderId: text(metadata.orderId) ?? text(object.client_reference_id),
        paymentId: text(object.payment_intent) ?? text(object.subscription) ?? text(object.id),
        sessionId: text(object.id),
        amountCents: int(object.amount_total),
        currency: text(object.currency)?.toUpperCase() ?? null,
      });
    }
    // A subscription's later periods (the first is the checkout above): the plan's allowance again.
    case "invoice.paid": {
      if (text(object.billing_reason) !== "subscription_cycle")
        return ignored(base, "only renewals (billing_reason subscription_cycle) are used");
      // The subscription's metadata: `parent.subscription_details` in current API versions, else the older field.
      const current = obj(obj(obj(object.parent).subscription_details).metadata);
      const named = Object.keys(current).length > 0 ? current : obj(obj(object.subscription_details).metadata);
      return completed(base, named, {
        paymentId: text(object.id),
        amountCents: int(object.amount_paid),
        currency: text(object.currency)?.toUpperCase() ?? null,
      });
    }
    case "charge.refunded": {
      const amount = int(object.amount);
      const refunded = int(object.amount_refunded);
      return {
        ...base,
        action: "reversed",
        reason: "refund",
        orderId: text(obj(object.metadata).orderId),
        paymentId: text(object.payment_intent) ?? text(object.id),
        share: amount && refunded !== null ? Math.min(1, refunded / amount) : 1,
      };
    }
    case "charge.dispute.created":
      return {
        ...base,
        action: "reversed",
        reason: "chargeback",
        orderId: text(obj(object.metadata).orderId),
        paymentId: text(object.payment_intent) ?? text(object.charge),
        share: 1,
      };
    default:
      return ignored(base, `event type ${base.type} is not used here`);
  }
}

function paddleEvent(body: Json): PaymentEvent {
  const base = {
    provider: "paddle" as const,
    eventId: requireId("paddle", body.event_id, "event_id"),
    type: text(body.event_type) ?? "unknown",
  };
  const data = obj(body.data);
  if (base.type === "transaction.completed") {
    return completed(base, obj(data.custom_data), {
      paymentId: text(data.id),
      amountCents: int(obj(obj(data.details).totals).grand_total),
      currency: text(data.currency_code)?.toUpperCase() ?? null,
    });
  }
  if (base.type === "adjustment.created" || base.type === "adjustment.updated") {
    const action = text(data.action);
    const status = text(data.status);
    if ((action === "refund" && (status === null || status === "approved")) || action === "chargeback") {
      return {
        ...base,
        action: "reversed",
        reason: action === "chargeback" ? "chargeback" : "refund",
        orderId: text(obj(data.custom_data).orderId),
        paymentId: text(data.transaction_id),
        share: 1,
      };
    }
    return ignored(base, `adjustment ${action ?? "?"} is ${status ?? "?"}`);
  }
  return ignored(base, `event type ${base.type} is not used here`);
}

function lemonSqueezyEvent(body: Json): PaymentEvent {
  const meta = obj(body.meta);
  const data = obj(body.data);
  const type = text(meta.event_name) ?? "unknown";
  // The id (meta.webhook_id, else data.id) is kept per event name: an order's refund carries the same
  // data.id as its creation and must not pass for a repeat of it.
  const id = requireId("lemonsqueezy", meta.webhook_id ?? data.id, "meta.webhook_id or data.id");
  const base = { provider: "lemonsqueezy" as const, eventId: `${type}:${id}`, type };
  const attributes = obj(data.attributes);
  if (type === "order_created") {
    const status = text(attributes.status);
    if (status && status !== "paid") return ignored(base, `order status is ${status}`);
    return completed(base, obj(meta.custom_data), {
      paymentId: text(data.id),
      amountCents: int(attributes.total),
      currency: text(attributes.currency)?.toUpperCase() ?? null,
    });
  }
  if (type === "order_refunded") {
    return {
      ...base,
      action: "reversed",
      reason: "refund",
      orderId: text(obj(meta.custom_data).orderId),
      paymentId: text(data.id),
      share: 1,
    };
  }
  return ignored(base, `event type ${type} is not used here`);
}

/** Meta's platform events: recorded once (entry ids and times), nothing else to do with them yet. */
function metaEvent(body: Json): PaymentEvent {
  const entries = body.entry;
  if (!Array.isArray(entries) || entries.length === 0) throw new MalformedEventError("The meta event has no entry array");
  const ids = entries.map((entry) => {
    const e = obj(entry);
    const id = text(e.id);
    const time = text(e.time);
    if (!id || !time) throw new MalformedEventError("Every meta entry needs an id and a time");
    return `${id}:${time}`;
  });
  const eventId = ids.join(",");
  if (eventId.length > 255) throw new MalformedEventError("The meta event has too many entries for one delivery");
  return ignored({ provider: "meta", eventId, type: text(body.object) ?? "meta" }, "platform event recorded");
}

export function readProviderEvent(provider: WebhookProvider, body: Json): PaymentEvent {
  switch (provider) {
    case "stripe":
      return stripeEvent(body);
    case "paddle":
      return paddleEvent(body);
    case "lemonsqueezy":
      return lemonSqueezyEvent(body);
    case "meta":
      return metaEvent(body);
  }
}
