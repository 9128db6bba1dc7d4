// The shapes billing's files share: what a provider's event means here (read by provider-events.ts and
// the per-provider readers) and what applying one did (apply-payment-event.ts and the files it calls).
// Types only, in a file of their own, so the readers and the appliers do not import each other in a loop.
import type { WebhookProvider } from "./signatures.ts";

export type PaymentEventSource = WebhookProvider | "sandbox";

/** `reference` is another name of the payment whose order carries `paymentId` (orders.provider_payment_id). */
export interface PaymentLink {
  reference: string;
  paymentId: string;
}

export interface EventBase {
  provider: PaymentEventSource;
  /** Unique per provider: a repeat of it changes nothing. */
  eventId: string;
  type: string;
  links?: PaymentLink[];
}

export interface CompletedPayment extends EventBase {
  action: "completed";
  orderId: string | null;
  userId: string | null;
  packId: string | null;
  planId: string | null;
  interval: string | null;
  /** The provider's id of the payment (payment intent, invoice, transaction, order): refunds name it. */
  paymentId: string | null;
  sessionId: string | null;
  amountCents: number | null;
  currency: string | null;
  /** Whose payment this may be, should nothing else match (Stripe's client_reference_id and customer e-mail). */
  customerReference?: string | null;
  customerEmail?: string | null;
}

export interface ReversedPayment extends EventBase {
  action: "reversed";
  reason: "refund" | "chargeback";
  orderId: string | null;
  paymentId: string | null;
  /** Other ids the event gives the same payment (a charge's id and invoice): any of them may be the order's. */
  alsoKnownAs?: string[];
  /** Share of the payment reversed (0–1]; 1 when the provider does not say. */
  share: number;
}

export interface IgnoredEvent extends EventBase {
  action: "ignored";
  note: string;
}

export type PaymentEvent = CompletedPayment | ReversedPayment | IgnoredEvent;

export interface EventEffect {
  /** unmatched: a confirmed payment that granted nothing (unmatched-payment.ts), for a person to look at. */
  outcome: "fulfilled" | "refunded" | "ignored" | "unmatched";
  note?: string;
  orderId?: string | null;
  userId?: string | null;
  /** Balance changes to announce once committed. */
  balance?: { userId: string; balance: number; delta: number; reason: string };
}
