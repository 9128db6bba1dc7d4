// The credit ledger under launches that race: no overdraft, one charge per job, Idempotency-Key replays,
// and refunds that happen exactly once (cancel of a queued job). No workers: nothing renders.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "../src/bus/bus.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { waitFor } from "./support/wait-for.ts";

let app: TestApp;
let admin: RestClient;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "0" });
  admin = await adminClient(app);
});
afterAll(() => app?.close());

async function grant(account: Account, amount: number) {
  const res = await admin.post(`/admin/users/${account.id}/credits`, { amount, reason: "ledger tests" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.balance as number;
}

async function ledger(userId: string) {
  return app.services.prisma.creditLedgerEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
}

async function cachedBalance(userId: string) {
  return (await app.services.prisma.user.findUniqueOrThrow({ where: { id: userId } })).creditsBalance;
}

/** The cached balance equals the sum of the ledger. */
async function expectLedgerConsistent(userId: string) {
  const rows = await ledger(userId);
  const sum = rows.reduce((total, row) => total + row.delta, 0);
  expect(await cachedBalance(userId)).toBe(sum);
  return rows;
}

describe("concurrent launches", () => {
  it("50 parallel launches against a balance of 20 create exactly 20 jobs and 30 × 402", async () => {
    const user = await signUp(app, "ledger-race");
    expect(await grant(user, 10)).toBe(20);
    const results = await Promise.all(Array.from({ length: 50 }, () => user.client.post("/workflow", { type: "cinematic" })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect({ ok: ok.length, refused: refused.length }).toEqual({ ok: 20, refused: 30 });
    for (const res of refused) {
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^Insufficient credits\. Required: 1, available: 0$/) });
    }
    expect((await user.client.get("/user/credits")).body.data).toEqual({ balance: 0 });

    const jobs = await app.services.prisma.job.findMany({ where: { userId: user.id } });
    expect(jobs).toHaveLength(20);
    expect(new Set(ok.map((r) => r.body.data.jobId))).toEqual(new Set(jobs.map((j) => j.id)));

    const rows = await expectLedgerConsistent(user.id);
    expect(await cachedBalance(user.id)).toBe(0);
    const charges = rows.filter((r) => r.reason === "workflow_charge");
    expect(charges).toHaveLength(20);
    expect(charges.every((c) => c.delta === -1)).toBe(true);
    // Every charge row references its job, and the job points back at the row.
    expect(charges.map((c) => c.reference).sort()).toEqual(jobs.map((j) => j.id).sort());
    for (const job of jobs) expect(job.chargeEntryId).toBe(charges.find((c) => c.reference === job.id)!.id);
    expect(rows.map((r) => r.balanceAfter).sort((a, b) => a - b)).toEqual(
      [...Array.from({ length: 20 }, (_, i) => i), 10, 20].sort((a, b) => a - b),
    );
  });
});

describe("the balance event of a launch", () => {
  it("is published once per charge, with the new balance, also for a keyed launch; a refused launch publishes none", async () => {
    const user = await signUp(app, "ledger-event");
    const seen: BusMessage[] = [];
    const stop = app.services.events.subscribe((event) => {
      if (event.userId === user.id) seen.push(event);
    });
    try {
      expect((await user.client.post("/workflow", { type: "cinematic" })).status).toBe(200);
      const keyed = await user.client.call("POST", "/workflow", { type: "cinematic" }, { "Idempotency-Key": "event-key" });
      expect(keyed.status).toBe(200);
      await waitFor("two balance events", async () => seen.length >= 2);
      expect(await grant(user, -8)).toBe(0);
      expect((await user.client.post("/workflow", { type: "cinematic" })).status).toBe(402);
      expect(await grant(user, 1)).toBe(1);
      // Events arrive in commit order: anything the refusal published would come before the last grant's.
      await waitFor("the adjustments' events", async () => seen.length >= 4);
      expect(seen.map((event) => ({ kind: event.kind, data: event.data }))).toEqual([
        { kind: "account.balance", data: { balance: 9, delta: -1, reason: "workflow_charge" } },
        { kind: "account.balance", data: { balance: 8, delta: -1, reason: "workflow_charge" } },
        { kind: "account.balance", data: { balance: 0, delta: -8, reason: "admin_adjustment" } },
        { kind: "account.balance", data: { balance: 1, delta: 1, reason: "admin_adjustment" } },
      ]);
      for (const event of seen) expect(event.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Math.abs(Date.parse(seen[0]!.at) - Date.now())).toBeLessThan(60_000);
    } finally {
      stop();
    }
  });
});

describe("balance events of launches and grants that interleave", () => {
  it("arrive in the order the balance changed, so the last one a client sees is the balance", { timeout: 60_000 }, async () => {
    const user = await signUp(app, "ledger-order");
    const seen: { balance: number; delta: number }[] = [];
    const stop = app.services.events.subscribe((event) => {
      if (event.userId === user.id && event.kind === "account.balance") seen.push(event.data as { balance: number; delta: number });
    });
    try {
      // Each round: launches (published by their charge statement) racing grants and takebacks (published by
      // their transactions), many at once, so their events could cross on the way.
      for (let round = 0; round < 4; round++) {
        const [launches, grants] = await Promise.all([
          Promise.all(Array.from({ length: 12 }, () => user.client.post("/workflow", { type: "cinematic" }))),
          Promise.all(
            Array.from({ length: 6 }, (_, i) => admin.post(`/admin/users/${user.id}/credits`, { amount: i % 2 ? 3 : 2, reason: "order" })),
          ),
        ]);
        expect(grants.map((res) => res.status)).toEqual(Array(6).fill(200));
        expect(launches.filter((res) => res.status === 200).length).toBeGreaterThan(0);
        expect(launches.every((res) => res.status === 200 || res.status === 402)).toBe(true);
      }
      const balance = await cachedBalance(user.id);
      const changes = (await ledger(user.id)).length - 1; // the sign-up grant published nothing
      await waitFor("every change's event", async () => seen.length >= changes);
      expect(seen).toHaveLength(changes);
      // Each event follows from the one before it: the balance before it plus its own change.
      for (let i = 1; i < seen.length; i++) {
        expect(seen[i]!.balance, `event ${i} of ${seen.length}: ${JSON.stringify(seen.slice(Math.max(0, i - 2), i + 1))}`).toBe(
          seen[i - 1]!.balance + seen[i]!.delta,
        );
      }
      expect(seen.at(-1)!.balance).toBe(balance);
    } finally {
      stop();
    }
  });
});

describe("a launch refused behind another charge", () => {
  it("reports the balance that refused it, not the one it saw before waiting", async () => {
    const user = await signUp(app, "ledger-wait");
    const { pool } = app.services.db;
    if (!pool) {
      // The embedded database runs one statement at a time: nothing can hold the row between a
      // launch's snapshot and its charge, so the refusal reads the balance the last launch left.
      expect(await grant(user, -9)).toBe(1);
      expect((await user.client.post("/workflow", { type: "cinematic" })).status).toBe(200);
      const refused = await user.client.post("/workflow", { type: "cinematic" });
      expect(refused.status).toBe(402);
      expect(refused.body).toEqual({ success: false, error: "Insufficient credits. Required: 1, available: 0" });
      return;
    }
    // Another transaction spends the account's credits and holds the row; the launch starts meanwhile,
    // so its snapshot still sees them, and waits for the row.
    const holder = await pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("UPDATE users SET credits_balance = 0 WHERE id = $1", [user.id]);
      const launch = user.client.post("/workflow", { type: "cinematic" });
      await waitFor("the launch to wait for the row", async () => {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%credits_balance%'",
        );
        return rows[0].n > 0;
      });
      await holder.query("COMMIT");
      const refused = await launch;
      expect(refused.status).toBe(402);
      expect(refused.body).toEqual({ success: false, error: "Insufficient credits. Required: 1, available: 0" });
      expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(0);
    } finally {
      holder.release();
    }
  });
});

