// A job waiting for generated clips survives a restart: the service stops while the video service
// is still working, and when it starts again the job picks up its stored handles, asks for the clips it
// submitted before (never submitting them again) and completes. The database is the one a real restart keeps:
// PGlite files under DATA_DIR, or the PostgreSQL database of `pnpm test:pg`.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DatabaseTarget, loadConfig } from "../src/config/env.ts";
import { listen } from "../src/http/app.ts";
import { createServices } from "../src/services.ts";
import { PASSWORD } from "./support/accounts.ts";
import { RestClient, uniqueEmail } from "./support/clients.ts";
import { clipsSince, falRequests, prepareVideoService, service, videoServiceHandlers } from "./support/fake-video-service.ts";
import { testDatabase } from "./support/harness.ts";

const network = setupServer(...videoServiceHandlers);
const dataDir = mkdtempSync(join(tmpdir(), "adgen-clip-restart-"));
const secret = randomBytes(32).toString("hex");
let target: DatabaseTarget;
let drop = async () => {};

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  await prepareVideoService(dataDir);
  if (process.env.TEST_DATABASE_URL) {
    const database = await testDatabase();
    target = database.target;
    drop = database.drop;
  } else {
    // The migrated template as the files a first start would have written.
    const seed = new PGlite(join(dataDir, "db"), { loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) });
    await seed.waitReady;
    await seed.close();
    target = { kind: "pglite", dataDir: join(dataDir, "db") };
  }
});
afterAll(async () => {
  network.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the service with one worker, as `pnpm start` would on this database. */
async function start() {
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: secret,
      WORKERS: "1",
      LOG_LEVEL: "silent",
      FAL_KEY: "fal-test-key",
      STUDIO_MAX_AD_SECONDS: "3",
      PROVIDER_POLL_SECONDS: "1",
      PROVIDER_COST_VIDEO_CENTS_PER_SECOND: "0.5",
      QUEUE_MAINTENANCE_SECONDS: "1",
      SWEEP_SECONDS: "1",
    },
    { database: target },
  );
  const services = await createServices(config);
  await services.startWorkers(config.workers);
  const server = await listen(services, 0, "127.0.0.1");
  return {
    services,
    url: server.url,
    async stop() {
      await server.close();
      await services.close();
    },
  };
}

async function until<T>(check: () => Promise<T | null | undefined>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a restart while the video service works", () => {
  it("resumes the job from its stored handles and completes it, submitting nothing twice", { timeout: 300_000 }, async () => {
    service.hold = true;
    const first = await start();
    const client = new RestClient(first.url);
    let jobId: string;
    let submitted: number;
    const before = falRequests.length;
    try {
      expect((await client.post("/auth/signup", { email: uniqueEmail("restart"), password: PASSWORD })).status).toBe(200);
      const launched = await client.post("/workflow", {
        type: "cinematic",
        concept: "Brewly cold brew keeps night-shift nurses sharp. Camera: slow dolly in on the bottle at dawn.",
        models: { image: "studio-stills", video: "generated-video" },
      });
      expect(launched.status, JSON.stringify(launched.body)).toBe(200);
      jobId = launched.body.data.jobId;
      const id = jobId;
      await until(
        () => first.services.prisma.job.findFirst({ where: { id, awaitingProviderSince: { not: null }, leaseOwner: null } }),
        "the job to wait for its clips",
      );
      submitted = clipsSince(falRequests, before).length;
      expect(submitted).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }

    // The clips finish while the service is down.
    service.hold = false;
    const second = await start();
    try {
      const again = Object.assign(new RestClient(second.url), { cookie: client.cookie });
      const job = await until(async () => {
        const view = (await again.get(`/workflow/job?jobId=${jobId}`)).body.data;
        return view?.status === "completed" || view?.status === "failed" ? view : null;
      }, "the job to finish after the restart");
      expect(job.status, job.error).toBe("completed");
      expect(clipsSince(falRequests, before)).toHaveLength(submitted);
      const tasks = await second.services.prisma.providerTask.findMany({ where: { jobId } });
      expect(tasks.map((t) => t.status)).toEqual(tasks.map(() => "done"));
      expect((await again.get("/user/credits")).body.data.balance).toBe(9);
    } finally {
      await second.stop();
    }
  });
});
