// What a provider's event means here, read from its documented shape: a completed payment (with the
// metadata naming userId and packId or planId), a refund or chargeback, or something to record and ignore.
// Any of them may also state links: another id the provider uses for a payment (a payment intent that paid
// an invoice), so a later refund naming only that id finds the order.
// Pure: no database. A body that is not an event at all is a MalformedEventError (400).
// Stripe's events are read in stripe-events.ts, Lemon Squeezy's in lemonsqueezy-events.ts.
import { MAX_INPUT_DEPTH, unsafeInput } from "../../errors.ts";
import { amountCents, completed, ignored, isObject, type Json, MalformedEventError, obj, requireId, text } from "./event-fields.ts";
import { lemonSqueezyEvent } from "./lemonsqueezy-events.ts";
import { stripeEvent } from "./stripe-events.ts";
import type { WebhookProvider } from "./signatures.ts";
import type { PaymentEvent, PaymentEventSource } from "./types.ts";

export { MalformedEventError };

export function parseEventBody(provider: PaymentEventSource, body: Uint8Array): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new MalformedEventError(`The ${provider} event is not valid JSON`);
  }
  if (!isObject(parsed)) throw new MalformedEventError(`The ${provider} event must be a JSON object`);
  // The event's ids and metadata are stored as text: a NUL (PostgreSQL refuses it) is the sender's error.
  const unsafe = unsafeInput(parsed);
  if (unsafe) {
    throw new MalformedEventError(
      unsafe.kind === "depth"
        ? `The ${provider} event nests deeper than ${MAX_INPUT_DEPTH} levels at ${unsafe.path}`
        : `The ${provider} event's ${unsafe.path} ${unsafe.kind === "nul" ? "contains a NUL character" : "contains invalid Unicode"}`,
    );
  }
  return parsed;
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
      amountCents: amountCents("paddle", obj(obj(data.details).totals).grand_total, "data.details.totals.grand_total"),
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
