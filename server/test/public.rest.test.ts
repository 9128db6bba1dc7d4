// SPEC 4.9 over REST (health, config, capabilities, contact, newsletter) and the REST adapter's own
// behaviour: 404/405 envelopes and rate-limit headers on every routed response.
import { restRoutes } from "./support/rest-routes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts.ts";
import { RestClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let anonymous: RestClient;
beforeAll(async () => {
  app = await startTestApp();
  anonymous = new RestClient(app.url);
});
afterAll(() => app?.close());

const ENGINE = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

describe("health", () => {
  it("GET /health answers status and time only", async () => {
    const res = await anonymous.get("/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: "ok", timestamp: expect.any(String), version: "1.0.0" } });
    expect(Math.abs(Date.now() - Date.parse(res.body.data.timestamp))).toBeLessThan(10_000);
  });

  it("HEAD /health answers 200 without a body", async () => {
    const response = await fetch(`${app.url}/api/health`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(response.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("GET /health/db needs a session and reports the engine and response time", async () => {
    const denied = await anonymous.get("/health/db");
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ success: false, error: "Authentication required" });
    const user = await signUp(app, "dbhealth");
    const res = await user.client.get("/health/db");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { status: "ok", engine: ENGINE, responseTimeMs: expect.any(Number), timestamp: expect.any(String) },
    });
    expect(res.body.data.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(res.body.data.responseTimeMs).toBeLessThan(5_000);
  });

  it("GET /health/signup-test runs signup, login, session and cleanup, and leaves no account behind", async () => {
    expect((await anonymous.get("/health/signup-test")).status).toBe(401);
    const user = await signUp(app, "selftest");
    const usersBefore = await app.services.prisma.user.count();
    const res = await user.client.get("/health/signup-test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        success: true,
        totalMs: expect.any(Number),
        steps: ["signup", "login", "session", "cleanup"].map((step) => ({ step, ok: true, ms: expect.any(Number) })),
      },
    });
    expect(await app.services.prisma.user.count()).toBe(usersBefore);
    expect(await app.services.prisma.user.count({ where: { email: { endsWith: "@healthcheck.invalid" } } })).toBe(0);
    expect(await app.services.prisma.session.count({ where: { user: { email: { endsWith: "@healthcheck.invalid" } } } })).toBe(0);
  });
});

describe("GET /config/pricing", () => {
  // SPEC 8.2, with CONTRACT's local-audit type.
  const COSTS = [
    ["cinematic", "Director", 1, 2],
    ["avatar", "Presenter", 2, 3],
    ["factory", "Multi-Format", 3, 5],
    ["clone", "Inspiration", 3, 5],
    ["influencer", "Influencer", 8, 15],
    ["brand", "Brand Clone", 15, 25],
    ["staticad", "Static Ad", 1, 1],
    ["painpoint", "Pain Point", 1, 1],
    ["ad-optimizer", "Ad Optimizer", 1, 2],
    ["local-audit", "Local Audit", 2, 3],
  ] as const;

  it("states the credit cost of all 10 workflow types and which are reserved on free and trial", async () => {
    const res = await anonymous.get("/config/pricing");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.workflows).toEqual(
      COSTS.map(([type, name, standard, premium]) => ({
        type,
        name,
        standard,
        premium,
        reservedOnPlans: type === "brand" || type === "influencer" ? ["free", "trial"] : [],
      })),
    );
    expect(res.body.data.reservedWorkflows).toEqual({
      types: ["brand", "influencer"],
      plans: ["free", "trial"],
      rule: expect.stringMatching(/brand and influencer .*403/),
    });
  });

  it("states the credit packs, the plans and the trial", async () => {
    const { data } = (await anonymous.get("/config/pricing")).body;
    expect(data.currency).toBe("USD");
    expect(data.packs.map((p: { id: string; credits: number }) => [p.id, p.credits])).toEqual([
      ["pack_10", 10],
      ["pack_25", 25],
      ["pack_50", 50],
      ["pack_100", 100],
    ]);
    for (const pack of data.packs) {
      expect(pack).toEqual({ id: pack.id, credits: pack.credits, price: expect.any(Number), currency: "USD", concurrentJobs: 2 });
      expect(pack.price).toBeGreaterThan(0);
    }
    const plans = Object.fromEntries(data.plans.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(plans)).toEqual([
      "free",
      "trial",
      "subscription_starter",
      "subscription_pro",
      "subscription_agency",
      "subscription_enterprise",
    ]);
    for (const id of Object.keys(plans)) {
      expect(plans[id]).toMatchObject({
        id,
        currency: "USD",
        apiAccess: id === "subscription_agency" || id === "subscription_enterprise",
        reservedWorkflows: id === "free" || id === "trial",
      });
    }
    // Jobs of one account that run at once (more wait in the account's own line).
    expect(Object.values(plans).map((p: any) => p.concurrentJobs)).toEqual([1, 1, 2, 2, 4, 8]);
    expect(data.trial).toEqual({ days: 7, credits: 10 });
  });
});

