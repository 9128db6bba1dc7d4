// The shared queue between accounts: a job reaches the queue (gets a message) only while its account has
// fewer admitted, unfinished jobs than its plan allows; the rest wait in the account's own line. A
// cancel deletes the job's message, so no worker spends time on it, and one account's burst does not
// hold up another account's first job.
import { waitFor as poll } from "./support/wait-for.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concurrentJobsFor } from "@adgen/schema";
import { admitJobs, admitWaitingJobs } from "../src/modules/workflows/launch/enqueue.ts";
import { runWorkflowJob } from "../src/modules/workflows/pipeline/run-job.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

async function grant(admin: RestClient, account: Account, amount: number) {
  const res = await admin.post(`/admin/users/${account.id}/credits`, { amount, reason: "queue fairness tests" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function setPlan(admin: RestClient, account: Account, plan: string) {
  const res = await admin.patch(`/admin/users/${account.id}`, { current_plan_id: plan });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function launchMany(account: Account, count: number): Promise<string[]> {
  const ids: string[] = [];
  // In order (one after another), so the account's line has a known order.
  for (let i = 0; i < count; i++) {
    const res = await account.client.post("/workflow", { type: "staticad", concept: `Burst ${i}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.data.jobId);
  }
  return ids;
}

/** Messages pg-boss holds (in any state) for these jobs. */
async function messagesFor(app: TestApp, jobIds: string[]): Promise<string[]> {
  const rows = await app.services.db.sql.query<{ job_id: string }>(
    `SELECT data->>'jobId' AS job_id FROM pgboss.job WHERE name = 'workflow' AND data->>'jobId' = ANY($1::text[])`,
    [jobIds],
  );
  return rows.map((r) => r.job_id);
}

/** Jobs among these that hold one of their account's slots: running, or admitted and on the queue. */
async function holdingSlots(app: TestApp, jobIds: string[]): Promise<number> {
  return app.services.prisma.job.count({
    where: { id: { in: jobIds }, OR: [{ status: "processing" }, { status: "queued", admittedAt: { not: null } }] },
  });
}

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000) =>
  poll(what, probe, timeoutMs, 50);

describe("admission and cancel, without workers", () => {
  let app: TestApp;
  let admin: RestClient;
  beforeAll(async () => {
    app = await startTestApp({ ...ADMIN_ENV, WORKERS: "0" });
    admin = await adminClient(app);
  });
  afterAll(() => app?.close());

  it("the pricing publishes each plan's concurrent jobs", async () => {
    const res = await admin.get("/config/pricing");
    expect(res.status).toBe(200);
    const plans = Object.fromEntries(res.body.data.plans.map((p: any) => [p.id, p.concurrentJobs]));
    expect(plans).toEqual({
      free: 1,
      trial: 1,
      subscription_starter: 2,
      subscription_pro: 2,
      subscription_agency: 4,
      subscription_enterprise: 8,
    });
    for (const pack of res.body.data.packs) expect(pack.concurrentJobs).toBe(concurrentJobsFor(pack.id));
  });

  it("only the plan's number of jobs get a queue message; cancelling removes every message, and each cancel admits the next", {
    timeout: 120_000,
  }, async () => {
    const user = await signUp(app, "cancel-burst");
    await setPlan(admin, user, "subscription_enterprise");
    await grant(admin, user, 100);
    const limit = concurrentJobsFor("subscription_enterprise");
    const jobIds = await launchMany(user, 24);

    // The oldest `limit` jobs are admitted, with one message each; the others wait without one.
    expect((await messagesFor(app, jobIds)).sort()).toEqual(jobIds.slice(0, limit).sort());
    const waiting = await app.services.prisma.job.count({ where: { id: { in: jobIds }, status: "queued", admittedAt: null } });
    expect(waiting).toBe(24 - limit);

    // Cancelling an admitted job deletes its message and admits the account's oldest waiting job.
    const first = await user.client.post("/workflow/cancel", { jobId: jobIds[0] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await messagesFor(app, jobIds)).sort()).toEqual(jobIds.slice(1, limit + 1).sort());

    // Cancel the rest (newest first, the way a client clears its backlog, and several at once).
    const rest = jobIds.slice(1).reverse();
    for (let i = 0; i < rest.length; i += 5) {
      const answers = await Promise.all(rest.slice(i, i + 5).map((jobId) => user.client.post("/workflow/cancel", { jobId })));
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await messagesFor(app, jobIds)).toEqual([]);
    const jobs = await app.services.prisma.job.findMany({ where: { id: { in: jobIds } } });
    expect(jobs.every((j) => j.status === "failed" && j.refundedAt !== null)).toBe(true);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(110);
  });

  it("admissions racing (as from several instances) never put more of an account's jobs on the queue than its plan allows", {
    timeout: 120_000,
  }, async () => {
    const user = await signUp(app, "racing");
    await grant(admin, user, 20);
    const jobIds = await launchMany(user, 10);
    expect(await messagesFor(app, jobIds)).toEqual([jobIds[0]]); // trial: one slot
    // An upgrade gives the account three more slots; twenty admissions race for them on separate
    // connections (on PostgreSQL truly in parallel), along with the sweep's.
    await setPlan(admin, user, "subscription_agency");
    const limit = concurrentJobsFor("subscription_agency");
    const counts = await Promise.all([
      ...Array.from({ length: 20 }, () => admitJobs(app.services, user.id)),
      admitWaitingJobs(app.services),
      admitWaitingJobs(app.services),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(limit - 1);
    expect(await holdingSlots(app, jobIds)).toBe(limit);
    // The oldest ones, each with exactly one message.
    expect((await messagesFor(app, jobIds)).sort()).toEqual(jobIds.slice(0, limit).sort());
    for (const jobId of jobIds) expect((await user.client.post("/workflow/cancel", { jobId })).status).toBe(200);
    expect(await messagesFor(app, jobIds)).toEqual([]);
  });

  it("a message that still arrives for a cancelled job is dropped at once: nothing is claimed or run", async () => {
    const user = await signUp(app, "late-message");
    const [jobId] = await launchMany(user, 1);
    expect(await messagesFor(app, [jobId!])).toHaveLength(1);
    expect((await user.client.post("/workflow/cancel", { jobId })).status).toBe(200);
    expect(await messagesFor(app, [jobId!])).toEqual([]);
    // As if a worker received the message anyway (one sent by a racing admission).
    const started = Date.now();
    await runWorkflowJob(app.services, jobId!);
    expect(Date.now() - started).toBeLessThan(1000);
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId! } });
    expect(job).toMatchObject({ status: "failed", attempts: 0, leaseOwner: null, startedAt: null });
    expect(await app.services.prisma.jobEvent.count({ where: { jobId: jobId!, kind: "workflow.started" } })).toBe(0);
  });
});

describe("fairness between accounts, one worker", () => {
  let app: TestApp;
  let admin: RestClient;
  beforeAll(async () => {
    app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1" });
    admin = await adminClient(app);
  });
  afterAll(() => app?.close());

  it("another account's job starts while the first account still has most of its 30 jobs queued", { timeout: 120_000 }, async () => {
    const a = await signUp(app, "burst");
    await grant(admin, a, 30);
    const burst = await launchMany(a, 30);
    // A trial account has one slot: one job on the queue, the rest in its own line.
    expect(await holdingSlots(app, burst)).toBeLessThanOrEqual(1);

    const b = await signUp(app, "patient");
    const launched = await b.client.post("/workflow", { type: "staticad", concept: "My first ad" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;

    await waitFor("B's job to start", async () => {
      const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      return job.status !== "queued" || (await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.started" } })) > 0;
    });
    const stillQueued = await app.services.prisma.job.count({ where: { id: { in: burst }, status: "queued" } });
    expect(stillQueued, `B's job started with ${stillQueued} of A's 30 jobs still queued`).toBeGreaterThanOrEqual(20);

    // And B's job finishes too; A's line keeps moving afterwards.
    const done = await waitFor("B's job to finish", async () => {
      const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      return job.status === "completed" || job.status === "failed" ? job : null;
    });
    expect(done.status, done.error ?? "").toBe("completed");
    await waitFor("A's next job to start after B's", async () => {
      const n = await app.services.prisma.job.count({ where: { id: { in: burst }, status: { in: ["processing", "completed"] } } });
      return n > 30 - stillQueued;
    });
    // Never more of A's jobs on the queue or running than its plan allows.
    expect(await holdingSlots(app, burst)).toBeLessThanOrEqual(1);
    // Leave nothing running behind.
    for (const id of burst) await a.client.post("/workflow/cancel", { jobId: id });
  });

  it("async: false still waits for the job and answers its result", { timeout: 60_000 }, async () => {
    const c = await signUp(app, "sync");
    const res = await c.client.post("/workflow", { type: "staticad", concept: "Wait for it", async: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("completed");
  });
});
