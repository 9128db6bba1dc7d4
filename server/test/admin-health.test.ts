// GET /api/admin/health and its provider checks, with each provider's API answered by msw at the network
// edge in its documented shape: a configured provider that answers is `ok` with a latency (and was asked
// with its key); a refused key (401), a failing provider (500), a rate limit (429) and no answer in time
// each show `error` or `degraded` with the reason; an unconfigured provider is `unconfigured`, never `ok`.
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_TIMEOUT_MS } from "../src/modules/admin/health-providers.ts";
import { ADMIN_ENV, adminClient } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const KEYS = {
  FAL_KEY: "fal-key-good",
  REPLICATE_API_TOKEN: "r8_revoked_token",
  ELEVENLABS_API_KEY: "el-key-good",
  LLM_BASE_URL: "https://llm.example.test/v1",
  LLM_API_KEY: "llm-key-good",
  LLM_MODEL: "gpt-test",
  STRIPE_SECRET_KEY: "sk_test_good",
};

const seen: { url: string; auth: string | null }[] = [];
let stripeMode: "ok" | "rate-limited" = "ok";

const network = setupServer(
  // fal's platform API: `Authorization: Key …`.
  http.get("https://api.fal.ai/v1/models", async ({ request }) => {
    seen.push({ url: request.url, auth: request.headers.get("authorization") });
    await delay(20);
    if (request.headers.get("authorization") !== `Key ${KEYS.FAL_KEY}`) {
      return HttpResponse.json({ detail: "Invalid key" }, { status: 401 });
    }
    return HttpResponse.json({ models: [{ endpoint_id: "fal-ai/flux/schnell" }], has_more: true, next_cursor: "abc" });
  }),
  // Replicate: the token was revoked (its documented problem-details answer).
  http.get("https://api.replicate.com/v1/account", ({ request }) => {
    seen.push({ url: request.url, auth: request.headers.get("authorization") });
    return HttpResponse.json(
      { title: "Unauthenticated", detail: "You did not pass a valid authentication token", status: 401 },
      { status: 401 },
    );
  }),
  // ElevenLabs is failing.
  http.get("https://api.elevenlabs.io/v1/user", ({ request }) => {
    seen.push({ url: request.url, auth: request.headers.get("xi-api-key") });
    return HttpResponse.json({ detail: { status: "internal_error", message: "Internal server error" } }, { status: 500 });
  }),
  // The language model never answers.
  http.get("https://llm.example.test/v1/models", async ({ request }) => {
    seen.push({ url: request.url, auth: request.headers.get("authorization") });
    await delay("infinite");
    return HttpResponse.json({});
  }),
  // Stripe's balance, or its rate limit.
  http.get("https://api.stripe.com/v1/balance", async ({ request }) => {
    seen.push({ url: request.url, auth: request.headers.get("authorization") });
    await delay(10);
    if (stripeMode === "rate-limited") {
      return HttpResponse.json(
        { error: { type: "invalid_request_error", code: "rate_limit", message: "Too many requests" } },
        { status: 429 },
      );
    }
    return HttpResponse.json({ object: "balance", available: [{ amount: 0, currency: "eur" }], livemode: false, pending: [] });
  }),
);

let configured: TestApp;
let bare: TestApp;
let admin: RestClient;

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  [configured, bare] = await Promise.all([startTestApp({ ...ADMIN_ENV, ...KEYS }), startTestApp({ ...ADMIN_ENV })]);
  admin = await adminClient(configured);
});
afterAll(async () => {
  await Promise.all([configured?.close(), bare?.close()]);
  network.close();
});

type Check = { name: string; status: string; latencyMs: number; detail: string };
const byName = (checks: Check[]) => Object.fromEntries(checks.map((check) => [check.name, check]));

