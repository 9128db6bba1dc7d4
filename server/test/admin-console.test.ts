// The admin console's behaviour (SPEC 4.12) over REST: funnel arithmetic, stats, leads, agents, settings the
// service really reads (signup credits, trial days, signups flag, maintenance mode), the activity log, the
// integrity report finding what was changed behind the service's back, and the marketing workflows.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { funnelStages } from "../src/modules/admin/funnel.ts";
import { changeCredits, LedgerReason } from "../src/modules/credits/ledger.ts";
import { type Account, ADMIN_ENV, adminClient, logIn, PASSWORD, signUp } from "./support/accounts.ts";
import { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let adminId: string;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, JOB_LEASE_SECONDS: "5" });
  admin = await adminClient(app);
  adminId = (await admin.get("/auth/session")).body.data.userId;
});
afterAll(() => app?.close());

const prisma = () => app.services.prisma;

async function launch(account: Account) {
  const res = await account.client.post("/workflow", { type: "staticad", concept: "Cold brew for night shifts" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId as string;
}

async function setSettings(body: Record<string, unknown>) {
  const res = await admin.post("/admin/settings", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("funnel arithmetic", () => {
  it("divides each stage by the one before and by the signups, to one decimal, null over an empty stage", () => {
    expect(funnelStages({ signup: 3, login: 2, studio: 2, generate: 1, purchase: 0 }).map(({ definition, ...stage }) => stage)).toEqual([
      { stage: "signup", count: 3, conversionFromPrevious: null, conversionFromStart: 100 },
      { stage: "login", count: 2, conversionFromPrevious: 66.7, conversionFromStart: 66.7 },
      { stage: "studio", count: 2, conversionFromPrevious: 100, conversionFromStart: 66.7 },
      { stage: "generate", count: 1, conversionFromPrevious: 50, conversionFromStart: 33.3 },
      { stage: "purchase", count: 0, conversionFromPrevious: 0, conversionFromStart: 0 },
    ]);
    expect(funnelStages({ signup: 0, login: 0, studio: 0, generate: 0, purchase: 0 }).map((s) => s.conversionFromPrevious)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("counts a period's signups through login, studio, generate and purchase from what they did", async () => {
    const from = new Date().toISOString();
    const onlySignedUp = await signUp(app, "funnel-a");
    const cameBack = await signUp(app, "funnel-b");
    await logIn(app, cameBack.email, PASSWORD);
    const launched = await signUp(app, "funnel-c");
    await launch(launched);
    const paying = await signUp(app, "funnel-d");
    const jobId = await launch(paying);
    // What a worker's render would leave (this app runs no workers).
    await prisma().job.update({ where: { id: jobId }, data: { status: "completed", progress: 100, finishedAt: new Date() } });
    await prisma().$transaction((tx) =>
      changeCredits(tx, { userId: paying.id, delta: 25, reason: LedgerReason.purchase, reference: "pack_25" }),
    );
    // Bought credits but never used the studio: a strict funnel keeps it at the first stages only.
    const boughtOnly = await signUp(app, "funnel-e");
    await prisma().$transaction((tx) => changeCredits(tx, { userId: boughtOnly.id, delta: 10, reason: LedgerReason.purchase }));
    expect(onlySignedUp.id).toBeTruthy();

    const res = await admin.get(
      `/admin/funnel?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.stages.map(({ definition, ...stage }: { definition: string }) => stage)).toEqual([
      { stage: "signup", count: 5, conversionFromPrevious: null, conversionFromStart: 100 },
      { stage: "login", count: 3, conversionFromPrevious: 60, conversionFromStart: 60 },
      { stage: "studio", count: 2, conversionFromPrevious: 66.7, conversionFromStart: 40 },
      { stage: "generate", count: 1, conversionFromPrevious: 50, conversionFromStart: 20 },
      { stage: "purchase", count: 1, conversionFromPrevious: 100, conversionFromStart: 20 },
    ]);
    expect(res.body.data.stages[3].definition).toBe("of those, had at least one workflow complete");
  });

  it("refuses a period that ends before it starts, or a date it cannot read, with a 400 saying so", async () => {
    expect((await admin.get("/admin/funnel?from=2026-05-01&to=2026-04-01")).body).toEqual({
      success: false,
      error: "from must be before to",
    });
    const bad = await admin.get("/admin/stats?from=yesterday");
    expect([bad.status, bad.body.error]).toEqual([400, "from must be a date (YYYY-MM-DD) or an ISO date-time"]);
  });
});

describe("GET /admin/stats", () => {
  it("counts accounts by plan and status, the period's jobs by type and status, and credits granted and used", async () => {
    const before = (await admin.get("/admin/stats")).body.data;
    const user = await signUp(app, "stats");
    await launch(user);
    const after = (await admin.get("/admin/stats")).body.data;
    expect(after.users.total).toBe(before.users.total + 1);
    expect(after.users.byPlan.trial).toBe(before.users.byPlan.trial + 1);
    expect(after.users.byStatus.active).toBe(before.users.byStatus.active + 1);
    expect(after.jobs.byType.staticad).toBe(before.jobs.byType.staticad + 1);
    expect(after.jobs.byStatus.queued).toBe(before.jobs.byStatus.queued + 1);
    expect(after.credits.granted).toBe(before.credits.granted + 10);
    expect(after.credits.used).toBe(before.credits.used + 1);
    const today = new Date().toISOString().slice(0, 10);
    type Day = { day: string; jobs: number; creditsUsed: number; signups: number };
    const day = (data: { daily: Day[] }) => data.daily.find((d) => d.day === today)!;
    expect(day(after)).toEqual({
      day: today,
      jobs: day(before).jobs + 1,
      creditsUsed: day(before).creditsUsed + 1,
      signups: day(before).signups + 1,
    });
  });
});

describe("GET /admin/revenue", () => {
  async function buy(user: Account, body: { packId: string } | { planId: string; interval?: string }) {
    const path = "packId" in body ? "/user/credits/purchase" : "/checkout/stripe";
    const { orderId } = (await user.client.post(path, body)).body.data;
    const paid = await user.client.post(`/checkout/sandbox/${orderId}`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: orderId } });
    // 64-bit in the database; the API states cents as numbers.
    return { ...order, amountCents: Number(order.amountCents) };
  }

  it("sums paid orders by provider, plan and pack, and by day, week or month", async () => {
    const buyer = await signUp(app, "buyer");
    const ten = await buy(buyer, { packId: "pack_10" });
    const twentyFive = await buy(buyer, { packId: "pack_25" });
    const plan = await buy(buyer, { planId: "subscription_pro", interval: "monthly" });
    // Started but never paid: not revenue.
    await buyer.client.post("/user/credits/purchase", { packId: "pack_100" });

    const total = ten.amountCents + twentyFive.amountCents + plan.amountCents;
    const res = await admin.get("/admin/revenue?interval=week");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ interval: "week", totalCents: total, orders: 3, refundedCents: 0, currency: ten.currency.toLowerCase() });
    expect(data.byProvider).toEqual([{ key: ten.provider, amountCents: total, orders: 3 }]);
    expect(data.byPack).toEqual(
      [
        { key: "pack_10", amountCents: ten.amountCents, orders: 1 },
        { key: "pack_25", amountCents: twentyFive.amountCents, orders: 1 },
      ].sort((a, b) => b.amountCents - a.amountCents),
    );
    expect(data.byPlan).toEqual([{ key: "subscription_pro (monthly)", amountCents: plan.amountCents, orders: 1 }]);
    // Weeks start on Monday; every week of the period is listed, and they add up to the total.
    expect(data.series.every((w: { bucket: string }) => new Date(`${w.bucket}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(data.series.reduce((sum: number, w: { amountCents: number }) => sum + w.amountCents, 0)).toBe(total);
    const days = (await admin.get("/admin/revenue?interval=day")).body.data.series;
    expect(days).toHaveLength(31);
    expect(days.at(-1)).toEqual({ bucket: new Date().toISOString().slice(0, 10), amountCents: total, orders: 3 });

    const bad = await admin.get("/admin/revenue?interval=year");
    expect([bad.status, bad.body.error]).toEqual([400, "interval must be day, week or month"]);
  });
});

describe("leads", () => {
  it("adds a valid lead once per e-mail, whatever its case, and lists and searches them", async () => {
    const first = await admin.post("/admin/leads", { email: "Jo.Buyer@Example.com", name: "Jo Buyer" });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      created: true,
      lead: { email: "jo.buyer@example.com", name: "Jo Buyer", company: null, source: "manual" },
    });
    const again = await admin.post("/admin/leads", { email: "jo.buyer@EXAMPLE.com", company: "Buyer & Co" });
    expect(again.body.data).toMatchObject({
      created: false,
      lead: { id: first.body.data.lead.id, name: "Jo Buyer", company: "Buyer & Co" },
    });
    expect(await prisma().lead.count({ where: { email: "jo.buyer@example.com" } })).toBe(1);

    const found = await admin.get("/admin/leads?search=buyer%20%26");
    expect(found.body.data).toMatchObject({ total: 1, leads: [{ email: "jo.buyer@example.com" }] });
  });

  it("refuses an invalid lead with a message naming the field", async () => {
    const bad = await admin.post("/admin/leads", { email: "not-an-address" });
    expect([bad.status, bad.body.error]).toEqual([400, "email must be an e-mail address"]);
    const source = await admin.post("/admin/leads", { email: "ok@example.com", source: "radio" });
    expect([source.status, source.body.error]).toEqual([400, "source must be one of manual, signup, contact, newsletter"]);
  });
});

describe("agents", () => {
  it("lists the four agents, and a trigger runs one now: its last run changes and it does its duty", async () => {
    const list = await admin.get("/admin/agents");
    expect(list.body.data.agents.map((a: { id: string }) => a.id)).toEqual([
      "review-expiry",
      "orphaned-jobs",
      "webhook-retries",
      "performance-decay",
    ]);
    const before = list.body.data.agents[0];

    // A review that has waited past the timeout: the review-expiry agent fails and refunds it.
    const owner = await signUp(app, "review");
    const jobId = await launch(owner);
    await prisma().job.update({
      where: { id: jobId },
      data: { status: "awaiting_review", hitl: true, reviewRequestedAt: new Date(Date.now() - 2 * 86_400_000) },
    });
    const triggered = await admin.post("/admin/agents/review-expiry/trigger");
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(200);
    expect(triggered.body.data).toMatchObject({
      id: "review-expiry",
      status: "ok",
      runs: before.runs + 1,
      trigger: "admin",
      lastError: null,
      lastResult: { expired: 1 },
    });
    expect(triggered.body.data.lastRunAt).not.toBe(before.lastRunAt);
    expect(Date.parse(triggered.body.data.nextRunAt)).toBeGreaterThan(Date.parse(triggered.body.data.lastRunAt));
    expect(await prisma().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "failed", reviewDecision: "expired" });
    expect((await owner.client.get("/user/credits")).body.data.balance).toBe(10);

    const after = (await admin.get("/admin/agents")).body.data.agents[0];
    expect(after.lastRunAt).toBe(triggered.body.data.lastRunAt);
  });

  it("runs the performance-decay scan: 0 creatives without data, then finds the creative whose click-through fell", async () => {
    const empty = await admin.post("/admin/agents/performance-decay/trigger");
    expect(empty.body.data).toMatchObject({ status: "ok", lastResult: { creativesScanned: 0, decaying: 0, examples: [] } });

    const owner = await signUp(app, "perf");
    const sql = app.services.db.sql;
    const creative = async (key: string, ctrByDay: (daysAgo: number) => number) => {
      const id = randomUUID();
      await sql.query("INSERT INTO performance_creatives (id, user_id, key) VALUES ($1, $2, $3)", [id, owner.id, key]);
      for (let daysAgo = 0; daysAgo < 10; daysAgo++) {
        await sql.query(
          `INSERT INTO performance_metrics (id, creative_id, day, impressions, clicks, conversions, spend_cents, revenue_cents, updated_at)
           VALUES ($1, $2, current_date - $3::int, 1000, $4, 0, 0, 0, now())`,
          [randomUUID(), id, daysAgo, Math.round(1000 * ctrByDay(daysAgo))],
        );
      }
      return id;
    };
    const tired = await creative("tired-ad", (daysAgo) => (daysAgo < 3 ? 0.005 : 0.02));
    await creative("steady-ad", () => 0.02);
    const res = await admin.post("/admin/agents/performance-decay/trigger");
    expect(res.body.data).toMatchObject({
      status: "ok",
      lastResult: {
        creativesScanned: 2,
        decaying: 1,
        examples: [{ creativeId: tired, key: "tired-ad", ctrBeforePercent: 2, ctrRecentPercent: 0.5 }],
      },
    });
  });

  it("re-queues a pending webhook delivery whose queue message was lost", async () => {
    const owner = await signUp(app, "hooks");
    const delivery = await prisma().webhookDelivery.create({
      data: {
        userId: owner.id,
        url: "https://hooks.example.com/in",
        eventKind: "workflow.completed",
        payload: {},
        createdAt: new Date(Date.now() - 600_000),
      },
    });
    const res = await admin.post("/admin/agents/webhook-retries/trigger");
    expect(res.body.data).toMatchObject({ status: "ok", lastResult: { pending: 1, requeued: 1 } });
    const live = await app.services.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook' AND data->>'deliveryId' = $1",
      [delivery.id],
    );
    expect(Number(live[0]!.n)).toBe(1);
    // Its message is live now: a second run leaves it alone.
    expect((await admin.post("/admin/agents/webhook-retries/trigger")).body.data.lastResult).toEqual({ pending: 1, requeued: 0 });
    await prisma().webhookDelivery.delete({ where: { id: delivery.id } });
  });

  it("answers 404 naming the agents for an unknown agent id", async () => {
    const res = await admin.post("/admin/agents/coffee-maker/trigger");
    expect([res.status, res.body.error]).toEqual([
      404,
      "Agent not found: coffee-maker. Agents: review-expiry, orphaned-jobs, webhook-retries, performance-decay",
    ]);
  });
});

describe("settings", () => {
  it("change what a new account gets: signup credits and trial days", async () => {
    const view = await setSettings({ signupCredits: 25, trialDays: 3 });
    expect(view.settings).toMatchObject({ signupCredits: 25, trialDays: 3 });
    expect(view.sources).toMatchObject({ signupCredits: "admin", trialDays: "admin", maintenanceMode: "default" });
    const user = await signUp(app, "settings");
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(25);
    const row = await prisma().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(Math.round((row.trialEndsAt!.getTime() - row.createdAt.getTime()) / 86_400_000)).toBe(3);
    // The public price list says so too.
    expect((await user.client.get("/config/pricing")).body.data.trial).toEqual({ days: 3, credits: 25 });

    const audit = await prisma().auditLog.findFirstOrThrow({
      where: { action: "admin.settings_updated", actorId: adminId },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.metadata).toEqual({ changes: { signupCredits: 25, trialDays: 3 }, before: { signupCredits: 10, trialDays: 7 } });
    await setSettings({ signupCredits: 10, trialDays: 7 });
  });

  it("refuses invalid values and unknown settings with a message saying what to fix", async () => {
    const cases: [unknown, string][] = [
      [{ signupCredits: -1 }, "signupCredits must be 0 or more"],
      [{ trialDays: 1.5 }, "trialDays must be a whole number"],
      [{ colour: "red" }, "unknown setting: colour"],
      [{ featureFlags: { teleport: true } }, "unknown feature flag: teleport"],
      [{}, "give at least one of signupCredits, trialDays, maintenanceMode, maintenanceMessage, featureFlags"],
    ];
    for (const [body, error] of cases) {
      const res = await admin.post("/admin/settings", body);
      expect([JSON.stringify(body), res.status, res.body.error]).toEqual([JSON.stringify(body), 400, error]);
    }
  });

  it("closes signups with the signups flag", async () => {
    await setSettings({ featureFlags: { signups: false } });
    const res = await new RestClient(app.url).post("/auth/signup", { email: "late@example.com", password: PASSWORD });
    expect([res.status, res.body.error]).toEqual([403, "New signups are closed for now. Please try again later."]);
    const view = await setSettings({ featureFlags: { signups: true } });
    expect(view.settings.featureFlags).toEqual({ signups: true, marketing: true });
  });

  it("maintenance mode: non-admins can read but every change answers 503 with the message; admins keep working", async () => {
    const user = await signUp(app, "maint");
    await setSettings({ maintenanceMode: true, maintenanceMessage: "Back at 06:00 UTC." });
    try {
      expect((await user.client.get("/user/credits")).status).toBe(200);
      const write = await user.client.post("/user/provider-preference", { preference: "fal" });
      expect([write.status, write.body]).toEqual([503, { success: false, error: "Back at 06:00 UTC." }]);
      const launchRes = await user.client.post("/workflow", { type: "staticad", concept: "x" });
      expect(launchRes.status).toBe(503);
      const signup = await new RestClient(app.url).post("/auth/signup", { email: "maint-new@example.com", password: PASSWORD });
      expect(signup.status).toBe(503);
      // Signing in still works (an admin must be able to sign in to end maintenance).
      await logIn(app, user.email, PASSWORD);
      expect((await admin.post("/admin/leads", { email: "during-maintenance@example.com" })).status).toBe(200);
    } finally {
      await setSettings({ maintenanceMode: false });
    }
    expect((await user.client.post("/user/provider-preference", { preference: "fal" })).status).toBe(200);
  });
});

describe("system and health", () => {
  it("shows the queue holding a launched job, the agents as scheduled tasks, and storage use", async () => {
    const before = (await admin.get("/admin/system")).body.data;
    await launch(await signUp(app, "system"));
    const after = (await admin.get("/admin/system")).body.data;
    const workflow = (data: { queues: { name: string; depth: number }[] }) => data.queues.find((q) => q.name === "workflow")!.depth;
    expect(workflow(after)).toBe(workflow(before) + 1);
    expect(after.scheduledTasks.map((t: { id: string }) => t.id)).toEqual([
      "review-expiry",
      "orphaned-jobs",
      "webhook-retries",
      "performance-decay",
    ]);
    expect(after.storage.freeBytes).toBeGreaterThan(0);
    expect(after.database.engine).toBe(app.services.db.engine);
  });

  it("checks each dependency now, with its latency, and says which providers are not configured", async () => {
    const health = (await admin.get("/admin/health")).body.data;
    const check = (name: string) => health.checks.find((c: { name: string }) => c.name === name);
    for (const name of ["database", "queue", "ffmpeg"]) expect(check(name)).toMatchObject({ status: "ok", latencyMs: expect.any(Number) });
    expect(check("ffmpeg").detail).toMatch(/^ffmpeg version/);
    expect(["ok", "degraded"]).toContain(check("storage").status);
    expect(check("storage").detail).toMatch(/GiB free of/);
    expect(check("provider: fal")).toMatchObject({ status: "unconfigured", detail: "not configured (pictures)" });
    expect(check("provider: stripe").detail).toBe("not configured (payments); the built-in sandbox checkout is used");
  });
});

describe("GET /admin/activity", () => {
  it("pages the audit trail newest first and filters by account, action (or prefix) and date", async () => {
    const user = await signUp(app, "activity");
    await logIn(app, user.email, PASSWORD);
    const mine = await admin.get(`/admin/activity?userId=${user.id}`);
    expect(mine.body.data.entries.map((e: { action: string }) => e.action)).toEqual(["auth.login", "auth.signup"]);
    expect(mine.body.data.entries[0]).toMatchObject({ actorId: user.id, actorEmail: user.email });

    const logins = await admin.get(`/admin/activity?userId=${user.id}&action=auth.login`);
    expect(logins.body.data.total).toBe(1);
    const prefix = await admin.get(`/admin/activity?userId=${user.id}&action=auth.`);
    expect(prefix.body.data.total).toBe(2);

    const paged = await admin.get(`/admin/activity?userId=${user.id}&pageSize=1&page=2`);
    expect(paged.body.data).toMatchObject({ page: 2, pageSize: 1, total: 2, totalPages: 2, entries: [{ action: "auth.signup" }] });

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await admin.get(`/admin/activity?userId=${user.id}&from=${tomorrow}`)).body.data.total).toBe(0);
  });
});

describe("GET /integrity", () => {
  it("finds a ledger row inserted behind the service's back, a refund without a charge, stuck jobs and lost or orphaned files", async () => {
    const clean = (await admin.get("/integrity")).body.data;
    expect(clean).toMatchObject({ ledgerMismatches: { count: 0 }, refundsWithoutCharge: { count: 0 }, jobsStuckPastLease: { count: 0 } });

    const victim = await signUp(app, "integrity");
    await app.services.db.sql.query(
      "INSERT INTO credit_ledger (id, user_id, delta, balance_after, reason, reference) VALUES ($1, $2, 50, 60, 'workflow_refund', 'no-such-job')",
      [randomUUID(), victim.id],
    );
    const stuckJob = await launch(await signUp(app, "stuck"));
    await prisma().job.update({
      where: { id: stuckJob },
      data: { status: "processing", leaseOwner: "dead-worker", heartbeatAt: new Date(Date.now() - 3600_000) },
    });
    const lostJob = await launch(await signUp(app, "lost"));
    await prisma().job.update({
      where: { id: lostJob },
      data: { status: "completed", result: { assets: [{ url: `${app.config.publicUrl}/api/media/${lostJob}/final.mp4` }] } },
    });
    const strayId = randomUUID();
    const strayDir = join(app.config.dataDir, "media", "jobs", strayId);
    mkdirSync(strayDir, { recursive: true });
    writeFileSync(join(strayDir, "final.mp4"), "not a job's");

    const report = (await admin.get("/integrity")).body.data;
    expect(report.ok).toBe(false);
    expect(report.ledgerMismatches).toEqual({
      count: 1,
      examples: [{ userId: victim.id, email: victim.email, balance: 10, ledgerSum: 60 }],
    });
    expect(report.refundsWithoutCharge).toMatchObject({ count: 1, examples: [{ userId: victim.id, reference: "no-such-job", delta: 50 }] });
    expect(report.jobsStuckPastLease).toMatchObject({ count: 1, examples: [{ jobId: stuckJob, status: "processing" }] });
    expect(report.jobsWithMissingFiles).toEqual({ count: 1, examples: [{ jobId: lostJob, missing: ["final.mp4"] }] });
    expect(report.orphanedMediaFiles).toEqual({ count: 1, examples: [{ key: `jobs/${strayId}/final.mp4`, bytes: 11 }] });
  });
});

describe("marketing", () => {
  it("drafts a blog post, builds a lead list from signups, and launches the house account's ad through the real workflow", async () => {
    const signup = await signUp(app, "prospect");
    const res = await admin.post("/admin/marketing/generate", {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [blog, ad, leads] = res.body.data.runs;
    expect(blog).toMatchObject({ kind: "blog", status: "completed" });
    expect(blog.output.markdown).toContain("# Video ads in every social format");
    expect(blog.output.markdown).toContain("**Static Ad** (1 credit)");
    expect(leads).toMatchObject({ kind: "leads", status: "completed" });
    expect(leads.output.added).toBeGreaterThanOrEqual(1);
    expect(await prisma().lead.findUnique({ where: { email: signup.email } })).toMatchObject({ source: "signup" });

    expect(ad).toMatchObject({
      kind: "ad",
      status: "running",
      output: { houseAccount: "house-account@adgen.internal", jobStatus: "queued" },
    });
    const job = await prisma().job.findUniqueOrThrow({ where: { id: ad.jobId }, include: { user: true } });
    expect(job).toMatchObject({ type: "staticad", status: "queued", user: { email: "house-account@adgen.internal" } });

    // The status follows the job: the run completes with the job's files when the job does.
    await prisma().job.update({
      where: { id: ad.jobId },
      data: { status: "completed", finishedAt: new Date(), result: { assets: [{ url: "https://example.com/a.png" }] } },
    });
    const status = await admin.get("/admin/marketing/generate");
    const adRun = status.body.data.runs.find((run: { id: string }) => run.id === ad.id);
    expect(adRun).toMatchObject({
      status: "completed",
      output: { jobStatus: "completed", assets: [{ url: "https://example.com/a.png" }] },
    });
  });

  it("refuses while the marketing flag is off, and an unknown kind with a 400", async () => {
    await setSettings({ featureFlags: { marketing: false } });
    const off = await admin.post("/admin/marketing/generate", { kinds: ["blog"] });
    expect([off.status, off.body.error]).toEqual([403, "The marketing workflows are turned off in settings (feature flag `marketing`)"]);
    await setSettings({ featureFlags: { marketing: true } });
    const bad = await admin.post("/admin/marketing/generate", { kinds: ["billboard"] });
    expect([bad.status, bad.body.error]).toEqual([400, "kinds must be among blog, ad, leads"]);
  });
});
