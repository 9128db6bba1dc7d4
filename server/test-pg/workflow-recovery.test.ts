// Workflow jobs across instances on one PostgreSQL database, as in production: an API instance without
// workers and a worker instance. A queue message lost between commit and send is re-sent by the sweep
// (idempotently), events from the worker reach streams on the API instance, a review decided on one
// instance resumes on the other, and decisions racing on two instances refund at most once.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/env.ts";
import { listen, type RunningServer } from "../src/http/app.ts";
import { resendStaleQueuedJobs } from "../src/modules/workflows/launch/enqueue.ts";
import { createServices, type ServiceHandle } from "../src/services.ts";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { givePresenter } from "../test/support/presenter.ts";
import { testDatabase } from "../test/support/harness.ts";
import { openSse, type SseStream } from "../test/support/sse.ts";

interface Instance {
  services: ServiceHandle;
  server: RunningServer;
  dataDir: string;
}

const secret = randomBytes(32).toString("hex");
let target: Awaited<ReturnType<typeof testDatabase>>["target"];
let drop: () => Promise<void>;
let api: Instance;
let worker: Instance | null = null;
const instances: Instance[] = [];
const streams: SseStream[] = [];

async function startInstance(workers: number): Promise<Instance> {
  // Both instances share one media folder, as they would share an object store.
  const dataDir = instances[0]?.dataDir ?? mkdtempSync(join(tmpdir(), "adgen-recovery-"));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: secret,
      WORKERS: String(workers),
      RATE_LIMIT_AUTH_PER_HOUR: "1000",
      RATE_LIMIT_API_PER_MINUTE: "1000",
      STUDIO_MAX_AD_SECONDS: "2",
      QUEUE_MAINTENANCE_SECONDS: "1",
      SWEEP_SECONDS: "1",
      JOB_RETRY_DELAY_SECONDS: "1",
    },
    { database: target },
  );
  const services = await createServices(config);
  if (workers > 0) await services.startWorkers(workers);
  const instance = { services, server: await listen(services, 0, "127.0.0.1"), dataDir };
  instances.push(instance);
  return instance;
}

beforeAll(async () => {
  const db = await testDatabase();
  target = db.target;
  drop = db.drop;
  api = await startInstance(0);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const instance of instances.reverse()) {
    await instance.server.close();
    await instance.services.close();
  }
  await drop?.();
  if (api) rmSync(api.dataDir, { recursive: true, force: true });
});

