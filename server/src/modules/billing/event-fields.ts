// Reading fields out of a provider's JSON event without trusting its shape: helpers shared by the
// per-provider readers (provider-events.ts, stripe-events.ts, lemonsqueezy-events.ts).
import { AMOUNT_CENTS_RULE, isAmountCents } from "@adgen/schema";
import type { CompletedPayment, EventBase, IgnoredEvent, PaymentLink } from "./types.ts";

export type Json = Record<string, unknown>;

/** A body that is not an event at all (400, never 500). */
export class MalformedEventError extends Error {}

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
export const obj = (value: unknown): Json => (isObject(value) ? value : {});
export const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : null;

/**
 * An amount the event states at `field` (a JSON number, or a string of digits as Paddle sends totals):
 * null when absent; anything but whole cents from 0 to MAX_AMOUNT_CENTS makes the event malformed (400,
 * nothing stored), rather than a number the database cannot hold or a provider retrying a 500 for days.
 */
export function amountCents(provider: string, value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  const n = typeof value === "string" && /^\d{1,20}$/.test(value) ? Number(value) : value;
  if (!isAmountCents(n)) throw new MalformedEventError(`The ${provider} event's ${field} must be ${AMOUNT_CENTS_RULE}`);
  return n;
}

/** Share of a payment refunded, from the amounts when both are stated; 1 (all of it) when they are not. */
export function refundedShare(total: number | null, refunded: number | null): number {
  return total && refunded !== null && refunded > 0 ? Math.min(1, refunded / total) : 1;
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
