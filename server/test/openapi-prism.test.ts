// Stoplight Prism as a validating proxy in front of the running service: a legacy client's
// flow goes through it (sign-up, log-in, credits, a sandbox purchase, the invoice PDF, the exports, a
// launch, knowledge pages, and 400/401/402/403/404/409 answers), and Prism checks every answer against the
// served document. A body that breaks it, or a status it does not declare, is a violation; there are none.
// Then every documented operation is called through it, signed out (an ended session), as a user and as
// the admin, with placeholder ids and empty bodies: 200s, 400s, 401s, 403s, 404s and 503s, none a violation;
// last, the sign-in class is spent until its 429, headers and body as declared.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { settledJob } from "./support/wait-for.ts";

const SERVER = new URL("..", import.meta.url).pathname;
const CACHE = join(SERVER, "node_modules", ".cache");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let app: TestApp;
let prism: ChildProcess;
let prismUrl: string;
let strict: ChildProcess;
let strictUrl: string;
let scratch: string;
let doc: any;
const prismLog: string[] = [];
const strictLog: string[] = [];

/** Prism's validating proxy in front of the service, answering at the URL it resolves to. */
async function startPrism(log: string[], validateRequests: boolean): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    join(SERVER, "node_modules", ".bin", "prism"),
    [
      "proxy",
      "openapi.json",
      `${app.url}/api`,
      "--errors",
      "--validate-request",
      String(validateRequests),
      "-p",
      String(port),
      "-h",
      "127.0.0.1",
    ],
    { cwd: scratch, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
  );
  child.stdout!.on("data", (chunk: Buffer) => log.push(...chunk.toString().split("\n").filter(Boolean)));
  child.stderr!.on("data", (chunk: Buffer) => log.push(...chunk.toString().split("\n").filter(Boolean)));
  const deadline = Date.now() + 60_000;
  while (!log.some((line) => /Prism is listening/.test(line))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Prism did not start:\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  // The sign-in class allows 150 calls an hour per address, so that the last test can meet its 429.
  app = await startTestApp({ META_VERIFY_TOKEN: "verify-me", RATE_LIMIT_AUTH_PER_HOUR: "150", ...ADMIN_ENV });
  doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
  mkdirSync(CACHE, { recursive: true });
  scratch = mkdtempSync(join(CACHE, "openapi-prism-"));
  writeFileSync(join(scratch, "openapi.json"), JSON.stringify(doc));
  // Here requests are not judged (the flow sends wrong ones on purpose, to see the service's 400s); answers are.
  // The second judges requests too, as a validating proxy in front of a legacy client does (422 when the
  // document asks for what the client does not send).
  [{ child: prism, url: prismUrl }, { child: strict, url: strictUrl }] = await Promise.all([
    startPrism(prismLog, false),
    startPrism(strictLog, true),
  ]);
}, 120_000);
afterAll(async () => {
  prism?.kill();
  strict?.kill();
  await app?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Exchange {
  call: string;
  status: number;
  type: string;
  body: string;
}
const exchanges: Exchange[] = [];

/** One call through Prism; answers the status and the body as text (or JSON when it is JSON). */
async function call(
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; bearer?: string; raw?: string; keepGoing?: boolean; signal?: AbortSignal; via?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined || options.raw !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${options.via ?? prismUrl}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });
  const type = response.headers.get("content-type") ?? "";
  const body = method === "HEAD" ? "" : type.includes("json") || type.startsWith("text/") ? await response.text() : "(bytes)";
  exchanges.push({ call: `${method} ${path}`, status: response.status, type, body: body.slice(0, 400) });
  // Prism's own answer (a violation under --errors, or a route it cannot find): fail here, saying why.
  if (type.includes("problem+json") && !options.keepGoing) throw new Error(`Prism refused ${method} ${path}: ${body}`);
  return {
    status: response.status,
    type,
    json: type.includes("json") && body ? JSON.parse(body) : null,
    setCookie: response.headers.get("set-cookie"),
  };
}

