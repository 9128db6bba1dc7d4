// Inbound payment webhooks, for every provider: forged, missing and stale signatures change nothing (400),
// an unconfigured secret answers 503, a body that is not an event is a 400 (never a 500), a repeated
// event answers 200 and changes nothing, fifty deliveries of one event at once grant once, and refunds
// and chargebacks take the credits back (never below zero; the account is flagged when they were spent).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, completedEvent, deliver, expectLedgerMatches, refundEvent, SECRET_OF, SECRETS, signed } from "./billing-fixtures.ts";
import { signPayload } from "../src/modules/billing/signatures.ts";
import { signUp } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let bare: TestApp;
beforeAll(async () => {
  [app, bare] = await Promise.all([startTestApp({ ...SECRETS }), startTestApp()]);
});
afterAll(async () => {
  await Promise.all([app?.close(), bare?.close()]);
});

const PAYMENT_PROVIDERS = ["stripe", "paddle", "lemonsqueezy"] as const;
const now = () => Math.floor(Date.now() / 1000);

async function eventRows(provider: string) {
  return app.services.prisma.paymentEvent.count({ where: { provider } });
}

describe.each(PAYMENT_PROVIDERS)("POST /api/webhook/%s", (provider) => {
  it("a completed payment naming userId and packId adds the pack's credits, once however often it is delivered", async () => {
    const user = await signUp(app, `${provider}-pack`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_25" }));
    const first = await signed(app, provider, body);
    expect(first).toEqual({ status: 200, body: { success: true, data: { received: true, duplicate: false, outcome: "fulfilled" } } });
    expect(await expectLedgerMatches(app, user.id)).toBe(35);
    const again = await signed(app, provider, body);
    expect(again).toEqual({ status: 200, body: { success: true, data: { received: true, duplicate: true, outcome: "fulfilled" } } });
    expect(await expectLedgerMatches(app, user.id)).toBe(35);
    const order = await app.services.prisma.order.findFirstOrThrow({ where: { userId: user.id } });
    expect(order).toMatchObject({
      provider,
      kind: "pack",
      packId: "pack_25",
      status: "paid",
      amountCents: 2299n,
      currency: "USD",
      credits: 25,
    });
  });

  it("a completed payment naming planId sets the plan and grants its monthly allowance", async () => {
    const user = await signUp(app, `${provider}-plan`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, planId: "subscription_pro", interval: "monthly" }));
    expect((await signed(app, provider, body)).status).toBe(200);
    const profile = await user.client.get("/user/profile");
    expect(profile.body.data).toMatchObject({ current_plan_id: "subscription_pro", credits_balance: 110 });
    await expectLedgerMatches(app, user.id);
  });

  it("a forged signature answers 400 and changes nothing", async () => {
    const user = await signUp(app, `${provider}-forged`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_100" }));
    const rows = await eventRows(provider);
    const forged = await deliver(app, provider, body, signPayload(provider, "not-the-secret", body));
    expect(forged.status).toBe(400);
    expect(forged.body.success).toBe(false);
    expect(forged.body.error).toMatch(/does not match/);
    // The right signature over different bytes (one space added) is a forgery too.
    const tampered = await deliver(app, provider, `${body} `, signPayload(provider, SECRET_OF[provider], body));
    expect(tampered.status).toBe(400);
    expect(await balanceOf(app, user.id)).toBe(10);
    expect(await eventRows(provider)).toBe(rows);
  });

  it("a missing signature answers 400 naming the header and changes nothing", async () => {
    const user = await signUp(app, `${provider}-unsigned`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_10" }));
    const unsigned = await deliver(app, provider, body, null);
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error).toMatch(/^Missing (Stripe-Signature|Paddle-Signature|X-Signature) header$/);
    expect(await balanceOf(app, user.id)).toBe(10);
  });

  it("a body that is not an event answers 400, never 500, even when correctly signed", async () => {
    for (const body of ["not json at all", "[1,2,3]", "{}", '"text"', "\u0000\u00ff"]) {
      const answer = await signed(app, provider, body);
      expect(answer.status, body).toBe(400);
      expect(answer.body.error).toMatch(new RegExp(`The ${provider} event`));
    }
  });

  it("an unconfigured secret answers 503 and changes nothing", async () => {
    const user = await signUp(bare, `${provider}-off`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_10" }));
    const answer = await deliver(bare, provider, body, signPayload(provider, SECRET_OF[provider], body));
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/not configured/);
    expect(await balanceOf(bare, user.id)).toBe(10);
  });

  it("a full refund takes the pack's credits back", async () => {
    const user = await signUp(app, `${provider}-refund`);
    const paymentId = `pay_refund_${provider}_${user.id}`;
    await signed(app, provider, JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_50" }, { paymentId })));
    expect(await balanceOf(app, user.id)).toBe(60);
    const refund = await signed(app, provider, JSON.stringify(refundEvent(provider, paymentId)));
    expect(refund.body.data).toEqual({ received: true, duplicate: false, outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10);
    const order = await app.services.prisma.order.findFirstOrThrow({ where: { userId: user.id } });
    expect(order.status).toBe("refunded");
    expect(await app.services.prisma.accountFlag.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("clock skew (signed timestamps, 300 s tolerance)", () => {
  it.each(["stripe", "paddle"] as const)(
    "%s: a signature 301 s old or ahead answers 400 and changes nothing; 290 s is accepted",
    async (provider) => {
      const user = await signUp(app, `${provider}-skew`);
      const stale = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_10" }));
      for (const offset of [-301, 301, -3600]) {
        const answer = await signed(app, provider, stale, now() + offset);
        expect(answer.status, String(offset)).toBe(400);
        expect(answer.body.error).toMatch(/more than 300 s/);
      }
      expect(await balanceOf(app, user.id)).toBe(10);
      expect((await signed(app, provider, stale, now() - 290)).status).toBe(200);
      expect(await balanceOf(app, user.id)).toBe(20);
    },
  );
});

describe("fifty deliveries of one event at once", () => {
  it.each(PAYMENT_PROVIDERS)("%s: all answer 200, exactly one grants, and the ledger equals the balance", async (provider) => {
    const user = await signUp(app, `${provider}-burst`);
    const body = JSON.stringify(completedEvent(provider, { userId: user.id, packId: "pack_100" }));
    const answers = await Promise.all(Array.from({ length: 50 }, () => signed(app, provider, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.data?.duplicate === false)).toHaveLength(1);
    expect(await expectLedgerMatches(app, user.id)).toBe(110);
    expect(await app.services.prisma.order.count({ where: { userId: user.id } })).toBe(1);
    expect(await app.services.prisma.invoice.count({ where: { userId: user.id } })).toBe(1);
  });
});

describe("refunds and chargebacks", () => {
  it("credits already spent are taken back only down to zero, and the account is flagged for the admin", async () => {
    const user = await signUp(app, "spent-refund");
    const paymentId = `pi_spent_${user.id}`;
    await signed(app, "stripe", JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_25" }, { paymentId })));
    // The account spends 30 of its 35 credits (an admin adjustment stands in for workflow charges).
    await app.services.prisma.$transaction(async (tx) => {
      const { changeCredits } = await import("../src/modules/credits/ledger.ts");
      await changeCredits(tx, { userId: user.id, delta: -30, reason: "workflow_charge", reference: "spent-elsewhere" });
    });
    const chargeback = await signed(app, "stripe", JSON.stringify(refundEvent("stripe", paymentId, { chargeback: true })));
    expect(chargeback.body.data?.outcome).toBe("refunded");
    expect(await expectLedgerMatches(app, user.id)).toBe(0);
    const flags = await app.services.prisma.accountFlag.findMany({ where: { userId: user.id } });
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: "chargeback_after_spend" });
    expect(flags[0]!.message).toMatch(/20 credits were already spent/);
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: "billing.reversal_after_spend", targetId: user.id } });
    expect(audit?.metadata).toMatchObject({ owed: 25, taken: 5, unrecovered: 20 });
    // A refund of the same payment afterwards changes nothing more.
    const refund = await signed(app, "stripe", JSON.stringify(refundEvent("stripe", paymentId)));
    expect(refund.body.data?.outcome).toBe("ignored");
    expect(await expectLedgerMatches(app, user.id)).toBe(0);
  });

  it("a partial Stripe refund takes back that share of the credits", async () => {
    const user = await signUp(app, "partial-refund");
    const paymentId = `pi_partial_${user.id}`;
    await signed(app, "stripe", JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_100" }, { paymentId })));
    await signed(app, "stripe", JSON.stringify(refundEvent("stripe", paymentId, { refundedShare: 0.5 })));
    expect(await expectLedgerMatches(app, user.id)).toBe(60);
  });

  it("a refunded plan returns the account to the free plan and takes its allowance back", async () => {
    const user = await signUp(app, "plan-refund");
    const paymentId = `txn_plan_${user.id}`;
    await signed(
      app,
      "paddle",
      JSON.stringify(completedEvent("paddle", { userId: user.id, planId: "subscription_agency" }, { paymentId })),
    );
    expect((await user.client.get("/user/api-key")).body.data).toMatchObject({ eligible: true, currentPlan: "subscription_agency" });
    await signed(app, "paddle", JSON.stringify(refundEvent("paddle", paymentId)));
    const profile = await user.client.get("/user/profile");
    expect(profile.body.data).toMatchObject({ current_plan_id: "free", credits_balance: 10 });
    await expectLedgerMatches(app, user.id);
  });

  it("a refund for a payment nobody made is recorded and ignored", async () => {
    const answer = await signed(app, "lemonsqueezy", JSON.stringify(refundEvent("lemonsqueezy", "999999")));
    expect(answer).toMatchObject({ status: 200, body: { data: { outcome: "ignored", duplicate: false } } });
  });
});

describe("plan renewals", () => {
  it("Stripe: each later period's invoice.paid grants the allowance again and is invoiced; the first period's invoice is not counted twice", async () => {
    const user = await signUp(app, "stripe-renewal");
    const metadata = { userId: user.id, planId: "subscription_starter", interval: "monthly" };
    const started = await signed(
      app,
      "stripe",
      JSON.stringify({
        id: `evt_sub_${user.id}`,
        type: "checkout.session.completed",
        data: {
          object: {
            id: `cs_${user.id}`,
            mode: "subscription",
            payment_status: "paid",
            payment_intent: null,
            subscription: `sub_${user.id}`,
            amount_total: 2900,
            currency: "usd",
            metadata,
          },
        },
      }),
    );
    expect(started.body.data?.outcome).toBe("fulfilled");
    expect(await balanceOf(app, user.id)).toBe(40);
    const invoice = (reason: string, n: number) =>
      JSON.stringify({
        id: `evt_inv_${reason}_${n}_${user.id}`,
        type: "invoice.paid",
        data: {
          object: {
            id: `in_${n}_${user.id}`,
            object: "invoice",
            billing_reason: reason,
            amount_paid: 2900,
            currency: "usd",
            parent: { subscription_details: { metadata } },
          },
        },
      });
    expect((await signed(app, "stripe", invoice("subscription_create", 1))).body.data?.outcome).toBe("ignored");
    expect((await signed(app, "stripe", invoice("subscription_cycle", 2))).body.data?.outcome).toBe("fulfilled");
    expect((await signed(app, "stripe", invoice("subscription_cycle", 2))).body.data?.duplicate).toBe(true);
    expect(await expectLedgerMatches(app, user.id)).toBe(70);
    expect(await app.services.prisma.invoice.count({ where: { userId: user.id } })).toBe(2);
  });

  it("Paddle: a later transaction of the same subscription (same custom_data, new transaction id) is a renewal", async () => {
    const user = await signUp(app, "paddle-renewal");
    const orderId = (
      await app.services.prisma.order.create({
        data: {
          userId: user.id,
          provider: "paddle",
          kind: "plan",
          planId: "subscription_pro",
          interval: "monthly",
          credits: 100,
          amountCents: 7900,
          currency: "USD",
        },
      })
    ).id;
    const purchase = { userId: user.id, planId: "subscription_pro", orderId };
    await signed(app, "paddle", JSON.stringify(completedEvent("paddle", purchase, { paymentId: `txn_1_${user.id}` })));
    await signed(app, "paddle", JSON.stringify(completedEvent("paddle", purchase, { paymentId: `txn_2_${user.id}` })));
    // The same transactions under other event ids (resends) grant nothing more.
    await signed(app, "paddle", JSON.stringify(completedEvent("paddle", purchase, { paymentId: `txn_1_${user.id}` })));
    await signed(app, "paddle", JSON.stringify(completedEvent("paddle", purchase, { paymentId: `txn_2_${user.id}` })));
    expect(await expectLedgerMatches(app, user.id)).toBe(210);
    const orders = await app.services.prisma.order.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
    expect(orders.map((o) => [o.status, o.providerPaymentId])).toEqual([
      ["paid", `txn_1_${user.id}`],
      ["paid", `txn_2_${user.id}`],
    ]);
  });
});

describe("events that name nothing to buy", () => {
  it("a signed completed payment for an unknown account or pack answers 200, grants nothing and is flagged as unmatched", async () => {
    const user = await signUp(app, "unknown-pack");
    const unknownPack = await signed(app, "stripe", JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_7" })));
    expect(unknownPack.body.data?.outcome).toBe("unmatched");
    const flags = await app.services.prisma.accountFlag.findMany({ where: { userId: user.id } });
    expect(flags.map((f) => f.kind)).toEqual(["unmatched_payment"]);
    expect(flags[0]!.message).toMatch(/names no known packId or planId/);
    const unknownUser = await signed(
      app,
      "stripe",
      JSON.stringify(completedEvent("stripe", { userId: "no-such-user", packId: "pack_10" })),
    );
    expect(unknownUser.body.data?.outcome).toBe("unmatched");
    const otherType = await signed(app, "stripe", JSON.stringify({ id: "evt_other", type: "customer.created", data: { object: {} } }));
    expect(otherType.body.data?.outcome).toBe("ignored");
    expect(await expectLedgerMatches(app, user.id)).toBe(10);
  });

  it.each(["stripe", "paddle", "lemonsqueezy"] as const)(
    "%s: a paid event naming no account we know is flagged on no account for the admin",
    async (provider) => {
      const userId = `no-such-user-${provider}`;
      const answer = await signed(app, provider, JSON.stringify(completedEvent(provider, { userId, packId: "pack_10" })));
      expect([answer.status, answer.body.data?.outcome]).toEqual([200, "unmatched"]);
      const flags = await app.services.prisma.accountFlag.findMany({ where: { userId: null, message: { contains: userId } } });
      expect(flags.map((f) => f.kind)).toEqual(["unmatched_payment"]);
      expect(flags[0]!.message).toMatch(
        new RegExp(`^A ${provider} payment .* was confirmed but granted nothing: account ${userId} does not exist`),
      );
    },
  );

  it("a Lemon Squeezy refund with the same data.id as its order is not taken for a repeat of the order", async () => {
    const user = await signUp(app, "ls-same-id");
    await signed(
      app,
      "lemonsqueezy",
      JSON.stringify({
        meta: { event_name: "order_created", custom_data: { userId: user.id, packId: "pack_10" } },
        data: { id: 4242, attributes: { status: "paid", total: 999, currency: "USD" } },
      }),
    );
    expect(await balanceOf(app, user.id)).toBe(20);
    const refund = await signed(
      app,
      "lemonsqueezy",
      JSON.stringify({ meta: { event_name: "order_refunded" }, data: { id: 4242, attributes: {} } }),
    );
    expect(refund.body.data).toMatchObject({ duplicate: false, outcome: "refunded" });
    expect(await expectLedgerMatches(app, user.id)).toBe(10);
  });
});

describe("one invocation path", () => {
  it("a signed delivery passed over GraphQL (payload as base64) is verified and applied like the REST one", async () => {
    const user = await signUp(app, "gql-webhook");
    const body = JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_10" }));
    const mutation = "mutation($p: String!, $s: String) { providerWebhookStripe(payload: $p, signature: $s) { duplicate outcome } }";
    const payload = Buffer.from(body).toString("base64");
    const forged = await graphql(app.url, mutation, { p: payload, s: signPayload("stripe", "wrong", body) });
    expect(forged.body.errors?.[0]?.message).toMatch(/does not match/);
    const answer = await graphql(app.url, mutation, { p: payload, s: signPayload("stripe", SECRETS.STRIPE_WEBHOOK_SECRET, body) });
    expect(answer.body.data).toEqual({ providerWebhookStripe: { duplicate: false, outcome: "fulfilled" } });
    // The same event over REST afterwards is a repeat.
    expect((await signed(app, "stripe", body)).body.data?.duplicate).toBe(true);
    expect(await expectLedgerMatches(app, user.id)).toBe(20);
  });
});

describe("meta", () => {
  const event = (time: number) => JSON.stringify({ object: "page", entry: [{ id: "1234567890", time, changes: [] }] });

  it("GET answers the challenge as plain text when the verify token matches, else 403", async () => {
    const ok = await fetch(
      `${app.url}/api/webhook/meta?hub.mode=subscribe&hub.verify_token=${SECRETS.META_VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await fetch(`${app.url}/api/webhook/meta?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(wrong.status).toBe(403);
    const unset = await fetch(`${bare.url}/api/webhook/meta?hub.mode=subscribe&hub.verify_token=&hub.challenge=1`);
    expect(unset.status).toBe(403);
  });

  it("POST verifies X-Hub-Signature-256, records an event once, and refuses forgeries, bad bodies and a missing secret", async () => {
    const body = event(now());
    expect(await signed(app, "meta", body)).toEqual({
      status: 200,
      body: { success: true, data: { received: true, duplicate: false, outcome: "ignored" } },
    });
    expect((await signed(app, "meta", body)).body.data?.duplicate).toBe(true);
    expect((await deliver(app, "meta", body, "sha256=00")).status).toBe(400);
    expect((await deliver(app, "meta", body, signPayload("meta", SECRETS.META_APP_SECRET, body).replace("sha256=", "sha1="))).status).toBe(
      400,
    );
    expect((await deliver(app, "meta", body, null)).body.error).toBe("Missing X-Hub-Signature-256 header");
    expect((await signed(app, "meta", '{"object":"page"}')).status).toBe(400);
    expect((await signed(app, "meta", "{")).status).toBe(400);
    expect((await deliver(bare, "meta", body, signPayload("meta", SECRETS.META_APP_SECRET, body))).status).toBe(503);
  });
});
