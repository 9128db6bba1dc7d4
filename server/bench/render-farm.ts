// `pnpm bench render-workers`: what a second machine gives a render. Two `pnpm worker` processes, each in a
// network namespace of its own (loopback only) and pinned to one core with `taskset`, no core in common,
// against one such worker alone; PostgreSQL and an S3-compatible store (s3rver) in the middle, reached from
// each namespace through Unix sockets (bench/netns-worker.mjs). The service (HTTP, the queue's admission)
// runs in this process with no workers of its own. Measured through the public path only: launches over
// HTTP, the job's status in the database. Needs root and `ip netns`; skipped otherwise.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceHandle } from "../src/services.ts";
import { root } from "../../scripts/built.mjs";
// @ts-expect-error -- s3rver ships no types
import S3rver from "s3rver";

interface App {
  services: ServiceHandle;
  url: string;
  close(): Promise<void>;
}

const FORMATS = ["9:16", "16:9", "1:1", "4:5"];
const S3_KEY = "S3RVER";
const SECRET = "bench-render-farm-secret-0123456789abcdef";
const AD_SECONDS = 6;

/** A Unix socket in this (the host's) namespace relaying to a TCP port on its loopback. */
async function unixRelay(path: string, port: number, host = "127.0.0.1"): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path, () => resolve()));
  return server;
}

function canUseNamespaces(): boolean {
  if (process.getuid?.() !== 0 || availableParallelism() < 2) return false;
  try {
    execFileSync("ip", ["netns", "list"], { stdio: "ignore" });
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A worker process in namespace `ns` pinned to `core`, ready once it says so. */
async function pinnedWorker(ns: string, core: number, env: Record<string, string>, relays: string) {
  // A namespace left by an interrupted run is replaced.
  try {
    execFileSync("ip", ["netns", "del", ns], { stdio: "ignore" });
  } catch {
    // none was left
  }
  execFileSync("ip", ["netns", "add", ns]);
  execFileSync("ip", ["netns", "exec", ns, "ip", "link", "set", "lo", "up"]);
  const child: ChildProcess = spawn(
    "ip",
    ["netns", "exec", ns, "taskset", "-c", String(core), process.execPath, join(root, "server/bench/netns-worker.mjs")],
    { env: { ...process.env, ...env, RELAYS: relays, WORKERS: "1", LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("workflow worker")) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the worker in ${ns} exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      execFileSync("ip", ["netns", "del", ns]);
    },
  };
}

async function launch(app: App, cookie: string, concept: string, formats: string[]): Promise<string> {
  const res = await fetch(`${app.url}/api/workflow`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ type: "cinematic", concept, formats }),
  });
  const body = (await res.json()) as { data?: { jobId: string } };
  if (res.status !== 200 || !body.data) throw new Error(`launch answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data.jobId;
}

/** Seconds from the first launch until every job has completed. */
async function finish(app: App, jobIds: string[], started: number): Promise<number> {
  for (;;) {
    const jobs = await app.services.prisma.job.findMany({ where: { id: { in: jobIds } }, select: { status: true, error: true } });
    const failed = jobs.find((job) => job.status === "failed");
    if (failed) throw new Error(`a bench job failed: ${failed.error}`);
    if (jobs.every((job) => job.status === "completed")) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function account(app: App, email: string): Promise<string> {
  const signup = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "bench-password-1" }),
  });
  const cookie = signup.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))!
    .split(";")[0]!;
  await app.services.prisma.user.update({ where: { email }, data: { currentPlanId: "subscription_agency", creditsBalance: 10_000 } });
  return cookie;
}

const PRODUCTS = ["desk lamp", "water bottle", "running shoe", "coffee grinder", "backpack", "headphones", "notebook", "plant pot"];

/** One four-format job, then eight one-format jobs launched together; every concept new, so no segment is cached. */
async function measure(app: App, cookie: string, tag: string) {
  let t = performance.now();
  const four = await finish(app, [await launch(app, cookie, `${tag} travel mug: keeps coffee hot all day`, FORMATS)], t);
  console.log(`render farm (${tag}): the 4-format job took ${four.toFixed(1)} s`);
  t = performance.now();
  const batch = await Promise.all(PRODUCTS.map((p, i) => launch(app, cookie, `${tag} ${p} number ${i}: made to last`, ["9:16"])));
  const eight = await finish(app, batch, t);
  console.log(`render farm (${tag}): 8 jobs took ${eight.toFixed(1)} s`);
  return { four, eight };
}

export async function renderFarm(
  log: (line: string) => void,
  startApp: (env: Record<string, string>) => Promise<App>,
  databaseUrl: string,
): Promise<void> {
  if (!canUseNamespaces()) {
    log("render farm: skipped (needs root, `ip netns`, `taskset` and two cores)");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "adgen-bench-farm-"));
  const s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: join(dir, "s3"), configureBuckets: [{ name: "farm" }] });
  const { port: s3Port } = (await s3.run()) as { port: number };
  const db = new URL(databaseUrl);
  const dbPort = Number(db.port || 5432);
  const relays = [await unixRelay(join(dir, "db.sock"), dbPort, db.hostname), await unixRelay(join(dir, "s3.sock"), s3Port)];
  const relaySpec = `${dbPort}=${join(dir, "db.sock")},${s3Port}=${join(dir, "s3.sock")}`;
  const s3Env = {
    MEDIA_STORAGE: "s3",
    S3_BUCKET: "farm",
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: S3_KEY,
    S3_SECRET_ACCESS_KEY: S3_KEY,
    S3_FORCE_PATH_STYLE: "1",
  };
  // 6 s ads: the ratio is the figure, and a shared machine makes 15 s ones take minutes.
  const env = { ...s3Env, STUDIO_MAX_AD_SECONDS: String(AD_SECONDS), SESSION_SECRET: SECRET };
  const app = await startApp(env);
  const workerEnv = (name: string) => ({ ...env, DATABASE_URL: databaseUrl, DATA_DIR: join(dir, name) });
  try {
    const cookie = await account(app, "bench-farm@example.com");
    const one = await pinnedWorker("adgen-bench-a", 0, workerEnv("a"), relaySpec);
    let alone: { four: number; eight: number };
    try {
      alone = await measure(app, cookie, "alone");
    } finally {
      await one.stop();
    }
    const a = await pinnedWorker("adgen-bench-a", 0, workerEnv("a"), relaySpec);
    const b = await pinnedWorker("adgen-bench-b", 1, workerEnv("b"), relaySpec);
    let pair: { four: number; eight: number };
    try {
      pair = await measure(app, cookie, "paired");
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    log(
      `render farm (${AD_SECONDS} s ads): two \`pnpm worker\` processes, each in a network namespace of its own and pinned to its own core (taskset), PostgreSQL and an S3-compatible store (s3rver) in the middle, against one such worker on one core: ` +
        `a 4-format job ${pair.four.toFixed(1)} s against ${alone.four.toFixed(1)} s (${(pair.four / alone.four).toFixed(2)}×); ` +
        `8 one-format jobs launched together ${pair.eight.toFixed(1)} s against ${alone.eight.toFixed(1)} s (${(pair.eight / alone.eight).toFixed(2)}×)`,
    );
  } finally {
    await app.close();
    for (const relay of relays) relay.close();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