describe("a legacy client's flow through Prism's validating proxy", () => {
  it("meets no violation: every answer matches the document, every status is declared", { timeout: 120_000 }, async () => {
    expect((await call("GET", "/health")).status).toBe(200);
    // HEAD goes straight to the service: Prism's proxy answers a HEAD with its own 500 (its fetch cannot
    // forward it, stoplightio/prism#2259); openapi.test.ts checks that HEAD /health is documented and served.
    expect((await fetch(`${app.url}/api/health`, { method: "HEAD" })).status).toBe(200);
    // A session that is not (any more): the service's own 401 (with no credential at all, Prism answers itself).
    expect((await call("GET", "/user/profile", { cookie: "session=expired" })).status).toBe(401);

    const email = `prism-${Date.now()}@example.com`;
    const signup = await call("POST", "/auth/signup", { body: { email, password: "correct horse battery" } });
    expect(signup.status).toBe(200);
    const cookie = signup.setCookie!.split(";")[0]!;
    expect((await call("POST", "/auth/signup", { body: { email, password: "correct horse battery" } })).status).toBe(409);
    expect((await call("POST", "/auth/signup", { body: { email: "not-an-address", password: "x" } })).status).toBe(400);
    expect((await call("POST", "/auth/login", { body: { email, password: "wrong password here" } })).status).toBe(401);
    expect((await call("POST", "/auth/login", { body: { email, password: "correct horse battery" } })).status).toBe(200);

    for (const path of [
      "/auth/session",
      "/user/profile",
      "/user/credits",
      "/user/projects",
      "/user/brand/knowledge",
      "/invoice/generate",
    ]) {
      expect((await call("GET", path, { cookie })).status, path).toBe(200);
    }
    const purchase = await call("POST", "/user/credits/purchase", { cookie, body: { packId: "pack_10" } });
    expect(purchase.status).toBe(200);
    const orderId = purchase.json.data.orderId;
    expect((await call("GET", `/checkout/sandbox/${orderId}`, { cookie })).status).toBe(200);
    expect((await call("POST", `/checkout/sandbox/${orderId}`, { cookie })).status).toBe(200);
    expect((await call("POST", `/checkout/sandbox/${orderId}`, { cookie })).status).toBe(409);
    expect((await call("POST", "/invoice/generate", { cookie })).status).toBe(200);
    expect((await call("GET", "/user/projects/export", { cookie })).status).toBe(200);
    expect((await call("GET", "/user/projects/export?format=zip", { cookie })).status).toBe(200);
    expect((await call("GET", "/export", { cookie })).status).toBe(200);
    expect((await call("GET", "/webhook/meta?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=42")).status).toBe(200);
    expect((await call("GET", "/webhook/meta?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=42")).status).toBe(403);

    const launch = await call("POST", "/workflow", { cookie, body: { type: "staticad", concept: "Cold brew that tastes like summer" } });
    expect(launch.status).toBe(200);
    expect((await call("GET", `/workflow/job?jobId=${launch.json.data.jobId}`, { cookie })).status).toBe(200);
    expect((await call("POST", "/workflow", { cookie, body: { type: "no-such-type" } })).status).toBe(400);
    // An account whose credits are spent: 402, nothing charged.
    const spent = await call("POST", "/auth/signup", { body: { email: `spent-${email}`, password: "correct horse battery" } });
    await app.services.prisma.user.update({ where: { id: spent.json.data.id }, data: { creditsBalance: 0 } });
    const broke = await call("POST", "/workflow", {
      cookie: spent.setCookie!.split(";")[0]!,
      body: { type: "staticad", concept: "Cold brew that tastes like summer" },
    });
    expect(broke.status, JSON.stringify(broke.json)).toBe(402);

    expect((await call("POST", "/user/brand/knowledge/urls", { cookie, body: { url: "http://127.0.0.1/admin" } })).status).toBe(400);
    expect((await call("POST", "/user/brand/knowledge/urls", { cookie, body: { url: "https://shop.invalid/about" } })).status).toBe(200);
    expect((await call("GET", "/user/brand/knowledge/00000000-0000-4000-8000-000000000000", { cookie })).status).toBe(404);
    expect((await call("GET", "/admin/users", { cookie })).status).toBe(403);

    // Prism answers a violation itself (`--errors`: a problem+json 500) and logs it.
    const violations = prismLog.filter((line) => /violation|unable to match/i.test(line) && !/\bwarning\b/i.test(line));
    const replaced = exchanges.filter((e) => e.type.includes("problem+json"));
    expect({ violations, replaced }).toEqual({ violations: [], replaced: [] });
  });

  it("every operation, called signed out, as a user and as the admin with placeholder ids and empty bodies, answers only what the document declares", {
    timeout: 300_000,
  }, async () => {
    const user = await signUp(app, "prism-sweep");
    const admin = await adminClient(app);
    // A session that ended (the service's own 401s), a user, and the admin.
    const roles = ["session=expired", `session=${user.client.cookie}`, `session=${admin.cookie}`];
    const from = exchanges.length;
    const operations = Object.entries<any>(doc.paths)
      .flatMap(([path, item]) => Object.entries<any>(item).map(([method, operation]) => ({ path, method, operation })))
      // HEAD is not proxied by Prism (see above); a log-out ends the session the calls after it use.
      .filter(({ method }) => method !== "head")
      .sort((a, b) => Number(a.operation.operationId === "auth.logout") - Number(b.operation.operationId === "auth.logout"));
    expect(operations.length).toBeGreaterThan(120);
    for (const cookie of roles) {
      for (const { path, method, operation } of operations) {
        const url = path.replace(/\{(\w+)\}/g, (_m, name) =>
          name === "voiceProvider" ? "elevenlabs" : "00000000-0000-4000-8000-000000000000",
        );
        const streams = Boolean(operation.responses["200"]?.content?.["text/event-stream"]);
        const body = method === "get" ? undefined : {};
        await call(method.toUpperCase(), url, {
          cookie,
          body,
          keepGoing: true,
          signal: AbortSignal.timeout(streams ? 2_000 : 30_000),
        }).catch((error: Error) => {
          // A stream that opened is still open when the wait ends: what it sent so far was checked.
          if (!(streams && error.name === "TimeoutError")) throw error;
        });
      }
    }
    const sweep = exchanges.slice(from);
    expect(sweep.length).toBeGreaterThanOrEqual(
      operations.length * roles.length -
        operations.filter((o) => o.operation.responses["200"]?.content?.["text/event-stream"]).length * roles.length,
    );
    // Several classes of error are met on the way (each declared, or Prism would have replaced it).
    const statuses = [...new Set(sweep.map((e) => e.status))].sort();
    expect(statuses).toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));
    const replaced = sweep.filter((e) => e.type.includes("problem+json")).map((e) => `${e.call}: ${e.body}`);
    const violations = prismLog.filter((line) => /violation|unable to match/i.test(line) && !/\bwarning\b/i.test(line));
    expect({ violations, replaced }).toEqual({ violations: [], replaced: [] });
  });

  // It spends the newsletter endpoint's allowance for this address.
  it("meets the rate limit's 429 as the document declares it, headers included", { timeout: 120_000 }, async () => {
    let last = { status: 0 };
    for (let i = 0; i < 200 && last.status !== 429; i++) {
      last = await call("POST", "/newsletter/subscribe", { body: { email: `prism-${i}@example.com` } });
    }
    expect(last.status).toBe(429);
    const violations = prismLog.filter((line) => /violation|unable to match/i.test(line) && !/\bwarning\b/i.test(line));
    const replaced = exchanges.filter((e) => e.type.includes("problem+json")).map((e) => `${e.call}: ${e.body}`);
    expect({ violations, replaced }).toEqual({ violations: [], replaced: [] });
  });

  // After the 429 (which spent the newsletter endpoint's allowance, not sign-up's), on the second proxy:
  // the first's pooled connections are not left idle while it runs.
  it("lets a legacy client that judges its requests create an API key, a webhook, a push unsubscribe and an invoice with no body, read a finished job and export its PNG: no 422, no violation", {
    timeout: 120_000,
  }, async () => {
    const from = exchanges.length;
    const via = strictUrl;
    const account = await signUp(app, "prism-bodiless");
    // API keys are for the Agency and Enterprise plans (SPEC 9.3).
    await app.services.prisma.user.update({ where: { id: account.id }, data: { currentPlanId: "subscription_agency" } });
    const cookie = `session=${account.client.cookie}`;
    const key = await call("POST", "/user/api-key", { cookie, via });
    expect(key.status, JSON.stringify(key.json)).toBe(200);
    expect(key.json.data.apiKey).toMatch(/^ca_/);
    // The key works, through the same proxy.
    expect((await call("GET", "/user/profile", { bearer: key.json.data.apiKey, via })).status).toBe(200);

    const webhook = await call("POST", "/user/webhook", { cookie, via });
    expect(webhook.status, JSON.stringify(webhook.json)).toBe(200);
    expect(webhook.json.data.secret).toEqual(expect.any(String));

    const unsubscribe = await call("DELETE", "/notifications/subscribe", { cookie, via });
    expect(unsubscribe.status, JSON.stringify(unsubscribe.json)).toBe(200);
    expect(unsubscribe.json.data).toEqual({ unsubscribed: true, removed: 0 });

    // Nothing to invoice yet: the caller's 400, declared; then a paid order's invoice, as a PDF.
    const none = await call("POST", "/invoice/generate", { cookie, via });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/^Nothing to invoice yet/);
    const order = await account.client.post("/user/credits/purchase", { packId: "pack_10" });
    expect((await account.client.post(`/checkout/sandbox/${order.body.data.orderId}`)).status).toBe(200);
    const invoice = await call("POST", "/invoice/generate", { cookie, via });
    expect(invoice.status).toBe(200);

    // A finished static ad: its job (the whole result, storyboard included, as documented) and its PNG
    // through GET /export?source=, an answer the document declares.
    await app.services.startWorkers(1);
    const launch = await call("POST", "/workflow", {
      cookie,
      via,
      body: { type: "staticad", concept: "Cold brew that tastes like summer" },
    });
    expect(launch.status, JSON.stringify(launch.json)).toBe(200);
    const done = await settledJob(account.client, launch.json.data.jobId, 60_000);
    expect(done.status, JSON.stringify(done.error)).toBe("completed");
    const job = await call("GET", `/workflow/job?jobId=${launch.json.data.jobId}`, { cookie, via });
    expect(job.json.data.result.storyboard.scenes.length).toBeGreaterThan(0);
    const png = done.result.assets.find((asset: { url: string }) => asset.url.endsWith(".png")).url as string;
    const exported = await call("GET", `/export?source=${encodeURIComponent(png)}`, { cookie, via });
    expect([exported.status, exported.type]).toEqual([200, "image/png"]);

    const flow = exchanges.slice(from);
    expect(flow.map((e) => e.status)).not.toContain(422);
    const replaced = flow.filter((e) => e.type.includes("problem+json")).map((e) => `${e.call}: ${e.body}`);
    const violations = strictLog.filter((line) => /violation|unable to match/i.test(line) && !/\bwarning\b/i.test(line));
    expect({ violations, replaced }).toEqual({ violations: [], replaced: [] });
  });
});
