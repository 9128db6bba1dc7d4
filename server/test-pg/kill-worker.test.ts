// A worker process killed with SIGKILL mid-job loses nothing: the job times out on the queue, another
// worker picks it up and resumes after the last finished step; when the last attempt dies too, the
// job fails and is refunded exactly once.
import { waitFor as poll } from "../test/support/wait-for.ts";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/env.ts";
import { listen, type RunningServer } from "../src/http/app.ts";
import { createServices, type ServiceHandle } from "../src/services.ts";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { testDatabase } from "../test/support/harness.ts";

const root = join(import.meta.dirname, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "adgen-kill-"));
const secret = randomBytes(32).toString("hex");
let dbUrl: string;
let drop: () => Promise<void>;
let services: ServiceHandle;
let server: RunningServer;
const children: ChildProcess[] = [];

const env = (retryLimit: number) => ({
  DATA_DIR: dataDir,
  SESSION_SECRET: secret,
  WORKERS: "1",
  JOB_LEASE_SECONDS: "3",
  JOB_RETRY_LIMIT: String(retryLimit),
  JOB_RETRY_DELAY_SECONDS: "0",
  QUEUE_MAINTENANCE_SECONDS: "1",
  STUDIO_MAX_AD_SECONDS: "6",
  SWEEP_SECONDS: "1",
  RATE_LIMIT_AUTH_PER_HOUR: "100",
  // Warnings and errors only (the log is JSON lines on stdout); the lines are forwarded below.
  LOG_LEVEL: "warn",
});

function startWorker(retryLimit: number): ChildProcess {
  // node itself (with tsx's loader), not the tsx CLI, so SIGKILL hits the process doing the work.
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
    cwd: join(root, "server"),
    env: { ...process.env, ...env(retryLimit), DATABASE_URL: dbUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (chunk) => process.stderr.write(`[worker ${child.pid}] ${chunk}`));
  // Read, so a full pipe never blocks the worker's (synchronous) log writes.
  child.stdout?.on("data", (chunk) => process.stderr.write(`[worker ${child.pid}] ${chunk}`));
  children.push(child);
  return child;
}

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 90_000) =>
  poll(what, probe, timeoutMs, 200);

beforeAll(async () => {
  const db = await testDatabase();
  drop = db.drop;
  dbUrl = (db.target as { url: string }).url;
  // The API instance runs no workflow workers of its own; it supervises the queue (expiry detection).
  const config = loadConfig({ ...env(2), WORKERS: "0" }, { database: db.target });
  services = await createServices(config);
  server = await listen(services, 0, "127.0.0.1");
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

afterAll(async () => {
  await server?.close();
  await services?.close();
  await drop?.();
});

async function launch(client: RestClient) {
  const res = await client.post("/workflow", { type: "cinematic", concept: "Crash-proof coffee", formats: ["9:16", "16:9"] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId as string;
}

describe("a worker killed mid-job", () => {
  it("is replaced by another worker that resumes the job without charging again", async () => {
    const client = new RestClient(server.url);
    await client.post("/auth/signup", { email: uniqueEmail("kill"), password: "password123" });
    const first = startWorker(2);
    const jobId = await launch(client);
    // Let it finish art direction and get into the first render, then kill it without warning.
    await waitFor("the first render to start", async () => {
      const job = await services.prisma.job.findUnique({ where: { id: jobId } });
      return job?.currentStep?.startsWith("render:") ? job : null;
    });
    const directedAt = (await services.prisma.jobStep.findUniqueOrThrow({ where: { jobId_name: { jobId, name: "art_direction" } } }))
      .completedAt;
    first.kill("SIGKILL");
    await waitFor("the killed worker to exit", async () => first.exitCode !== null || first.signalCode !== null);

    startWorker(2);
    const done = await waitFor("the job to complete", async () => {
      const job = await services.prisma.job.findUnique({ where: { id: jobId } });
      return job && (job.status === "completed" || job.status === "failed") ? job : null;
    });
    expect(done.status, done.error ?? "").toBe("completed");
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    // Resumed, not restarted: the stored art direction is the one from before the crash.
    const directed = await services.prisma.jobStep.findUniqueOrThrow({ where: { jobId_name: { jobId, name: "art_direction" } } });
    expect(directed.completedAt.getTime()).toBe(directedAt.getTime());
    const ledger = await services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId } });
    expect(ledger.map((e) => e.reason)).toEqual(["workflow_charge"]);
    const me = await client.get("/user/credits");
    expect(me.body.data.balance).toBe(9);
  }, 150_000);

  it("fails and refunds exactly once when the last attempt dies too", async () => {
    const client = new RestClient(server.url);
    await client.post("/auth/signup", { email: uniqueEmail("kill-last"), password: "password123" });
    // Workers started with JOB_RETRY_LIMIT=0: the first death is the last attempt.
    const victim = startWorker(0);
    const jobId = await launch(client);
    await waitFor("the job to start rendering", async () => {
      const job = await services.prisma.job.findUnique({ where: { id: jobId } });
      return job?.currentStep?.startsWith("render:") ? job : null;
    });
    victim.kill("SIGKILL");
    startWorker(0); // its dead-letter worker turns the expired job into a refund
    const failed = await waitFor("the job to fail", async () => {
      const job = await services.prisma.job.findUnique({ where: { id: jobId } });
      return job?.status === "failed" ? job : null;
    });
    expect(failed.refundedAt).not.toBeNull();
    expect(failed.error).toMatch(/stopped responding|failed/);
    await new Promise((r) => setTimeout(r, 2000)); // nothing more may happen
    const ledger = await services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId }, orderBy: { createdAt: "asc" } });
    expect(ledger.map((e) => [e.reason, e.delta])).toEqual([
      ["workflow_charge", -1],
      ["workflow_refund", 1],
    ]);
    expect((await client.get("/user/credits")).body.data.balance).toBe(10);
    const events = await services.prisma.jobEvent.findMany({ where: { jobId, kind: "workflow.failed" } });
    expect(events).toHaveLength(1);
  }, 150_000);
});
