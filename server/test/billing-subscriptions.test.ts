// Subscriptions at Stripe and Lemon Squeezy: each renewal grants the plan's allowance once however it is
// delivered (repeats, the twin event, fifty at once), as its own order; a refund or dispute of a renewal's
// charge (named by payment intent or charge, before and after Stripe's basil API) takes that renewal's
// credits back, never below zero, flagging the account when they were spent; a full refund of the payment
// for the current period ends the plan; the ledger equals the balance throughout; forgeries change nothing.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCredits } from "../src/modules/credits/ledger.ts";
import { signPayload, type WebhookProvider } from "../src/modules/billing/signatures.ts";
import { balanceOf, deliver, expectLedgerMatches, SECRETS, signed } from "./billing-fixtures.ts";
import {
  lsOrderCreated,
  lsSubscriptionCreated,
  lsSubscriptionInvoice,
  type PlanMetadata,
  stripeChargeRefunded,
  stripeDispute,
  stripeInvoicePaid,
  stripeInvoicePaymentPaid,
  stripeSubscriptionCheckout,
} from "./billing-subscription-fixtures.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...SECRETS });
});
afterAll(() => app?.close());

const STARTER = 30; // subscription_starter's monthly allowance
const send = async (provider: WebhookProvider, event: unknown) => (await signed(app, provider, JSON.stringify(event))).body.data;
const plan = async (user: Account) => (await user.client.get("/user/profile")).body.data.current_plan_id;
const orders = (userId: string) => app.services.prisma.order.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
const spendAll = (userId: string, amount: number) =>
  app.services.prisma.$transaction((tx) => changeCredits(tx, { userId, delta: -amount, reason: "workflow_charge", reference: "spent" }));

/** A Stripe subscriber (basil shapes): subscription `sub`, first invoice `in_1` paid by `pi_1`. */
async function stripeSubscriber(prefix: string) {
  const user = await signUp(app, prefix);
  const tag = randomUUID().slice(0, 8);
  const m: PlanMetadata = { userId: user.id, planId: "subscription_starter" };
  const sub = `sub_${tag}`;
  const ids = (n: number) => ({ invoice: `in_${n}_${tag}`, pi: `pi_${n}_${tag}`, charge: `ch_${n}_${tag}` });
  expect((await send("stripe", stripeSubscriptionCheckout(m, { subscription: sub, invoice: ids(1).invoice })))?.outcome).toBe("fulfilled");
  expect((await send("stripe", stripeInvoicePaymentPaid(ids(1).invoice, ids(1).pi)))?.outcome).toBe("ignored");
  /** The renewal `n`: its payment stated first (events arrive in any order), then the invoice paid. */
  const renew = async (n: number) => {
    await send("stripe", stripeInvoicePaymentPaid(ids(n).invoice, ids(n).pi));
    return send("stripe", stripeInvoicePaid(m, ids(n).invoice, sub));
  };
  return { user, m, sub, ids, renew };
}