describe("GET /config/studio", () => {
  it("lists workflow types, formats, quality tiers and studio settings", async () => {
    const res = await anonymous.get("/config/studio");
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data.workflowTypes.map((w: { type: string }) => w.type)).toEqual([
      "cinematic",
      "avatar",
      "factory",
      "clone",
      "influencer",
      "brand",
      "staticad",
      "painpoint",
      "ad-optimizer",
      "local-audit",
    ]);
    expect(data.workflowTypes.filter((w: { requiresUrl: boolean }) => w.requiresUrl).map((w: { type: string }) => w.type)).toEqual([
      "factory",
      "clone",
    ]);
    expect(data.formats.map((f: { ratio: string; width: number; height: number }) => [f.ratio, f.width, f.height])).toEqual([
      ["16:9", 1920, 1080],
      ["9:16", 1080, 1920],
      ["1:1", 1080, 1080],
      ["4:5", 1080, 1350],
    ]);
    expect(data.qualityTiers).toEqual(["standard", "premium"]);
    expect(data.frameworks).toEqual(["pas", "aida", "sb7", "cialdini", "uvp", "bant"]);
    expect(data.seasonal).toEqual(["ramadan", "eid"]);
    expect(data.limits).toEqual({ conceptMaxLength: 2000, hitlTimeoutSeconds: 86400 });
    expect(Object.keys(data.models).sort()).toEqual(["image", "video", "voice"]);
  });
});

describe("GET /models/status", () => {
  it("answers capabilities with consistent stats and never a provider name", async () => {
    const response = await fetch(`${app.url}/api/models/status`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const { success, data } = JSON.parse(text);
    expect(success).toBe(true);
    expect(data.capabilities.length).toBeGreaterThan(0);
    for (const capability of data.capabilities) {
      expect(capability).toEqual({
        name: expect.any(String),
        category: expect.any(String),
        tier: expect.any(String),
        status: expect.stringMatching(/^(active|deprecated)$/),
        isNew: expect.any(Boolean),
        features: expect.any(Array),
      });
    }
    expect(data.stats).toEqual({
      totalCapabilities: data.capabilities.length,
      recentlyUpdated: data.capabilities.filter((c: { isNew: boolean }) => c.isNew).length,
      categories: new Set(data.capabilities.map((c: { category: string }) => c.category)).size,
    });
    expect(Array.isArray(data.recentUpgrades)).toBe(true);
    // Whole words, so the JSON literal `false` does not count as "fal".
    for (const provider of [
      "fal",
      "fal-ai",
      "replicate",
      "openai",
      "elevenlabs",
      "eleven labs",
      "stripe",
      "runway",
      "kling",
      "anthropic",
    ]) {
      expect(text, provider).not.toMatch(new RegExp(`\\b${provider}\\b`, "i"));
    }
  });
});

describe("POST /contact", () => {
  it("stores a message and answers its id", async () => {
    const email = uniqueEmail("Contact");
    const res = await anonymous.post("/contact", { email, name: "Ada", message: "Hello there" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String), received: true } });
    const row = await app.services.prisma.contactMessage.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({ email: email.toLowerCase(), name: "Ada", message: "Hello there", userId: null });
  });

  it("accepts a message of exactly 2000 characters and links a signed-in sender", async () => {
    const user = await signUp(app, "contact-user");
    const res = await user.client.post("/contact", { email: user.email, message: "m".repeat(2000) });
    expect(res.status).toBe(200);
    const row = await app.services.prisma.contactMessage.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({ userId: user.id, name: null });
    expect(row.message).toHaveLength(2000);
  });

  it.each([
    [{ email: "a@example.com" }, "message is required"],
    [{ email: "a@example.com", message: "   " }, "message is required"],
    [{ email: "a@example.com", message: "m".repeat(2001) }, "message must be at most 2000 characters"],
    [{ message: "hi" }, "Enter your e-mail address"],
    [{ email: "nope", message: "hi" }, "Enter a valid e-mail address, like name@example.com"],
  ])("answers 400 naming the field for %j and stores nothing", async (body, message) => {
    const before = await app.services.prisma.contactMessage.count();
    const res = await anonymous.post("/contact", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
    expect(await app.services.prisma.contactMessage.count()).toBe(before);
  });
});

