// Every admin-console operation (SPEC 4.12) on every transport: the admin's happy path, 403 `admin access
// required` for a signed-in non-admin, 401 for an anonymous caller, and an audit row for each admin call.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { ADMIN_ENV } from "./support/accounts.ts";

let app: TestApp;
let adminJwt: string;
let adminId: string;
let userJwt: string;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  const admin = await adminClient(app);
  adminJwt = admin.cookie!;
  adminId = (await admin.get("/auth/session")).body.data.userId;
  userJwt = (await signUp(app, "plain")).jwt;
});
afterAll(() => app?.close());

interface Case {
  /** The operation's key in the `admin` area. */
  key: string;
  kind: "query" | "mutation";
  rest: [method: string, path: string];
  input: Record<string, unknown>;
  graphql: string;
  /** What the answer must hold, whichever transport carried it. */
  check(data: any): void;
  /** The audit action an admin's call records. */
  audit: string;
}

const CASES: Case[] = [
  {
    key: "stats",
    kind: "query",
    rest: ["GET", "/admin/stats?from=2026-01-01&to=2026-12-31"],
    input: { from: "2026-01-01", to: "2026-12-31" },
    graphql: `{ adminStats(from: "2026-01-01", to: "2026-12-31") { users { total byPlan { trial } } jobs { total } credits { granted used } } }`,
    check: (data) => expect(data.users.total).toBeGreaterThanOrEqual(2),
    audit: "admin.stats_viewed",
  },
  {
    key: "revenue",
    kind: "query",
    rest: ["GET", "/admin/revenue?interval=month"],
    input: { interval: "month" },
    graphql: `{ adminRevenue(interval: month) { totalCents orders byProvider { key amountCents } series { bucket } } }`,
    check: (data) => expect(data.totalCents).toBe(0),
    audit: "admin.revenue_viewed",
  },
  {
    key: "funnel",
    kind: "query",
    rest: ["GET", "/admin/funnel"],
    input: {},
    graphql: `{ adminFunnel { stages { stage count conversionFromPrevious } } }`,
    check: (data) =>
      expect(data.stages.map((s: { stage: string }) => s.stage)).toEqual(["signup", "login", "studio", "generate", "purchase"]),
    audit: "admin.funnel_viewed",
  },
  {
    key: "leads",
    kind: "query",
    rest: ["GET", "/admin/leads"],
    input: {},
    graphql: `{ adminLeads { total leads { email } } }`,
    check: (data) => expect(data.total).toBeGreaterThanOrEqual(0),
    audit: "admin.leads_viewed",
  },
  {
    key: "addLead",
    kind: "mutation",
    rest: ["POST", "/admin/leads"],
    input: { email: "transport-lead@example.com", name: "Transport Lead" },
    graphql: `mutation { adminAddLead(email: "transport-lead@example.com", name: "Transport Lead") { created lead { email } } }`,
    check: (data) => expect(data.lead.email).toBe("transport-lead@example.com"),
    audit: "admin.lead_",
  },
  {
    key: "agents",
    kind: "query",
    rest: ["GET", "/admin/agents"],
    input: {},
    graphql: `{ adminAgents { agents { id status } } }`,
    check: (data) => expect(data.agents).toHaveLength(4),
    audit: "admin.agents_viewed",
  },
  {
    key: "triggerAgent",
    kind: "mutation",
    rest: ["POST", "/admin/agents/performance-decay/trigger"],
    input: { agentId: "performance-decay" },
    graphql: `mutation { adminTriggerAgent(agentId: "performance-decay") { id status lastRunAt } }`,
    check: (data) => expect(data).toMatchObject({ id: "performance-decay", status: "ok" }),
    audit: "admin.agent_triggered",
  },
  {
    key: "settings",
    kind: "query",
    rest: ["GET", "/admin/settings"],
    input: {},
    graphql: `{ adminSettings { settings { signupCredits trialDays maintenanceMode featureFlags { signups marketing } } } }`,
    check: (data) => expect(data.settings).toMatchObject({ signupCredits: 10, trialDays: 7, maintenanceMode: false }),
    audit: "admin.settings_viewed",
  },
  {
    key: "updateSettings",
    kind: "mutation",
    rest: ["POST", "/admin/settings"],
    input: { trialDays: 7 },
    graphql: `mutation { adminUpdateSettings(trialDays: 7) { settings { trialDays } } }`,
    check: (data) => expect(data.settings.trialDays).toBe(7),
    audit: "admin.settings_updated",
  },
  {
    key: "system",
    kind: "query",
    rest: ["GET", "/admin/system"],
    input: {},
    graphql: `{ adminSystem { queues { name depth } storage { mediaFiles } } }`,
    check: (data) => expect(data.queues.map((q: { name: string }) => q.name)).toEqual(expect.arrayContaining(["workflow", "webhook"])),
    audit: "admin.system_viewed",
  },
  {
    key: "health",
    kind: "query",
    rest: ["GET", "/admin/health"],
    input: {},
    graphql: `{ adminHealth { status checks { name status latencyMs } } }`,
    check: (data) =>
      expect(data.checks.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["database", "queue", "storage", "ffmpeg"])),
    audit: "admin.health_viewed",
  },
  {
    key: "activity",
    kind: "query",
    rest: ["GET", "/admin/activity?pageSize=5"],
    input: { pageSize: 5 },
    graphql: `{ adminActivity(pageSize: 5) { total entries { action } } }`,
    check: (data) => expect(data.total).toBeGreaterThan(0),
    audit: "admin.activity_viewed",
  },
  {
    key: "marketing",
    kind: "query",
    rest: ["GET", "/admin/marketing/generate"],
    input: {},
    graphql: `{ adminMarketing { runs { kind status } } }`,
    check: (data) => expect(Array.isArray(data.runs)).toBe(true),
    audit: "admin.marketing_viewed",
  },
  {
    key: "generateMarketing",
    kind: "mutation",
    rest: ["POST", "/admin/marketing/generate"],
    input: { kinds: ["blog"] },
    graphql: `mutation { adminGenerateMarketing(kinds: [blog]) { runs { kind status output } } }`,
    check: (data) => expect(data.runs).toEqual([expect.objectContaining({ kind: "blog", status: "completed" })]),
    audit: "admin.marketing_generated",
  },
  {
    key: "integrity",
    kind: "query",
    rest: ["GET", "/integrity"],
    input: {},
    graphql: `{ adminIntegrity { ok accountsChecked ledgerMismatches { count } } }`,
    check: (data) => expect(data.accountsChecked).toBeGreaterThanOrEqual(2),
    audit: "admin.integrity_checked",
  },
];

