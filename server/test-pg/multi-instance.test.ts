// Two instances of the service on one PostgreSQL database, as in production behind a balancer.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signup } from "../src/modules/auth/signup.ts";
import { SharedRateLimitStore } from "../src/rate-limit/shared-store.ts";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { testDatabase } from "../test/support/harness.ts";
import { type Instance, startInstance, stopInstances } from "../test/support/instance.ts";
import { startS3, type TestS3 } from "../test/support/s3-server.ts";
import { readZip } from "../test/support/zip.ts";

let drop: () => Promise<void>;
/** The media store both instances share (MEDIA_STORAGE=s3), as machines with their own disks would. */
let s3: TestS3;
const instances: Instance[] = [];
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  s3 = await startS3();
  const db = await testDatabase();
  drop = db.drop;
  // Both start at once: the migration lock makes them take turns on the empty database.
  const started = await Promise.all(
    [0, 1].map(async () => {
      return startInstance(db.target, secret, {
        RATE_LIMIT_AUTH_PER_HOUR: "4",
        RATE_LIMIT_API_PER_MINUTE: "6",
        ADMIN_EMAIL: "root@example.com",
        ADMIN_PASSWORD: "root-password-1",
        STUDIO_MAX_AD_SECONDS: "2",
        ...s3.env,
      });
    }),
  );
  instances.push(...started);
});

/** Asks until the answer has `status` (a message between instances takes a moment), for at most 3 s. */
async function statusSoon(ask: () => Promise<{ status: number }>, status: number): Promise<number> {
  const deadline = Date.now() + 3000;
  let last = (await ask()).status;
  while (last !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = (await ask()).status;
  }
  return last;
}

afterAll(async () => {
  await stopInstances(instances);
  await drop?.();
  await s3?.close();
});