describe("POST /newsletter/subscribe", () => {
  it("is idempotent per e-mail, in any case", async () => {
    const email = uniqueEmail("News");
    const first = await anonymous.post("/newsletter/subscribe", { email });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { email: email.toLowerCase(), subscribed: true, alreadySubscribed: false } });
    const second = await anonymous.post("/newsletter/subscribe", { email: email.toUpperCase() });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ success: true, data: { email: email.toLowerCase(), subscribed: true, alreadySubscribed: true } });
    expect(await app.services.prisma.newsletterSubscription.count({ where: { email: email.toLowerCase() } })).toBe(1);
  });

  it("subscribes concurrent duplicates once", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all([0, 1, 2, 3].map(() => anonymous.post("/newsletter/subscribe", { email })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.data.alreadySubscribed === false)).toHaveLength(1);
    expect(await app.services.prisma.newsletterSubscription.count({ where: { email: email.toLowerCase() } })).toBe(1);
  });

  it("answers 400 for a missing or malformed e-mail", async () => {
    expect((await anonymous.post("/newsletter/subscribe", {})).body).toEqual({ success: false, error: "Enter your e-mail address" });
    const bad = await anonymous.post("/newsletter/subscribe", { email: "not an email" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: "Enter a valid e-mail address, like name@example.com" });
  });
});

