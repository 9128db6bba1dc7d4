// The operator's log: JSON lines, one per request (with the id the answer carries in X-Request-Id and
// in every error body), one per job step, every refund with its reason, and never a secret.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/env.ts";
import { createLogger } from "../src/logging/logger.ts";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, ADMIN_ENV, adminClient, eventually, signUp } from "./support/accounts.ts";
import { RestClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

// The network is closed: no host resolves, so a page read fails the way a provider outage does.
const resolver: Resolver = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

/** Everything the service logged, as written. */
const written: string[] = [];
type Line = Record<string, any>;
const lines = (): Line[] =>
  written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Line);
const logText = () => written.join("");

let app: TestApp;
let user: Account;
beforeAll(async () => {
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void written.push(line) } });
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", JOB_RETRY_LIMIT: "0" }, { resolver, logger });
  user = await signUp(app, "logging");
  await (await adminClient(app)).post(`/admin/users/${user.id}/credits`, { amount: 40 });
});
afterAll(async () => {
  await app?.close();
});

const requestLine = (requestId: string) => lines().find((line) => line.msg === "request" && line.requestId === requestId);

describe("request lines", () => {
  it("one JSON line per request with method, path without its query, route, operation, status, duration, request id and user", async () => {
    const response = await fetch(`${app.url}/api/workflow/job?jobId=00000000-0000-4000-8000-000000000000&token=query-secret-7731`, {
      headers: { cookie: `session=${user.jwt}`, "x-request-id": "support-ticket-42" },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBe("support-ticket-42");
    const line = await eventually(() => {
      const found = requestLine("support-ticket-42");
      expect(found).toBeDefined();
      return found!;
    });
    expect(line).toMatchObject({
      level: "info",
      method: "GET",
      path: "/api/workflow/job",
      route: "/api/workflow/job",
      operation: "workflow.job",
      status: 404,
      requestId: "support-ticket-42",
      userId: user.id,
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(new Date(line.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(logText()).not.toContain("query-secret-7731");
  });

  it("a body cut off before its declared length is the client's 400, not a logged fault, and saves nothing", async () => {
    expect((await user.client.post("/user/brand", { brandName: "Whole" })).status).toBe(200);
    const url = new URL(app.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    const head =
      `POST /api/user/brand HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n` +
      `Cookie: session=${user.jwt}\r\nX-Request-Id: cut-off-body-1\r\n\r\n{"brandName":"Half`;
    // The headers and 18 of the 200 bytes go out; then the client hangs up.
    await new Promise((resolve) => socket.write(head, resolve));
    socket.destroy();
    const line = await eventually(() => {
      const found = requestLine("cut-off-body-1");
      expect(found).toBeDefined();
      return found!;
    });
    expect(line).toMatchObject({ status: 400, operation: "brand.save" });
    expect(lines().filter((l) => l.requestId === "cut-off-body-1" && ["error", "fatal"].includes(l.level))).toEqual([]);
    expect((await user.client.get("/user/brand")).body.data.brandName).toBe("Whole");
  });

  it("replaces an unacceptable X-Request-Id with its own, and gives one to every answer", async () => {
    for (const offered of ["has spaces", "x".repeat(65), "semi;colon", ""]) {
      const response = await fetch(`${app.url}/api/health`, { headers: { "x-request-id": offered } });
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(id).not.toBe(offered);
    }
    const kept = await fetch(`${app.url}/api/health`, { headers: { "x-request-id": "A.b_c-9" } });
    expect(kept.headers.get("x-request-id")).toBe("A.b_c-9");
    // The SPA, tRPC and GraphQL answers carry one too.
    for (const path of ["/", "/trpc/public.pricing", "/graphql?query=%7BhealthCheck%7Bstatus%7D%7D"]) {
      expect((await fetch(`${app.url}${path}`)).headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("never writes a password, a session cookie or a token, whichever transport carried them", async () => {
    const password = `Pw-${Math.random().toString(36).slice(2)}-unique`;
    const email = uniqueEmail("secret").toLowerCase();
    const client = new RestClient(app.url);
    expect((await client.post("/auth/signup", { email, password })).status).toBe(200);
    const signupCookie = client.cookie!;
    const login = await client.post("/auth/login", { email, password });
    expect(login.status).toBe(200);
    const loginCookie = client.cookie!;
    expect((await client.get("/user/profile")).status).toBe(200);
    // The same password over tRPC and GraphQL, and a wrong one (a failed login is logged, its password not).
    const trpc = await fetch(`${app.url}/trpc/auth.login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(trpc.status).toBe(200);
    const gql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "mutation($e: String!, $p: String!) { authLogin(email: $e, password: $p) { token } }",
        variables: { e: email, p: password },
      }),
    });
    const token = ((await gql.json()) as any).data.authLogin.token as string;
    expect((await new RestClient(app.url, { bearer: token }).get("/user/credits")).status).toBe(200);
    expect((await client.post("/auth/login", { email, password: `${password}-wrong` })).status).toBe(401);
    const me = (await client.get("/user/profile")).body.data.id as string;
    expect((await (await adminClient(app)).patch(`/admin/users/${me}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
    const key = await client.post("/user/api-key", {});
    expect(key.status, JSON.stringify(key.body)).toBe(200);

    await eventually(() => expect(lines().filter((line) => line.operation === "auth.login").length).toBeGreaterThanOrEqual(4));
    const text = logText();
    for (const secret of [password, signupCookie, loginCookie, token, key.body.data.apiKey]) {
      expect(typeof secret === "string" && secret.length > 8, "a secret to look for").toBe(true);
      expect(text).not.toContain(secret);
    }
    const profile = lines().find((line) => line.operation === "user.profile" && line.status === 200);
    expect(profile).toMatchObject({ method: "GET", path: "/api/user/profile" });
  });
});

describe("the request id in error answers", () => {
  it("REST: the envelope carries it (400, 404, 413)", async () => {
    const invalid = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "rest-400" },
      body: "{}",
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      success: false,
      error: expect.stringMatching(/e-mail/),
      fields: expect.arrayContaining([expect.objectContaining({ field: "email" })]),
      requestId: "rest-400",
    });

    const unknown = await fetch(`${app.url}/api/no-such-thing`);
    expect(await unknown.json()).toEqual({
      success: false,
      error: "Not found: GET /api/no-such-thing",
      requestId: unknown.headers.get("x-request-id"),
    });

    const tooLarge = await fetch(`${app.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", message: "x".repeat(1_100_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ success: false, requestId: tooLarge.headers.get("x-request-id") });
  });

  it("tRPC: BAD_REQUEST carries it in data.requestId", async () => {
    const response = await fetch(`${app.url}/trpc/auth.signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "trpc-400" },
      body: JSON.stringify({ email: "not-an-address" }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.error.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, requestId: "trpc-400" });
    expect(response.headers.get("x-request-id")).toBe("trpc-400");
  });

  it("GraphQL: every error carries it in extensions.requestId (a refused operation and a syntax error)", async () => {
    for (const [id, query] of [
      ["gql-401", "{ userProfile { id } }"],
      ["gql-syntax", "{ userProfile { "],
    ]) {
      const response = await fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": id! },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as any;
      expect(body.errors.length, JSON.stringify(body)).toBeGreaterThan(0);
      for (const error of body.errors) expect(error.extensions.requestId, JSON.stringify(body)).toBe(id);
    }
    const refused = requestLine("gql-401");
    expect(refused).toMatchObject({ path: "/graphql", operation: "user.profile" });
  });
});

describe("job lines", () => {
  const jobLines = (jobId: string) => lines().filter((line) => line.jobId === jobId);

  it("a run logs each step in order with its duration and outcome, the page it could not read, and its completion", {
    timeout: 90_000,
  }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      url: "https://nowhere.example/p?access_token=page-secret-5520",
      imagesOnly: true,
      concept: "Skates that fly",
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    const launchLine = requestLine(launched.requestId!);
    expect(launchLine).toMatchObject({ operation: "workflow.launch", status: 200, userId: user.id });

    await eventually(() => expect(jobLines(jobId).some((line) => line.msg === "job completed")).toBe(true), 60_000);
    const mine = jobLines(jobId);
    const steps = mine.filter((line) => line.msg === "job step");
    const stored = await app.services.prisma.jobStep.findMany({ where: { jobId }, orderBy: { completedAt: "asc" } });
    expect(steps.map((line) => line.step)).toEqual(stored.map((step) => step.name));
    expect(steps[0]!.step).toBe("read_page");
    for (const line of steps) {
      expect(line).toMatchObject({ level: "info", outcome: "done", durationMs: expect.any(Number) });
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(mine[0]).toMatchObject({ msg: "job started", userId: user.id, type: "cinematic", attempt: 1 });
    expect(mine.at(-1)).toMatchObject({ msg: "job completed", durationMs: expect.any(Number) });
    // The page that could not be read is a warning, without the URL's query string.
    const warning = mine.find((line) => line.msg === "job step warning");
    expect(warning).toMatchObject({
      level: "warn",
      step: "read_page",
      warning: expect.stringContaining("nowhere.example could not be resolved"),
    });
    expect(logText()).not.toContain("page-secret-5520");
  });

  it("a cancelled job logs its failure and the refund with the reason and the credits", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Cancel me", formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    const credits = launched.body.data.creditsUsed as number;
    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    const refund = await eventually(() => {
      const found = jobLines(jobId).find((line) => line.msg === "credits refunded");
      expect(found).toBeDefined();
      return found!;
    });
    expect(refund).toMatchObject({
      level: "info",
      userId: user.id,
      credits,
      cause: "cancelled",
      reason: `Cancelled by the user; ${credits} credit${credits === 1 ? "" : "s"} refunded`,
    });
    expect(jobLines(jobId).find((line) => line.msg === "job failed")).toMatchObject({ cause: "cancelled" });
  });
});

describe("the redaction safety net", () => {
  it("blanks secret-looking keys a call site passes by mistake, at the top and one level down", () => {
    const out: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => void out.push(line) } });
    logger.info(
      {
        password: "pw-1",
        headers: { cookie: "session=c-2", authorization: "Bearer t-3", "set-cookie": "session=c-4" },
        user: { apiKey: "ca_k-5", token: "t-6" },
        body: '{"password":"pw-7"}',
        jobId: "kept",
      },
      "mistake",
    );
    const line = JSON.parse(out.join(""));
    expect(line).toMatchObject({ password: "[redacted]", body: "[redacted]", jobId: "kept", msg: "mistake" });
    expect(line.headers).toEqual({ cookie: "[redacted]", authorization: "[redacted]", "set-cookie": "[redacted]" });
    expect(line.user).toEqual({ apiKey: "[redacted]", token: "[redacted]" });
  });
});

describe("stdout", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", ...args], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout }));
    });

  it("keeps every line logged just before process.exit, though lines are written asynchronously", { timeout: 30_000 }, async () => {
    const { code, stdout } = await run(["test/support/log-then-exit.ts", "3000"]);
    expect(code).toBe(3);
    const logged = stdout
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as Line);
    expect(logged).toHaveLength(3001);
    expect(logged.slice(0, 3000).map((line) => line.n)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect(logged.at(-1)).toMatchObject({ level: "info", msg: "the last line before exit" });
  });

  it("writes why the service could not start, naming the variable, before it exits", { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "adgen-log-start-"));
    try {
      const { code, stdout } = await run(["src/main.ts"], { DATA_DIR: dataDir, LOG_LEVEL: "loud", DATABASE_URL: "" });
      expect(code).toBe(1);
      const [line] = stdout
        .trim()
        .split("\n")
        .map((text) => JSON.parse(text) as Line);
      expect(line).toMatchObject({ level: "fatal" });
      expect(line!.msg).toMatch(/LOG_LEVEL: must be one of trace, debug, info/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("LOG_LEVEL", () => {
  it("accepts the pino levels in any case, defaults to info, and refuses anything else at start-up naming the variable", () => {
    const base = { DATA_DIR: "/tmp/adgen-log-level", SESSION_SECRET: "s".repeat(32) };
    expect(loadConfig(base).logLevel).toBe("info");
    expect(loadConfig({ ...base, LOG_LEVEL: "WARN" }).logLevel).toBe("warn");
    expect(loadConfig({ ...base, LOG_LEVEL: "silent" }).logLevel).toBe("silent");
    expect(() => loadConfig({ ...base, LOG_LEVEL: "loud" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, LOG_LEVEL: "loud" })).toThrow(
      /LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent/,
    );
  });
});