describe("Idempotency-Key", () => {
  const launch = (client: RestClient, key: string, body: unknown) => client.call("POST", "/workflow", body, { "Idempotency-Key": key });

  it("the same key and body twice answer the same job, charged once; the replay says so in a header", async () => {
    const user = await signUp(app, "idem-replay");
    await givePresenter(app, user.jwt);
    const body = { type: "avatar", concept: "Meet our coach", formats: ["9:16"] };
    const first = await launch(user.client, "launch-1", body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same body with keys in another order is the same request.
    const second = await launch(user.client, "launch-1", { formats: ["9:16"], concept: "Meet our coach", type: "avatar" });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(second.body.data.jobId).toBe(first.body.data.jobId);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(8);
    expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(1);
    const charges = (await expectLedgerConsistent(user.id)).filter((r) => r.reason === "workflow_charge");
    expect(charges.map((c) => c.reference)).toEqual([first.body.data.jobId]);

    // Another key is another launch.
    const other = await launch(user.client, "launch-2", body);
    expect(other.body.data.jobId).not.toBe(first.body.data.jobId);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(6);
  });

  it("the same key with a different body answers 409 and charges nothing", async () => {
    const user = await signUp(app, "idem-conflict");
    expect((await launch(user.client, "k", { type: "cinematic" })).status).toBe(200);
    const conflict = await launch(user.client, "k", { type: "cinematic", quality: "premium" });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ success: false, error: "This Idempotency-Key was already used with a different request body" });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(9);
    expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(1);
  });

  it("keys are per account: two accounts may use the same key", async () => {
    const a = await signUp(app, "idem-a");
    const b = await signUp(app, "idem-b");
    const ra = await launch(a.client, "shared", { type: "cinematic" });
    const rb = await launch(b.client, "shared", { type: "cinematic" });
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.data.jobId).not.toBe(rb.body.data.jobId);
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
  });

  it("10 parallel requests with one key create one job and one charge", async () => {
    const user = await signUp(app, "idem-parallel");
    const body = { type: "painpoint", concept: "Tired of slow coffee?" };
    const results = await Promise.all(Array.from({ length: 10 }, () => launch(user.client, "parallel-key", body)));
    const ok = results.filter((r) => r.status === 200);
    // Every answer is either the job or a 409 'still being processed' (never a second job).
    for (const res of results) {
      if (res.status !== 200)
        expect(res.body).toEqual({ success: false, error: "A request with this Idempotency-Key is still being processed" });
      expect([200, 409]).toContain(res.status);
    }
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.data.jobId)).size).toBe(1);
    expect(ok.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(1);
    const charges = (await expectLedgerConsistent(user.id)).filter((r) => r.reason === "workflow_charge");
    expect(charges).toHaveLength(1);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(9);
    // Once settled, a retry is a replay.
    const retry = await launch(user.client, "parallel-key", body);
    expect(retry.status).toBe(200);
    expect(retry.body.data.jobId).toBe(ok[0]!.body.data.jobId);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a key longer than 255 characters is a 400", async () => {
    const user = await signUp(app, "idem-long");
    const res = await launch(user.client, "k".repeat(256), { type: "cinematic" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Idempotency-Key must be at most 255 characters");
  });
});