describe("several instances on one PostgreSQL", () => {
  it("applied each migration once although both started together", async () => {
    const rows = await instances[0]!.services.db.sql.query<{ migration_name: string; n: number }>(
      `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it("a session created on one instance works on the other, and logout on the other revokes it", async () => {
    const [a, b] = instances;
    const onA = new RestClient(a!.server.url);
    const email = uniqueEmail("multi");
    expect((await onA.post("/auth/signup", { email, password: "password123" })).status).toBe(200);
    const onB = new RestClient(b!.server.url);
    onB.cookie = onA.cookie;
    expect((await onB.get("/user/profile")).body.data.email).toBe(email);
    // A has now seen the session too (and remembers it), so only the revocation can stop it there.
    expect((await onA.get("/user/credits")).status).toBe(200);
    expect((await onB.post("/auth/logout")).status).toBe(200);
    onB.cookie = onA.cookie;
    expect(await statusSoon(() => onA.get("/user/credits"), 401)).toBe(401);
  });

  it("a password change on one instance signs the account's other sessions out on the other at once", async () => {
    const [a, b] = instances;
    const email = uniqueEmail("multi-password");
    const first = new RestClient(a!.server.url);
    expect((await first.post("/auth/signup", { email, password: "password123" })).status).toBe(200);
    const second = new RestClient(b!.server.url);
    expect((await second.post("/auth/login", { email, password: "password123" })).status).toBe(200);
    expect((await second.get("/user/credits")).status).toBe(200);
    const changed = await first.post("/user/change-password", { currentPassword: "password123", newPassword: "a-new-password-2" });
    expect(changed.status).toBe(200);
    expect(await statusSoon(() => second.get("/user/credits"), 401)).toBe(401);
    expect((await first.get("/user/credits")).status).toBe(200);
  });

  it("shares the api rate limit: hits on both instances add up once they have synced", async () => {
    const [a, b] = instances;
    const onA = new RestClient(a!.server.url);
    expect((await onA.post("/auth/signup", { email: uniqueEmail("multi-limit"), password: "password123" })).status).toBe(200);
    const onB = new RestClient(b!.server.url);
    onB.cookie = onA.cookie;
    for (let i = 0; i < 3; i++) expect((await onA.get("/user/credits")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await onB.get("/user/credits")).status).toBe(200);
    // A shares its three, then B shares its three and learns the total of six.
    await a!.services.rateLimiter.sync();
    await b!.services.rateLimiter.sync();
    const seventh = await onB.get("/user/credits");
    expect(seventh.status).toBe(429);
    expect(seventh.headers.get("x-ratelimit-remaining")).toBe("0");
    // A, in use, learns the total at its next sync whether or not it was hit since: it refuses too.
    await a!.services.rateLimiter.sync();
    expect((await onA.get("/user/credits")).status).toBe(429);
    const counted = await a!.services.db.sql.query<{ count: number }>(
      "SELECT count FROM rate_limit_counters WHERE key LIKE 'api:user.credits:%' ORDER BY count DESC LIMIT 1",
    );
    expect(counted[0]?.count).toBeGreaterThanOrEqual(6);
  });

  it("a hit while its instance's counts are on their way to the others still counts them", async () => {
    const store = new SharedRateLimitStore(instances[0]!.services.db.sql);
    try {
      const key = `api:test.in-flight:${uniqueEmail("key")}`;
      await store.hit(key, 60_000);
      await store.hit(key, 60_000);
      const syncing = store.sync();
      // The sync has taken its counts and its statement is on the wire (the answer comes in a later turn).
      await new Promise((resolve) => setImmediate(resolve));
      expect((await store.hit(key, 60_000)).count).toBe(3);
      await syncing;
      expect((await store.hit(key, 60_000)).count).toBe(4);
    } finally {
      await store.close();
    }
  });

  it("counts the auth rate limit once across both instances", async () => {
    const [a, b] = instances;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = new RestClient((i % 2 === 0 ? a : b)!.server.url);
      // An auth-class endpoint no other test here calls (sign-ins happen above, from the same address).
      const res = await client.post("/newsletter/subscribe", { email: uniqueEmail("multi-newsletter") });
      statuses.push(res.status);
      expect(res.headers.get("x-ratelimit-limit")).toBe("4");
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("delivers an account event published on one instance to a subscriber on the other", async () => {
    const [a, b] = instances;
    const received: unknown[] = [];
    const unsubscribe = b!.services.events.subscribe((event) => received.push(event));
    a!.services.events.publish({ kind: "account.balance", userId: "u-1", data: { balance: 5, delta: 5, reason: "test" } });
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    unsubscribe();
    expect(received).toEqual([
      expect.objectContaining({ kind: "account.balance", userId: "u-1", data: { balance: 5, delta: 5, reason: "test" } }),
    ]);
  });

  it("delivers the events one instance publishes in a burst to both instances in the order published", async () => {
    const [a, b] = instances;
    const onA: number[] = [];
    const onB: number[] = [];
    const stopA = a!.services.events.subscribe((event) => event.userId === "u-order" && onA.push(event.data as number));
    const stopB = b!.services.events.subscribe((event) => event.userId === "u-order" && onB.push(event.data as number));
    // Published in one loop, as a job's events are: separate NOTIFYs on pool connections could cross.
    for (let i = 0; i < 300; i++) a!.services.events.publish({ kind: "job.event", userId: "u-order", data: i });
    const deadline = Date.now() + 10_000;
    while ((onA.length < 300 || onB.length < 300) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stopA();
    stopB();
    const inOrder = Array.from({ length: 300 }, (_, i) => i);
    expect(onA).toEqual(inOrder);
    expect(onB).toEqual(inOrder);
  });

  it("a job rendered by a worker with its own DATA_DIR is downloadable from the other instance, ZIP export included (shared S3 bucket)", async () => {
    const [a, b] = instances;
    // B is the render machine (what `pnpm worker` runs); A only serves HTTP. Each has its own DATA_DIR.
    await b!.services.startWorkers(1);
    // The account comes from the domain function: the sign-up budget per address (4 an hour) belongs to the tests above.
    const { session } = await signup(
      a!.services,
      { ip: null, userAgent: null },
      { email: uniqueEmail("multi-media"), password: "password123" },
    );
    const headers = { cookie: `session=${session.jwt}` };
    const onA = new RestClient(a!.server.url);
    onA.cookie = session.jwt;
    const launched = await onA.post("/workflow", {
      type: "cinematic",
      concept: "Rendered on one machine, served by another",
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId: string = launched.body.data.jobId;
    // Watched in the database: this file's API budget (6 a minute) is too small for polling.
    const deadline = Date.now() + 120_000;
    let job = await a!.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    while (job.status !== "completed" && job.status !== "failed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await a!.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    }
    expect(job.status, job.error ?? "").toBe("completed");
    const path = new URL((job.result as { finalVideo: string }).finalVideo).pathname;
    const stored = await a!.services.media.stat(path.replace(/^\/api\/media\//, "jobs/"));
    expect(stored?.bytes).toBeGreaterThan(1000);
    // The render is in the bucket, on neither machine's disk.
    for (const instance of instances) expect(existsSync(join(instance.services.config.dataDir, "media", "jobs", jobId))).toBe(false);

    const whole = await fetch(`${a!.server.url}${path}`, { headers });
    expect(whole.status).toBe(200);
    const video = Buffer.from(await whole.arrayBuffer());
    expect(video.length).toBe(stored!.bytes);
    const ranged = await fetch(`${a!.server.url}${path}`, { headers: { ...headers, range: "bytes=0-1023" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 0-1023/${video.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(video.subarray(0, 1024))).toBe(true);
    const zip = await fetch(`${a!.server.url}/api/user/projects/export?format=zip`, { headers });
    expect(zip.status).toBe(200);
    const entries = readZip(Buffer.from(await zip.arrayBuffer()));
    // The project's folder is its name with the start of its id (zipFolderOf), the file its own name.
    const videoEntry = `${jobId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8)}/${path.split("/").pop()}`;
    const name = [...entries.keys()].find((entry) => entry.endsWith(videoEntry));
    expect(name, [...entries.keys()].join(", ")).toBeDefined();
    expect(entries.get(name!)?.equals(video)).toBe(true);
  }, 150_000);
});
