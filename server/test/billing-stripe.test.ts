// Checkout with STRIPE_SECRET_KEY set: sessions are created with the official `stripe` package, seen here
// at the network edge (msw) in Stripe's documented shapes (POST /v1/checkout/sessions, form-encoded).
// The session's metadata leads the webhook back to the order; a failure at Stripe answers 402.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliver, expectLedgerMatches, SECRETS } from "./billing-fixtures.ts";
import { signPayload } from "../src/modules/billing/signatures.ts";
import { signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

interface SessionRequest {
  authorization: string | null;
  form: URLSearchParams;
}
const requests: SessionRequest[] = [];
let failure: { status: number; error: Record<string, string> } | null = null;

const stripeApi = setupServer(
  http.post("https://api.stripe.com/v1/checkout/sessions", async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    requests.push({ authorization: request.headers.get("authorization"), form });
    if (failure) return HttpResponse.json({ error: failure.error }, { status: failure.status });
    const id = `cs_test_${requests.length}`;
    return HttpResponse.json({
      id,
      object: "checkout.session",
      mode: form.get("mode"),
      status: "open",
      payment_status: "unpaid",
      url: `https://checkout.stripe.com/c/pay/${id}`,
      metadata: Object.fromEntries([...form].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v])),
    });
  }),
);

let app: TestApp;
beforeAll(async () => {
  stripeApi.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({
    STRIPE_SECRET_KEY: "sk_test_billing",
    STRIPE_WEBHOOK_SECRET: SECRETS.STRIPE_WEBHOOK_SECRET,
    PUBLIC_URL: "https://ads.example.test",
  });
});
afterEach(() => {
  failure = null;
});
afterAll(async () => {
  await app?.close();
  stripeApi.close();
});

describe("POST /user/credits/purchase with Stripe", () => {
  it("creates a one-off payment session for the pack and answers Stripe's checkout URL", async () => {
    const user = await signUp(app, "stripe-pack");
    const answer = await user.client.post("/user/credits/purchase", { packId: "pack_50" });
    expect(answer.status).toBe(200);
    const { orderId, url } = answer.body.data;
    expect(answer.body.data).toMatchObject({ provider: "stripe", sandbox: false });
    const sent = requests.at(-1)!;
    expect(url).toBe(`https://checkout.stripe.com/c/pay/cs_test_${requests.length}`);
    expect(sent.authorization).toBe("Bearer sk_test_billing");
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "3999",
      "line_items[0][price_data][product_data][name]": "50-credit pack",
      client_reference_id: orderId,
      customer_email: user.email,
      "metadata[orderId]": orderId,
      "metadata[userId]": user.id,
      "metadata[packId]": "pack_50",
      "payment_intent_data[metadata][orderId]": orderId,
      success_url: `https://ads.example.test/billing?order=${orderId}&checkout=success`,
    });
    // Nothing is granted before Stripe confirms the payment.
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);

    // Stripe's checkout.session.completed for that session pays the order.
    const event = JSON.stringify({
      id: "evt_stripe_pack",
      type: "checkout.session.completed",
      data: {
        object: {
          id: `cs_test_${requests.length}`,
          object: "checkout.session",
          payment_status: "paid",
          payment_intent: "pi_stripe_pack",
          amount_total: 3999,
          currency: "usd",
          client_reference_id: orderId,
          metadata: { orderId, userId: user.id, packId: "pack_50" },
        },
      },
    });
    const webhook = await deliver(app, "stripe", event, signPayload("stripe", SECRETS.STRIPE_WEBHOOK_SECRET, event));
    expect(webhook.body.data?.outcome).toBe("fulfilled");
    expect(await expectLedgerMatches(app, user.id)).toBe(60);
    const order = await app.services.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toMatchObject({
      provider: "stripe",
      status: "paid",
      providerSessionId: `cs_test_${requests.length}`,
      providerPaymentId: "pi_stripe_pack",
    });
  });

  it("the sandbox page is off while Stripe takes the payments", async () => {
    const user = await signUp(app, "stripe-no-sandbox");
    const { orderId } = (await user.client.post("/user/credits/purchase", { packId: "pack_10" })).body.data;
    expect((await user.client.post(`/checkout/sandbox/${orderId}`)).status).toBe(404);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);
  });
});

describe("POST /checkout/stripe", () => {
  it("creates a subscription session with a yearly recurring price for the plan", async () => {
    const user = await signUp(app, "stripe-plan");
    const answer = await user.client.post("/checkout/stripe", { planId: "subscription_pro", interval: "yearly" });
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(requests.at(-1)!.form)).toMatchObject({
      mode: "subscription",
      "line_items[0][price_data][unit_amount]": "79000",
      "line_items[0][price_data][recurring][interval]": "year",
      "metadata[planId]": "subscription_pro",
      "metadata[interval]": "yearly",
      "subscription_data[metadata][orderId]": answer.body.data.orderId,
    });
  });
});

describe("a failure at Stripe", () => {
  it.each([
    [402, { type: "card_error", code: "card_declined", message: "Your card was declined." }, "Your card was declined."],
    [500, { type: "api_error", message: "An unknown error occurred" }, "the payment provider reported an error"],
    [
      401,
      { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_****ling" },
      "the payment provider reported an error",
    ],
  ])(
    "Stripe answering %i is a 402 with a clear message; the order is marked failed and nothing is granted",
    async (status, error, reason) => {
      failure = { status, error };
      const user = await signUp(app, `stripe-fail-${status}`);
      const answer = await user.client.post("/user/credits/purchase", { packId: "pack_10" });
      expect(answer.status).toBe(402);
      expect(answer.body.error).toBe(`Payment failed: the checkout could not be started (${reason}). Nothing was charged; try again.`);
      const order = await app.services.prisma.order.findFirstOrThrow({ where: { userId: user.id } });
      expect(order.status).toBe("failed");
      expect(await expectLedgerMatches(app, user.id)).toBe(10);
    },
  );
});