describe("REST adapter routing", () => {
  it.each(["/nope", "/user", "/admin/users/x/y", "/auth/signup/extra"])("answers 404 with the envelope for GET /api%s", async (path) => {
    const res = await anonymous.get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: `Not found: GET /api${path}` });
  });

  it.each([
    ["DELETE", "/health", "GET, HEAD"],
    ["GET", "/auth/signup", "POST"],
    ["PUT", "/user/provider-preference", "GET, HEAD, POST"],
    ["DELETE", "/admin/users/some-id", "GET, HEAD, PATCH"],
    ["GET", "/admin/users/some-id/credits", "POST"],
  ])("answers 405 with the envelope and Allow for %s /api%s", async (method, path, allow) => {
    const res = await anonymous.call(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body).toEqual({ success: false, error: `Method ${method} is not allowed on /api${path}; use ${allow}` });
  });

  it("answers HEAD on a GET route with the status and headers but no body", async () => {
    const response = await fetch(`${app.url}/api/config/pricing`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.text()).toBe("");
  });

  it("answers 413 for a JSON body over 1 MB and 400 for JSON that is not an object", async () => {
    const big = await anonymous.call("POST", "/contact", JSON.stringify({ email: "a@example.com", message: "x".repeat(1_100_000) }));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ success: false, error: "Request body is larger than 1 MB" });
    const array = await anonymous.call("POST", "/contact", "[]");
    expect(array.status).toBe(400);
    expect(array.body).toEqual({ success: false, error: "Invalid input: expected object, received array" });
  });

  it("answers 401 with the envelope to an anonymous caller on every route that is not public (streams included)", async () => {
    const guarded = restRoutes.filter((r) => r.auth !== "public");
    expect(guarded.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const route of guarded) {
      const hasBody = route.method !== "GET" && route.method !== "HEAD";
      const response = await fetch(`${app.url}/api${route.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000")}`, {
        method: route.method,
        headers: hasBody ? { "content-type": "application/json" } : { accept: "text/event-stream" },
        body: hasBody ? "{}" : undefined,
        signal: AbortSignal.timeout(5_000),
      });
      const label = `${route.method} ${route.path}`;
      const text = await response.text();
      const expected = { success: false, error: "Authentication required", requestId: response.headers.get("x-request-id") };
      if (response.status !== 401 || text !== JSON.stringify(expected)) wrong.push(`${label} ${response.status} ${text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("puts integer rate-limit headers with a future Unix reset on every routed /api response it counts", async () => {
    // Authentication and authorization come before the count: a caller refused with 401 or 403 spends no
    // budget and gets no headers; everything past them (a 400, a 404, a 200) is counted and says so.
    const user = (await signUp(app, "headers")).client;
    const seen = new Set<number>();
    // Logout last: it ends the session the walk uses.
    const walk = [...restRoutes].sort((a, b) => Number(a.operation === "auth.logout") - Number(b.operation === "auth.logout"));
    for (const route of walk) {
      const path = route.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
      const caller = route.auth === "public" ? anonymous : user;
      let res: { status: number; headers: Headers };
      if (route.source.kind === "subscription" || route.source.kind === "download") {
        // A stream stays open and a download is not JSON: read the headers, then hang up.
        const controller = new AbortController();
        const body = route.method === "GET" ? {} : { method: route.method, body: "{}" };
        res = await fetch(`${app.url}/api${path}`, {
          ...body,
          headers: { cookie: `session=${user.cookie}`, "content-type": "application/json" },
          signal: controller.signal,
        });
        controller.abort();
      } else {
        res = await caller.call(route.method, path, route.method === "GET" || route.method === "HEAD" ? undefined : {});
      }
      seen.add(res.status);
      if (route.auth === "admin") {
        // Refused, and still counted: every /api request counts (CONTRACT), a 403 included.
        expect(res.status).toBe(403);
        expect(Number(res.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
        continue;
      }
      const label = `${route.method} ${route.path} (${res.status})`;
      const limit = res.headers.get("x-ratelimit-limit");
      const remaining = res.headers.get("x-ratelimit-remaining");
      const reset = res.headers.get("x-ratelimit-reset");
      expect(
        [label, limit, remaining, reset].every((v) => v !== null),
        label,
      ).toBe(true);
      expect(limit, label).toMatch(/^\d+$/);
      expect(remaining, label).toMatch(/^\d+$/);
      expect(reset, label).toMatch(/^\d+$/);
      expect(Number(remaining)).toBeLessThan(Number(limit));
      const now = Math.floor(Date.now() / 1000);
      expect(Number(reset), label).toBeGreaterThanOrEqual(now);
      // The api class counts per minute; auth and stream per hour.
      expect(Number(reset), label).toBeLessThanOrEqual(now + ((route.rateLimit ?? "api") === "api" ? 60 : 3600) + 1);
    }
    // The walk saw successes, validation errors and unknown resources, and all of them carried the headers.
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 403, 404]));
  });

  it("counts down X-RateLimit-Remaining per endpoint", async () => {
    const user = await signUp(app, "countdown");
    const first = await user.client.get("/user/credits");
    const second = await user.client.get("/user/credits");
    const other = await user.client.get("/user/profile");
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("999");
    expect(first.headers.get("x-ratelimit-reset")).toBe(second.headers.get("x-ratelimit-reset"));
  });
});