const gqlField = (key: string) => `admin${key[0]!.toUpperCase()}${key.slice(1)}`;

async function viaRest(c: Case, jwt: string | null) {
  const client = new RestClient(app.url, jwt ? { bearer: jwt } : {});
  const res = await client.call(c.rest[0], c.rest[1], c.rest[0] === "GET" ? undefined : c.input);
  return res.body.success ? { ok: true as const, data: res.body.data } : { ok: false as const, status: res.status, error: res.body.error };
}

async function viaTrpc(c: Case, jwt: string | null) {
  const procedure = (trpcClient(app.url, jwt ?? undefined) as any).admin[c.key];
  try {
    const data = c.kind === "query" ? await procedure.query(c.input) : await procedure.mutate(c.input);
    return { ok: true as const, data };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    return { ok: false as const, status: (error.data as { httpStatus: number }).httpStatus, error: error.message };
  }
}

async function viaGraphql(c: Case, jwt: string | null) {
  const res = await graphql(app.url, c.graphql, {}, jwt ?? undefined);
  const error = res.body.errors?.[0];
  if (!error) return { ok: true as const, data: (res.body.data as Record<string, unknown>)[gqlField(c.key)] };
  return { ok: false as const, status: error.extensions?.status, error: error.message };
}

const TRANSPORTS = { rest: viaRest, trpc: viaTrpc, graphql: viaGraphql } as const;

describe.each(Object.entries(TRANSPORTS))("admin console over %s", (_transport, call) => {
  it.each(CASES.map((c) => [c.key, c] as const))("admin.%s: an admin's call answers and is audited", async (_key, c) => {
    const before = new Date();
    const result = await call(c, adminJwt);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    if (result.ok) c.check(result.data);
    const rows = await app.services.prisma.auditLog.findMany({
      where: { actorId: adminId, action: { startsWith: c.audit }, createdAt: { gte: before } },
    });
    expect(rows.length, `audit ${c.audit}`).toBeGreaterThanOrEqual(1);
  });

  it.each(CASES.map((c) => [c.key, c] as const))("admin.%s: a non-admin gets 403 admin access required", async (_key, c) => {
    expect(await call(c, userJwt)).toEqual({ ok: false, status: 403, error: "admin access required" });
  });

  it.each(CASES.map((c) => [c.key, c] as const))("admin.%s: an anonymous caller gets 401", async (_key, c) => {
    expect(await call(c, null)).toEqual({ ok: false, status: 401, error: "Authentication required" });
  });
});
