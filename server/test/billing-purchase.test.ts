// Buying packs and plans with the built-in sandbox checkout (no STRIPE_SECRET_KEY): the packs and prices
// on offer, the checkout URL on PUBLIC_URL, the sandbox page's order, its confirm (the webhook's own path:
// a payment_events row), the balance and plan afterwards, and the sandbox switched off in production.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectLedgerMatches } from "./billing-fixtures.ts";
import { signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: "https://ads.example.test" });
});
afterAll(async () => {
  await app?.close();
});

describe("what is for sale", () => {
  it("GET /user/credits/purchase lists the four packs with the CreditPack fields", async () => {
    const user = await signUp(app, "packs");
    const answer = await user.client.get("/user/credits/purchase");
    expect(answer.status).toBe(200);
    expect(
      answer.body.data.map((p: { id: string; credits: number; price: number; currency: string }) => [p.id, p.credits, p.price, p.currency]),
    ).toEqual([
      ["pack_10", 10, 9.99, "USD"],
      ["pack_25", 25, 22.99, "USD"],
      ["pack_50", 50, 39.99, "USD"],
      ["pack_100", 100, 69.99, "USD"],
    ]);
    expect((await new RestClient(app.url).get("/user/credits/purchase")).status).toBe(401);
  });

  it("GET /config/pricing states every pack's and plan's price, each plan's monthly allowance, and how checkout works here", async () => {
    const pricing = (await new RestClient(app.url).get("/config/pricing")).body.data;
    expect(pricing.packs).toHaveLength(4);
    const pro = pricing.plans.find((p: { id: string }) => p.id === "subscription_pro");
    expect(pro).toMatchObject({ monthly: 79, yearly: 790, monthlyCredits: 100, currency: "USD" });
    expect(pricing.checkout).toEqual({
      mode: "sandbox",
      intervals: ["monthly", "yearly"],
      plans: ["subscription_starter", "subscription_pro", "subscription_agency", "subscription_enterprise"],
    });
    // The fields that were there before are still there.
    expect(Object.keys(pricing)).toEqual(
      expect.arrayContaining(["currency", "workflows", "qualityTiers", "packs", "plans", "trial", "reservedWorkflows"]),
    );
  });
});

describe("buying a pack in the sandbox", () => {
  it("answers a sandbox URL on PUBLIC_URL, grants nothing until confirmed, then adds the pack's credits once", async () => {
    const user = await signUp(app, "sandbox-pack");
    const started = await user.client.post("/user/credits/purchase", { packId: "pack_25" });
    expect(started.status).toBe(200);
    const { orderId, url } = started.body.data;
    expect(started.body.data).toMatchObject({ provider: "sandbox", sandbox: true });
    expect(url).toBe(`https://ads.example.test/billing/sandbox/${orderId}`);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);

    const page = await user.client.get(`/checkout/sandbox/${orderId}`);
    expect(page.body.data).toMatchObject({
      id: orderId,
      kind: "pack",
      packId: "pack_25",
      credits: 25,
      amount: 22.99,
      currency: "USD",
      status: "pending",
    });

    const paid = await user.client.post(`/checkout/sandbox/${orderId}`);
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ balance: 35, order: { status: "paid" } });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(35);
    await expectLedgerMatches(app, user.id);
    // The sandbox paid through the webhook's path: its event is recorded like a provider's.
    const event = await app.services.prisma.paymentEvent.findFirst({ where: { orderId } });
    expect(event).toMatchObject({ provider: "sandbox", outcome: "fulfilled", userId: user.id });

    const again = await user.client.post(`/checkout/sandbox/${orderId}`);
    expect(again).toMatchObject({ status: 409, body: { success: false, error: "This order is already paid" } });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(35);
  });

  it("another account's order is a 404, on the page and on confirm", async () => {
    const owner = await signUp(app, "sandbox-owner");
    const other = await signUp(app, "sandbox-other");
    const { orderId } = (await owner.client.post("/user/credits/purchase", { packId: "pack_10" })).body.data;
    expect((await other.client.get(`/checkout/sandbox/${orderId}`)).status).toBe(404);
    expect((await other.client.post(`/checkout/sandbox/${orderId}`)).status).toBe(404);
    expect((await owner.client.get("/user/credits")).body.data.balance).toBe(10);
  });

  it("a pack that does not exist is a 400 naming packId", async () => {
    const user = await signUp(app, "bad-pack");
    const answer = await user.client.post("/user/credits/purchase", { packId: "pack_7" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("packId must be one of pack_10, pack_25, pack_50, pack_100");
    expect((await user.client.post("/user/credits/purchase", {})).status).toBe(400);
  });

  it("is the same operation over tRPC and GraphQL", async () => {
    const user = await signUp(app, "sandbox-transports");
    const session = await trpcClient(app.url, user.jwt).billing.purchase.mutate({ packId: "pack_10" });
    expect(session.sandbox).toBe(true);
    const confirmed = await graphql(
      app.url,
      `mutation($id: String!) { billingSandboxConfirm(orderId: $id) { balance order { status } } }`,
      { id: session.orderId },
      user.jwt,
    );
    expect(confirmed.body.data).toEqual({ billingSandboxConfirm: { balance: 20, order: { status: "paid" } } });
  });
});

