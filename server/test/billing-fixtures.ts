// Shared by the billing tests: provider events in their documented shapes, signed deliveries as each
// provider sends them, and the check that an account's ledger always equals its balance.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { ledgerBalance } from "../src/modules/credits/ledger.ts";
import { signPayload, type WebhookProvider } from "../src/modules/billing/signatures.ts";
import type { TestApp } from "./support/harness.ts";

export const SECRETS = {
  STRIPE_WEBHOOK_SECRET: "whsec_test_stripe_secret",
  PADDLE_WEBHOOK_SECRET: "pdl_ntfset_test_secret",
  LEMONSQUEEZY_WEBHOOK_SECRET: "lemon-test-secret",
  META_APP_SECRET: "meta-app-secret",
  META_VERIFY_TOKEN: "meta-verify-token",
} as const;

export const SECRET_OF: Record<WebhookProvider, string> = {
  stripe: SECRETS.STRIPE_WEBHOOK_SECRET,
  paddle: SECRETS.PADDLE_WEBHOOK_SECRET,
  lemonsqueezy: SECRETS.LEMONSQUEEZY_WEBHOOK_SECRET,
  meta: SECRETS.META_APP_SECRET,
};

export const SIGNATURE_HEADER: Record<WebhookProvider, string> = {
  stripe: "stripe-signature",
  paddle: "paddle-signature",
  lemonsqueezy: "x-signature",
  meta: "x-hub-signature-256",
};

export interface Delivery {
  status: number;
  body: { success: boolean; data?: { received: true; duplicate: boolean; outcome: string }; error?: string };
}

/** POSTs `body` byte for byte, with `signature` (or none) in the provider's header. */
export async function deliver(app: TestApp, provider: WebhookProvider, body: string, signature?: string | null): Promise<Delivery> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature) headers[SIGNATURE_HEADER[provider]] = signature;
  const response = await fetch(`${app.url}/api/webhook/${provider}`, { method: "POST", headers, body });
  return { status: response.status, body: (await response.json()) as Delivery["body"] };
}

/** Signed with the provider's secret, at `timestamp` (Unix seconds) where the scheme has one. */
export function signed(app: TestApp, provider: WebhookProvider, body: string, timestamp?: number): Promise<Delivery> {
  return deliver(app, provider, body, signPayload(provider, SECRET_OF[provider], body, timestamp));
}

export interface Purchase {
  userId: string;
  packId?: string;
  planId?: string;
  interval?: string;
  orderId?: string;
}

const metadataOf = (p: Purchase) => ({
  userId: p.userId,
  ...(p.packId ? { packId: p.packId } : {}),
  ...(p.planId ? { planId: p.planId, interval: p.interval ?? "monthly" } : {}),
  ...(p.orderId ? { orderId: p.orderId } : {}),
});

/** A completed payment as each provider documents it, with `p` in its metadata. */
export function completedEvent(
  provider: Exclude<WebhookProvider, "meta">,
  p: Purchase,
  ids: { eventId?: string; paymentId?: string } = {},
) {
  const eventId = ids.eventId ?? `evt_${randomUUID()}`;
  const paymentId = ids.paymentId ?? `pay_${randomUUID()}`;
  switch (provider) {
    case "stripe":
      return {
        id: eventId,
        object: "event",
        type: "checkout.session.completed",
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: `cs_test_${randomUUID()}`,
            object: "checkout.session",
            payment_status: "paid",
            payment_intent: paymentId,
            amount_total: 2299,
            currency: "usd",
            metadata: metadataOf(p),
          },
        },
      };
    case "paddle":
      return {
        event_id: eventId,
        event_type: "transaction.completed",
        occurred_at: new Date().toISOString(),
        data: {
          id: paymentId,
          status: "completed",
          currency_code: "USD",
          custom_data: metadataOf(p),
          details: { totals: { grand_total: "2299" } },
        },
      };
    case "lemonsqueezy":
      return {
        meta: { event_name: "order_created", webhook_id: eventId, custom_data: metadataOf(p) },
        data: { type: "orders", id: paymentId, attributes: { status: "paid", total: 2299, currency: "USD" } },
      };
  }
}

/** A full refund of the payment `paymentId` as each provider documents it. */
export function refundEvent(
  provider: Exclude<WebhookProvider, "meta">,
  paymentId: string,
  options: { chargeback?: boolean; refundedShare?: number } = {},
) {
  const eventId = `evt_${randomUUID()}`;
  switch (provider) {
    case "stripe":
      return options.chargeback
        ? {
            id: eventId,
            type: "charge.dispute.created",
            data: { object: { id: `dp_${randomUUID()}`, object: "dispute", payment_intent: paymentId } },
          }
        : {
            id: eventId,
            type: "charge.refunded",
            data: {
              object: {
                id: `ch_${randomUUID()}`,
                object: "charge",
                payment_intent: paymentId,
                amount: 2299,
                amount_refunded: Math.round(2299 * (options.refundedShare ?? 1)),
              },
            },
          };
    case "paddle":
      return {
        event_id: eventId,
        event_type: "adjustment.created",
        data: {
          id: `adj_${randomUUID()}`,
          action: options.chargeback ? "chargeback" : "refund",
          status: "approved",
          transaction_id: paymentId,
        },
      };
    case "lemonsqueezy":
      return {
        meta: { event_name: "order_refunded", webhook_id: eventId },
        data: { type: "orders", id: paymentId, attributes: { status: "refunded" } },
      };
  }
}

export async function balanceOf(app: TestApp, userId: string): Promise<number> {
  const user = await app.services.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { creditsBalance: true } });
  return user.creditsBalance;
}

/** The ledger always equals the balance: the cached column and the sum of the account's ledger rows. */
export async function expectLedgerMatches(app: TestApp, userId: string): Promise<number> {
  const balance = await balanceOf(app, userId);
  expect(await ledgerBalance(app.services.prisma, userId)).toBe(balance);
  return balance;
}