describe("Stripe subscription renewals", () => {
  it("a renewal grants the allowance once, however often and however many at once it is delivered, as its own order", async () => {
    const { user, m, sub, ids } = await stripeSubscriber("stripe-renew-once");
    expect(await balanceOf(app, user.id)).toBe(10 + STARTER);
    const paid = stripeInvoicePaid(m, ids(2).invoice, sub);
    const succeeded = stripeInvoicePaid(m, ids(2).invoice, sub, { type: "invoice.payment_succeeded" });
    const answers = await Promise.all([
      ...Array.from({ length: 25 }, () => signed(app, "stripe", JSON.stringify(paid))),
      ...Array.from({ length: 25 }, () => signed(app, "stripe", JSON.stringify(succeeded))),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.data?.duplicate === false && a.body.data.outcome === "fulfilled")).toHaveLength(1);
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 2 * STARTER);
    const rows = await orders(user.id);
    expect(rows.map((o) => [o.kind, o.planId, o.status, o.credits, o.providerPaymentId])).toEqual([
      ["plan", "subscription_starter", "paid", STARTER, ids(1).invoice],
      ["plan", "subscription_starter", "paid", STARTER, ids(2).invoice],
    ]);
    expect(await app.services.prisma.invoice.count({ where: { userId: user.id } })).toBe(2);
  });

  it("refunding an older renewal's charge (named by its payment intent) takes back its credits and keeps the plan", async () => {
    const { user, ids, renew } = await stripeSubscriber("stripe-refund-old");
    await renew(2);
    await renew(3);
    expect(await balanceOf(app, user.id)).toBe(10 + 3 * STARTER);
    const refund = await send("stripe", stripeChargeRefunded({ id: ids(2).charge, paymentIntent: ids(2).pi }));
    expect(refund).toMatchObject({ duplicate: false, outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 2 * STARTER);
    expect((await orders(user.id)).map((o) => o.status)).toEqual(["paid", "refunded", "paid"]);
    expect(await plan(user)).toBe("subscription_starter");
  });

  it("a dispute of the current period's charge takes its credits back and ends the plan; funds_withdrawn afterwards changes nothing", async () => {
    const { user, ids, renew } = await stripeSubscriber("stripe-dispute");
    await renew(2);
    expect(await send("stripe", stripeDispute("charge.dispute.created", ids(2).charge, ids(2).pi))).toMatchObject({ outcome: "refunded" });
    expect(await plan(user)).toBe("free");
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + STARTER);
    expect(await send("stripe", stripeDispute("charge.dispute.funds_withdrawn", ids(2).charge, ids(2).pi))).toMatchObject({
      outcome: "ignored",
    });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + STARTER);
  });

  it("a renewal's credits already spent: taken back down to zero, and the account flagged with the renewal's order", async () => {
    const { user, ids, renew } = await stripeSubscriber("stripe-spent");
    await renew(2);
    await spendAll(user.id, 10 + 2 * STARTER - 5);
    await send("stripe", stripeChargeRefunded({ id: ids(2).charge, paymentIntent: ids(2).pi }));
    expect(await expectLedgerMatches(app, user.id)).toBe(0);
    const renewal = (await orders(user.id))[1]!;
    const flags = await app.services.prisma.accountFlag.findMany({ where: { userId: user.id } });
    expect(flags).toEqual([expect.objectContaining({ kind: "refund_after_spend", orderId: renewal.id, resolvedAt: null })]);
    expect(flags[0]!.message).toMatch(/25 credits were already spent/);
    expect(await plan(user)).toBe("free");
  });

  it("a partial refund of a renewal takes back that share and keeps the plan", async () => {
    const { user, ids, renew } = await stripeSubscriber("stripe-partial");
    await renew(2);
    await send("stripe", stripeChargeRefunded({ id: ids(2).charge, paymentIntent: ids(2).pi, refunded: 1450 }));
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 2 * STARTER - 15);
    expect(await plan(user)).toBe("subscription_starter");
  });

  it("before basil: the invoice names its payment intent and the charge its invoice; a refund of the first period ends the plan", async () => {
    const user = await signUp(app, "stripe-legacy");
    const tag = randomUUID().slice(0, 8);
    const m: PlanMetadata = { userId: user.id, planId: "subscription_starter" };
    const order = await app.services.prisma.order.create({
      data: {
        userId: user.id,
        provider: "stripe",
        kind: "plan",
        planId: "subscription_starter",
        interval: "monthly",
        credits: STARTER,
        amountCents: 2900,
        currency: "USD",
      },
    });
    const withOrder = { ...m, orderId: order.id };
    await send("stripe", stripeSubscriptionCheckout(withOrder, { subscription: `sub_${tag}`, invoice: `in_1_${tag}` }));
    const legacy = (n: number) => ({ paymentIntent: `pi_${n}_${tag}`, charge: `ch_${n}_${tag}` });
    const first = stripeInvoicePaid(withOrder, `in_1_${tag}`, `sub_${tag}`, { reason: "subscription_create", legacy: legacy(1) });
    expect(await send("stripe", first)).toMatchObject({ outcome: "ignored" });
    const second = stripeInvoicePaid(withOrder, `in_2_${tag}`, `sub_${tag}`, { legacy: legacy(2) });
    expect(await send("stripe", second)).toMatchObject({ outcome: "fulfilled" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 2 * STARTER);
    // The renewal refunded by its charge, which names its invoice: that renewal, not the first order.
    await send("stripe", stripeChargeRefunded({ id: `ch_2_${tag}`, paymentIntent: `pi_2_${tag}`, invoice: `in_2_${tag}` }));
    expect((await orders(user.id)).map((o) => [o.id === order.id, o.status])).toEqual([
      [true, "paid"],
      [false, "refunded"],
    ]);
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + STARTER);
    // The first period, by the payment intent its invoice named: the plan ends.
    await send("stripe", stripeChargeRefunded({ id: `ch_1_${tag}`, paymentIntent: `pi_1_${tag}` }));
    expect(await expectLedgerMatches(app, user.id)).toBe(10);
    expect(await plan(user)).toBe("free");
  });

  it("a forged renewal answers 400 and grants nothing", async () => {
    const { user, m, sub, ids } = await stripeSubscriber("stripe-forged");
    const body = JSON.stringify(stripeInvoicePaid(m, ids(2).invoice, sub));
    const forged = await deliver(app, "stripe", body, signPayload("stripe", "whsec_not_the_secret", body));
    expect(forged.status).toBe(400);
    const tampered = await deliver(
      app,
      "stripe",
      body.replace("subscription_cycle", "subscription_cycle "),
      signPayload("stripe", SECRETS.STRIPE_WEBHOOK_SECRET, body),
    );
    expect(tampered.status).toBe(400);
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + STARTER);
    expect(await orders(user.id)).toHaveLength(1);
  });
});

