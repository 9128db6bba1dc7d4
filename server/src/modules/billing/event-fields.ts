// Reading fields out of a provider's JSON event without trusting its shape: helpers shared by the
// per-provider readers (provider-events.ts, stripe-events.ts, lemonsqueezy-events.ts).
import type { CompletedPayment, EventBase, IgnoredEvent, PaymentLink } from "./provider-events.ts";

export type Json = Record<string, unknown>;

/** A body that is not an event at all (400, never 500). */
export class MalformedEventError extends Error {}

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
export const obj = (value: unknown): Json => (isObject(value) ? value : {});
export const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : null;
export const int = (value: unknown): number | null => {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : null;
};

/** Share of a payment refunded, from the amounts when both are stated; 1 (all of it) when they are not. */
export function refundedShare(total: unknown, refunded: unknown): number {
  const amount = int(total);
  const back = int(refunded);
  return amount && back !== null && back > 0 ? Math.min(1, back / amount) : 1;
}

export function requireId(provider: string, value: unknown, where: string): string {
  const id = text(value);
  if (!id) throw new MalformedEventError(`The ${provider} event has no ${where}`);
  if (id.length > 255) throw new MalformedEventError(`The ${provider} event's ${where} is longer than 255 characters`);
  return id;
}

export function completed(base: EventBase, metadata: Json, rest: Partial<CompletedPayment>): CompletedPayment {
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

export const ignored = (base: EventBase, note: string, links?: PaymentLink[]): IgnoredEvent => ({
  ...base,
  action: "ignored",
  note,
  ...(links?.length ? { links } : {}),
});

/** Links from each of `references` (ids that may be missing or too long to be real) to `paymentId`. */
export function linksTo(paymentId: string | null, references: unknown[]): PaymentLink[] {
  if (!paymentId) return [];
  const seen = new Set<string>();
  for (const value of references) {
    const reference = text(value);
    if (reference && reference !== paymentId && reference.length <= 255) seen.add(reference);
  }
  return [...seen].map((reference) => ({ reference, paymentId }));
}

/** Distinct, present ids, in the order given (the first is the one a note names). */
export function ids(...values: unknown[]): string[] {
  return [...new Set(values.map(text).filter((v): v is string => v !== null && v.length <= 255))];
}