describe("buying a plan in the sandbox", () => {
  it("POST /checkout/stripe then confirm sets the plan, grants its monthly allowance and makes API keys available", async () => {
    const user = await signUp(app, "sandbox-plan");
    expect((await user.client.get("/user/api-key")).body.data.eligible).toBe(false);
    const started = await user.client.post("/checkout/stripe", { planId: "subscription_agency", interval: "yearly" });
    expect(started.status).toBe(200);
    const page = await user.client.get(`/checkout/sandbox/${started.body.data.orderId}`);
    expect(page.body.data).toMatchObject({ kind: "plan", planId: "subscription_agency", interval: "yearly", amount: 1990, credits: 300 });
    const paid = await user.client.post(`/checkout/sandbox/${started.body.data.orderId}`);
    expect(paid.body.data).toMatchObject({ balance: 310, planId: "subscription_agency" });
    expect((await user.client.get("/user/profile")).body.data).toMatchObject({
      current_plan_id: "subscription_agency",
      trial_ends_at: null,
    });
    expect((await user.client.get("/user/api-key")).body.data.eligible).toBe(true);
    const profile = trpcClient(app.url, user.jwt).user.profile;
    expect((await profile.query()).has_api_key).toBe(false);
    const key = await user.client.post("/user/api-key");
    expect(key.body.data.apiKey).toMatch(/^ca_/);
    // The profile says so at once (the SPA's API key panel reads it), and no longer once the key is revoked.
    expect((await profile.query()).has_api_key).toBe(true);
    expect((await user.client.delete("/user/api-key")).status).toBe(200);
    expect((await profile.query()).has_api_key).toBe(false);
    await expectLedgerMatches(app, user.id);
  });

  it("interval defaults to monthly; a plan that cannot be bought or an unknown interval is a 400 naming the field", async () => {
    const user = await signUp(app, "plan-input");
    const monthly = await user.client.post("/checkout/stripe", { planId: "subscription_starter" });
    expect((await user.client.get(`/checkout/sandbox/${monthly.body.data.orderId}`)).body.data).toMatchObject({
      interval: "monthly",
      amount: 29,
    });
    const free = await user.client.post("/checkout/stripe", { planId: "free" });
    expect(free.status).toBe(400);
    expect(free.body.error).toMatch(/^planId must be one of subscription_starter/);
    const weekly = await user.client.post("/checkout/stripe", { planId: "subscription_pro", interval: "weekly" });
    expect(weekly).toMatchObject({ status: 400, body: { error: "interval must be monthly or yearly" } });
  });
});

describe("the sandbox in production", () => {
  it("is off under NODE_ENV=production (503, no order) unless PAYMENTS_SANDBOX=1", async () => {
    const production = await startTestApp({ NODE_ENV: "production" });
    try {
      const user = await signUp(production, "prod");
      const refused = await user.client.post("/user/credits/purchase", { packId: "pack_10" });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatch(/STRIPE_SECRET_KEY/);
      expect(await production.services.prisma.order.count()).toBe(0);
      expect((await new RestClient(production.url).get("/config/pricing")).body.data.checkout.mode).toBe("unavailable");
    } finally {
      await production.close();
    }
    const allowed = await startTestApp({ NODE_ENV: "production", PAYMENTS_SANDBOX: "1" });
    try {
      const user = await signUp(allowed, "prod-sandbox");
      const started = await user.client.post("/user/credits/purchase", { packId: "pack_10" });
      expect(started.body.data.sandbox).toBe(true);
      expect((await user.client.post(`/checkout/sandbox/${started.body.data.orderId}`)).body.data.balance).toBe(20);
    } finally {
      await allowed.close();
    }
  });
});
