// Stripe events built and signed by the official `stripe` package (generateTestHeaderString), as a Payment
// Link or a checkout made elsewhere sends them: `client_reference_id` is the customer's own id (Stripe's
// guide recommends it), and the metadata names userId and packId (CONTRACT). Such a payment credits the
// pack exactly once; a paid event that matches nothing is flagged for an admin, never dropped quietly.
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, deliver, expectLedgerMatches, SECRETS } from "./billing-fixtures.ts";
import { adminClient, ADMIN_ENV, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { createLogger } from "../src/logging/logger.ts";

const stripe = new Stripe("sk_test_only_for_signing");

function checkoutCompleted(session: Record<string, unknown>) {
  return {
    id: `evt_${randomUUID()}`,
    object: "event",
    api_version: "2025-03-31.basil",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_test_${randomUUID()}`,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        payment_intent: `pi_${randomUUID()}`,
        amount_total: 1299,
        currency: "usd",
        ...session,
      },
    },
  };
}

/** Delivered as Stripe delivers it: the body byte for byte, its header made by the official package. */
function sendSigned(app: TestApp, event: object) {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRETS.STRIPE_WEBHOOK_SECRET });
  return deliver(app, "stripe", payload, header);
}

const logLines: string[] = [];
const warnings = () => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level === "warn");

let app: TestApp;
beforeAll(async () => {
  const logger = createLogger({ level: "warn", destination: { write: (line: string) => void logLines.push(line) } });
  app = await startTestApp({ STRIPE_WEBHOOK_SECRET: SECRETS.STRIPE_WEBHOOK_SECRET, ...ADMIN_ENV }, { logger });
});
afterAll(async () => {
  await app?.close();
});

describe("checkout.session.completed whose client_reference_id is the customer's id", () => {
  it("credits the pack named in the metadata exactly once, however often Stripe delivers it", async () => {
    const user = await signUp(app, "stripe-link");
    const event = checkoutCompleted({ client_reference_id: user.id, metadata: { userId: user.id, packId: "pack_10" } });
    const first = await sendSigned(app, event);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ received: true, duplicate: false, outcome: "fulfilled" });
    const again = await sendSigned(app, event);
    expect(again.body.data).toMatchObject({ duplicate: true, outcome: "fulfilled" });
    expect(await expectLedgerMatches(app, user.id)).toBe(20);
    const orders = await app.services.prisma.order.findMany({ where: { userId: user.id } });
    expect(orders).toMatchObject([{ status: "paid", packId: "pack_10", provider: "stripe" }]);
  });

  it("the same payment under a second event id (async_payment_succeeded) grants nothing more", async () => {
    const user = await signUp(app, "stripe-link-twice");
    const session = { client_reference_id: user.id, metadata: { userId: user.id, packId: "pack_10" } };
    const event = checkoutCompleted(session);
    await sendSigned(app, event);
    const second = { ...event, id: `evt_${randomUUID()}`, type: "checkout.session.async_payment_succeeded" };
    const answer = await sendSigned(app, second);
    expect(answer.status).toBe(200);
    expect(await balanceOf(app, user.id)).toBe(20);
  });
});

describe("a paid event that matches nothing", () => {
  it("is flagged on the customer's account for an admin, and a warning is logged", async () => {
    const user = await signUp(app, "stripe-unmatched");
    // A Payment Link with no metadata at all: only the customer's id in client_reference_id.
    const event = checkoutCompleted({ client_reference_id: user.id });
    const answer = await sendSigned(app, event);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ duplicate: false, outcome: "unmatched" });
    expect(await balanceOf(app, user.id)).toBe(10);
    expect(warnings()).toContainEqual(expect.objectContaining({ provider: "stripe", eventId: event.id, outcome: "unmatched" }));

    const admin = await adminClient(app);
    const flags = await admin.get(`/admin/flags?userId=${user.id}`);
    expect(flags.status).toBe(200);
    expect(flags.body.data.flags).toHaveLength(1);
    expect(flags.body.data.flags[0]).toMatchObject({ kind: "unmatched_payment", email: user.email });
    expect(flags.body.data.flags[0].message).toMatch(
      /^A stripe payment of 12\.99 USD .* was confirmed but granted nothing: order .* does not exist/,
    );
  });

  it("with no account to find, is recorded as unmatched and flagged on no account, for an admin to see and resolve", async () => {
    const event = checkoutCompleted({
      client_reference_id: "nobody-here",
      customer_details: { email: "stranger@example.org" },
      metadata: { packId: "pack_10" },
    });
    const answer = await sendSigned(app, event);
    // 200: the provider stops retrying (a retry would match no better); the payment is kept for a person.
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ outcome: "unmatched" });
    const record = await app.services.prisma.paymentEvent.findFirstOrThrow({ where: { eventId: event.id } });
    expect(record.outcome).toBe("unmatched");
    expect(record.note).toMatch(/no account found, flag .* raised for an admin/);
    expect(warnings()).toContainEqual(expect.objectContaining({ provider: "stripe", eventId: event.id, outcome: "unmatched" }));

    const admin = await adminClient(app);
    const open = await admin.get("/admin/flags?status=open&pageSize=100");
    expect(open.status).toBe(200);
    const flag = open.body.data.flags.find((f: { message: string }) => f.message.includes(event.id));
    expect(flag).toMatchObject({ kind: "unmatched_payment", userId: null, email: null, orderId: null, resolvedAt: null });
    expect(flag.message).toMatch(/^A stripe payment of 12\.99 USD \(event evt_.*\) was confirmed but granted nothing/);
    expect(flag.message).toMatch(/e-mail stranger@example\.org, reference nobody-here, which matches no account/);
    expect(open.body.data.openTotal).toBeGreaterThanOrEqual(1);

    const resolved = await admin.patch("/admin/flags", { flagId: flag.id, note: "Found the customer at Stripe and refunded" });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.data).toMatchObject({ id: flag.id, userId: null, resolutionNote: "Found the customer at Stripe and refunded" });
    const audit = await app.services.prisma.auditLog.findFirstOrThrow({ where: { action: "admin.flag_resolved", targetId: flag.id } });
    expect(audit.targetType).toBe("account_flag");

    // Stripe delivering it again changes nothing and raises no second flag.
    expect((await sendSigned(app, event)).body.data).toMatchObject({ duplicate: true, outcome: "unmatched" });
    const all = await admin.get("/admin/flags?status=all&pageSize=100");
    expect(all.body.data.flags.filter((f: { message: string }) => f.message.includes(event.id))).toHaveLength(1);
  });
});