describe("cancel refunds exactly once", () => {
  it("cancelling a queued job fails it and refunds once; a second cancel is 409", async () => {
    const user = await signUp(app, "cancel");
    const launched = await user.client.post("/workflow", { type: "factory", url: "https://93.184.216.34/p", quality: "premium" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(5);

    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      jobId,
      status: "failed",
      refunded: true,
      error: "Cancelled by the user; 5 credits refunded",
    });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);

    const again = await user.client.post("/workflow/cancel", { jobId });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already failed/);
    // Cancelling from two sessions at once still refunds once.
    const racing = await user.client.post("/workflow", { type: "cinematic" });
    const both = await Promise.all([1, 2].map(() => user.client.post("/workflow/cancel", { jobId: racing.body.data.jobId })));
    expect(both.map((r) => r.status).sort()).toContain(200);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);

    const rows = await expectLedgerConsistent(user.id);
    const refunds = rows.filter((r) => r.reason === "workflow_refund");
    expect(refunds.map((r) => [r.reference, r.delta])).toEqual([
      [jobId, 5],
      [racing.body.data.jobId, 1],
    ]);
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job).toMatchObject({ status: "failed", refunded: true, creditsUsed: 5 });
    // A workflow.failed event was recorded once.
    const failedEvents = await app.services.prisma.jobEvent.findMany({ where: { jobId, kind: "workflow.failed" } });
    expect(failedEvents).toHaveLength(1);
  });

  it("another account cannot cancel the job (404) and the owner's credits stay charged", async () => {
    const owner = await signUp(app, "cancel-owner");
    const stranger = await signUp(app, "cancel-stranger");
    const launched = await owner.client.post("/workflow", { type: "cinematic" });
    const res = await stranger.client.post("/workflow/cancel", { jobId: launched.body.data.jobId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "Job not found" });
    expect((await owner.client.get("/user/credits")).body.data.balance).toBe(9);
    expect((await stranger.client.get("/user/credits")).body.data.balance).toBe(10);
  });
});