async function account(on: Instance): Promise<RestClient> {
  const client = new RestClient(on.server.url);
  const res = await client.post("/auth/signup", { email: uniqueEmail("recovery"), password: "recovery-password" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return client;
}

/** The same session on another instance (another browser tab behind the balancer). */
function sameSession(client: RestClient, on: Instance): RestClient {
  const other = new RestClient(on.server.url);
  other.cookie = client.cookie;
  return other;
}

async function waitForJob(client: RestClient, jobId: string, statuses: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const queueMessages = async (jobId: string) =>
  (
    await api.services.db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'workflow' AND data->>'jobId' = $1`,
      [jobId],
    )
  )[0]!.n;

describe("a queue message lost between commit and send", () => {
  it("re-sending is idempotent: the message id derives from the job, so a second send adds nothing", async () => {
    const client = await account(api);
    const { jobId } = (await client.post("/workflow", { type: "staticad" })).body.data;
    expect(await queueMessages(jobId)).toBe(1);
    await api.services.db.sql.query(`UPDATE jobs SET updated_at = now() - interval '5 minutes' WHERE id = $1`, [jobId]);
    expect(await resendStaleQueuedJobs(api.services)).toBeGreaterThanOrEqual(1);
    expect(await resendStaleQueuedJobs(api.services)).toBeGreaterThanOrEqual(1);
    expect(await queueMessages(jobId)).toBe(1);
    // Leave nothing queued for the worker instance to pick up later.
    expect((await client.post("/workflow/cancel", { jobId })).status).toBe(200);
  });

  it("the worker instance's sweep re-sends it; the job runs there and its events reach a stream on the API instance", {
    timeout: 90_000,
  }, async () => {
    const client = await account(api);
    const launched = await client.post("/workflow", { type: "staticad", concept: "Lost and found" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    // The crash: the message never reached the queue, and the job has waited a while.
    await api.services.db.sql.query(`DELETE FROM pgboss.job WHERE name = 'workflow' AND data->>'jobId' = $1`, [jobId]);
    await api.services.db.sql.query(`UPDATE jobs SET updated_at = now() - interval '5 minutes' WHERE id = $1`, [jobId]);
    expect(await queueMessages(jobId)).toBe(0);

    const stream = await openSse(`${api.server.url}/api/workflow/stream?jobId=${jobId}`, { cookie: `session=${client.cookie}` });
    streams.push(stream);
    expect(JSON.parse((await stream.next()).data)).toMatchObject({ type: "workflow.state", status: "queued" });

    worker = await startInstance(1);
    const events: { event: string; data: any }[] = [];
    for (;;) {
      const message = await stream.next(60_000);
      events.push({ event: message.event, data: JSON.parse(message.data) });
      if (message.event === "result") break;
    }
    expect(events[0]!.data.type).toBe("workflow.started");
    expect(events.at(-1)!.data).toMatchObject({ type: "workflow.completed", success: true, status: "completed" });
    const ids = events.map((e) => e.data.id);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);

    const job = await waitForJob(client, jobId, ["completed", "failed"]);
    expect(job).toMatchObject({ status: "completed", refunded: false });
    expect((await api.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).attempts).toBe(1);
    // The media written by the worker instance is served by the API instance.
    const still = await fetch(`${api.server.url}${new URL(job.result.assets[0].url).pathname}`, {
      headers: { cookie: `session=${client.cookie}` },
    });
    expect(still.status).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/png");
    expect((await client.get("/user/credits")).body.data.balance).toBe(9);
  });
});

describe("reviews across instances", () => {
  it("a review approved on the API instance resumes on the worker instance from the stored storyboard", { timeout: 90_000 }, async () => {
    expect(worker).not.toBeNull();
    const client = await account(api);
    const { jobId } = (await client.post("/workflow", { type: "staticad", hitl: true, concept: "Reviewed twice" })).body.data;
    await waitForJob(client, jobId, ["awaiting_review"]);
    const before = (await client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
    expect(before.storyboard.scenes.every((s: any) => typeof s.preview === "string")).toBe(true);
    // Decided through the worker instance's API, for a change.
    const approved = await sameSession(client, worker!).post("/workflow/hitl", { jobId, action: "approve" });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const job = await waitForJob(client, jobId, ["completed", "failed"]);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.storyboard.scenes.map((s: any) => s.headline)).toEqual(before.storyboard.scenes.map((s: any) => s.headline));
    expect(await api.services.prisma.jobStep.count({ where: { jobId, name: "art_direction" } })).toBe(1);
    expect(await api.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.suspended" } })).toBe(1);
    expect(await api.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.completed" } })).toBe(1);
  });

  it("approve and reject racing on two instances: exactly one wins, and credits come back at most once", { timeout: 90_000 }, async () => {
    const client = await account(api);
    const { jobId } = (await client.post("/workflow", { type: "staticad", hitl: true })).body.data;
    await waitForJob(client, jobId, ["awaiting_review"]);
    const [approve, reject] = await Promise.all([
      client.post("/workflow/hitl", { jobId, action: "approve" }),
      sameSession(client, worker!).post("/workflow/hitl", { jobId, action: "reject", feedback: "No" }),
    ]);
    const statuses = [approve.status, reject.status].sort();
    expect(statuses).toEqual([200, 409]);
    const job = await waitForJob(client, jobId, ["completed", "failed"]);
    const refunds = await api.services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId, reason: "workflow_refund" } });
    if (approve.status === 200) {
      expect(job.status).toBe("completed");
      expect(refunds).toEqual([]);
      expect((await client.get("/user/credits")).body.data.balance).toBe(9);
    } else {
      expect(job).toMatchObject({ status: "failed", refunded: true });
      expect(refunds.map((r) => r.delta)).toEqual([1]);
      expect((await client.get("/user/credits")).body.data.balance).toBe(10);
      expect(await api.services.prisma.jobStep.count({ where: { jobId, name: { startsWith: "render:" } } })).toBe(0);
    }
  });

  it("a cancel sent to both instances at once refunds once", { timeout: 90_000 }, async () => {
    const client = await account(api);
    await givePresenter(api.server, client.cookie!);
    const { jobId } = (await client.post("/workflow", { type: "avatar", hitl: true })).body.data;
    await waitForJob(client, jobId, ["awaiting_review"]);
    const results = await Promise.all(
      [client, sameSession(client, worker!), client, sameSession(client, worker!)].map((c) => c.post("/workflow/cancel", { jobId })),
    );
    for (const res of results) expect([200, 409]).toContain(res.status);
    expect(results.some((r) => r.status === 200)).toBe(true);
    const refunds = await api.services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId, reason: "workflow_refund" } });
    expect(refunds.map((r) => r.delta)).toEqual([2]);
    expect(await api.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.failed" } })).toBe(1);
    expect((await client.get("/user/credits")).body.data.balance).toBe(10);
    const rows = await api.services.db.sql.query<{ ok: boolean }>(
      `SELECT u.credits_balance = (SELECT sum(delta) FROM credit_ledger l WHERE l.user_id = u.id) AS ok FROM users u`,
    );
    expect(rows.every((r) => r.ok)).toBe(true);
  });
});