describe("GET /api/admin/health with providers configured", () => {
  let checks: Record<string, Check>;
  let report: { status: string; checks: Check[] };

  beforeAll(async () => {
    seen.length = 0;
    const res = await admin.get("/admin/health");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    report = res.body.data;
    checks = byName(report.checks);
  }, PROVIDER_TIMEOUT_MS + 20_000);

  it("a provider that answers is ok, with its latency, and was asked with its key", () => {
    expect(checks["provider: fal"]).toMatchObject({ status: "ok", detail: "pictures: GET https://api.fal.ai/v1/models answered 200" });
    expect(checks["provider: fal"]!.latencyMs).toBeGreaterThanOrEqual(15);
    expect(checks["provider: stripe"]).toMatchObject({
      status: "ok",
      detail: "payments: GET https://api.stripe.com/v1/balance answered 200",
    });
    expect(checks["provider: stripe"]!.latencyMs).toBeGreaterThan(0);
    expect(seen).toEqual(
      expect.arrayContaining([
        { url: "https://api.fal.ai/v1/models?limit=1", auth: "Key fal-key-good" },
        { url: "https://api.replicate.com/v1/account", auth: "Bearer r8_revoked_token" },
        { url: "https://api.elevenlabs.io/v1/user", auth: "el-key-good" },
        { url: "https://llm.example.test/v1/models", auth: "Bearer llm-key-good" },
        { url: "https://api.stripe.com/v1/balance", auth: "Bearer sk_test_good" },
      ]),
    );
  });

  it("a refused key is an error that names the variable to check", () => {
    expect(checks["provider: replicate"]).toMatchObject({
      status: "error",
      detail: "pictures: GET https://api.replicate.com/v1/account answered 401: the key was refused; check REPLICATE_API_TOKEN",
    });
  });

  it("a provider answering 500 is degraded, with the reason", () => {
    expect(checks["provider: elevenlabs"]).toMatchObject({
      status: "degraded",
      detail: "voice: GET https://api.elevenlabs.io/v1/user answered 500: the provider is failing; jobs may fall back or fail",
    });
  });

  it("a provider that does not answer in time is an error, after the timeout", () => {
    expect(checks["provider: language model"]).toMatchObject({
      status: "error",
      detail: `the words of ads: GET https://llm.example.test/v1/models no answer within ${PROVIDER_TIMEOUT_MS / 1000} s`,
    });
    expect(checks["provider: language model"]!.latencyMs).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS - 50);
  });

  it("the report's status is the worst of its checks, and no key appears in it", () => {
    expect(report.status).toBe("error");
    const text = JSON.stringify(report);
    for (const key of ["fal-key-good", "r8_revoked_token", "el-key-good", "llm-key-good", "sk_test_good"]) expect(text).not.toContain(key);
  });

  it(
    "a rate-limited provider is degraded",
    async () => {
      stripeMode = "rate-limited";
      try {
        const res = await admin.get("/admin/health");
        expect(byName(res.body.data.checks)["provider: stripe"]).toMatchObject({
          status: "degraded",
          detail: "payments: GET https://api.stripe.com/v1/balance answered 429: rate limited, calls may be refused for a while",
        });
      } finally {
        stripeMode = "ok";
      }
    },
    PROVIDER_TIMEOUT_MS + 20_000,
  );
});

describe("GET /api/admin/health with no provider configured", () => {
  it("lists each remote provider as unconfigured, none as ok, and asks no one", async () => {
    seen.length = 0;
    const res = await (await adminClient(bare)).get("/admin/health");
    expect(res.status).toBe(200);
    const providers = (res.body.data.checks as Check[]).filter(
      (check) => check.name.startsWith("provider: ") && check.name !== "provider: built-in studio renderer",
    );
    expect(providers.map((check) => [check.name, check.status])).toEqual([
      ["provider: fal", "unconfigured"],
      ["provider: replicate", "unconfigured"],
      ["provider: elevenlabs", "unconfigured"],
      ["provider: language model", "unconfigured"],
      ["provider: stripe", "unconfigured"],
    ]);
    expect(byName(providers)["provider: stripe"]!.detail).toBe("not configured (payments); the built-in sandbox checkout is used");
    expect(seen).toEqual([]);
    // Unconfigured providers do not make the service unhealthy: the built-in studio stands in for them.
    expect(["ok", "degraded"]).toContain(res.body.data.status);
  });
});