/** A Lemon Squeezy subscriber: order `o`, subscription `s`, its initial invoice paid. */
async function lemonSubscriber(prefix: string) {
  const user = await signUp(app, prefix);
  const base = Math.floor(Math.random() * 1e8);
  const m: PlanMetadata = { userId: user.id, planId: "subscription_starter" };
  const [orderId, subscription] = [String(base), String(base + 1)];
  expect((await send("lemonsqueezy", lsOrderCreated(m, orderId)))?.outcome).toBe("fulfilled");
  await send("lemonsqueezy", lsSubscriptionCreated(m, subscription, orderId));
  const invoice = (n: number) => String(base + 10 + n);
  expect((await send("lemonsqueezy", lsSubscriptionInvoice(m, invoice(1), subscription, { reason: "initial" })))?.outcome).toBe("ignored");
  return { user, m, subscription, invoice };
}

describe("Lemon Squeezy subscription renewals", () => {
  it("subscription_payment_success with billing_reason renewal grants once per invoice, whichever event and id carry it", async () => {
    const { user, m, subscription, invoice } = await lemonSubscriber("ls-renew");
    expect(await balanceOf(app, user.id)).toBe(10 + STARTER);
    const renewal = lsSubscriptionInvoice(m, invoice(2), subscription, { webhookId: randomUUID() });
    expect(await send("lemonsqueezy", renewal)).toMatchObject({ duplicate: false, outcome: "fulfilled" });
    expect(await send("lemonsqueezy", renewal)).toMatchObject({ duplicate: true });
    const resent = lsSubscriptionInvoice(m, invoice(2), subscription);
    expect(await send("lemonsqueezy", resent)).toMatchObject({ duplicate: false, outcome: "ignored" });
    const recovered = lsSubscriptionInvoice(m, invoice(2), subscription, { event: "subscription_payment_recovered" });
    expect(await send("lemonsqueezy", recovered)).toMatchObject({ outcome: "ignored" });
    expect(await send("lemonsqueezy", lsSubscriptionInvoice(m, invoice(3), subscription))).toMatchObject({ outcome: "fulfilled" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 3 * STARTER);
    expect((await orders(user.id)).map((o) => o.providerPaymentId)).toEqual([
      expect.stringMatching(/^\d+$/),
      `subscription-invoice:${invoice(2)}`,
      `subscription-invoice:${invoice(3)}`,
    ]);
  });

  it("subscription_payment_refunded of a renewal takes its credits back; of the initial invoice, the first order's, ending the plan", async () => {
    const { user, m, subscription, invoice } = await lemonSubscriber("ls-refund");
    await send("lemonsqueezy", lsSubscriptionInvoice(m, invoice(2), subscription));
    const refund = (n: number, reason: "initial" | "renewal", refundedAmount?: number) =>
      lsSubscriptionInvoice(m, invoice(n), subscription, { event: "subscription_payment_refunded", reason, refundedAmount });
    expect(await send("lemonsqueezy", refund(2, "renewal", 1450))).toMatchObject({ outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + 2 * STARTER - 15);
    expect(await plan(user)).toBe("subscription_starter");
    expect(await send("lemonsqueezy", refund(2, "renewal"))).toMatchObject({ outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10 + STARTER);
    expect(await plan(user)).toBe("free");
    expect(await send("lemonsqueezy", refund(1, "initial"))).toMatchObject({ outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10);
    expect((await orders(user.id)).map((o) => o.status)).toEqual(["refunded", "refunded"]);
  });

  it("a refunded renewal whose credits were spent flags the account; a forged renewal answers 400", async () => {
    const { user, m, subscription, invoice } = await lemonSubscriber("ls-spent");
    await send("lemonsqueezy", lsSubscriptionInvoice(m, invoice(2), subscription));
    await spendAll(user.id, 10 + 2 * STARTER);
    await send("lemonsqueezy", lsSubscriptionInvoice(m, invoice(2), subscription, { event: "subscription_payment_refunded" }));
    expect(await expectLedgerMatches(app, user.id)).toBe(0);
    const flags = await app.services.prisma.accountFlag.findMany({ where: { userId: user.id } });
    expect(flags.map((f) => f.kind)).toEqual(["refund_after_spend"]);
    const body = JSON.stringify(lsSubscriptionInvoice(m, invoice(3), subscription));
    expect((await deliver(app, "lemonsqueezy", body, signPayload("lemonsqueezy", "guess", body))).status).toBe(400);
    expect((await deliver(app, "lemonsqueezy", body, null)).status).toBe(400);
    expect(await expectLedgerMatches(app, user.id)).toBe(0);
    expect(await orders(user.id)).toHaveLength(2);
  });

  it("a renewal whose custom_data names no account is recorded as unmatched and grants nothing", async () => {
    const event = lsSubscriptionInvoice({ userId: "", planId: "subscription_starter" }, "777001", "777000");
    expect(await send("lemonsqueezy", event)).toMatchObject({ outcome: "unmatched" });
  });
});
