// `pnpm bench render`, scenes over workers: a four-format job on PostgreSQL, first with the service's own
// worker alone, then with a second `pnpm worker` process beside it (same database, same media directory).
// Both jobs are the same kind of ad with different words, so neither finds the other's segments cached.
// Reported: each job's wall time and the encode time each worker recorded on the job's segment tasks.
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { ServiceHandle } from "../src/services.ts";
import { root } from "../../scripts/built.mjs";

interface App {
  services: ServiceHandle;
  url: string;
  close(): Promise<void>;
}

const FORMATS = ["9:16", "16:9", "1:1", "4:5"];

async function runJob(app: App, cookie: string, concept: string): Promise<{ seconds: number; busy: Map<string, number> }> {
  const started = performance.now();
  const res = await fetch(`${app.url}/api/workflow`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ type: "cinematic", concept, formats: FORMATS }),
  });
  const body = (await res.json()) as { data?: { jobId: string } };
  if (res.status !== 200 || !body.data) throw new Error(`launch answered ${res.status}: ${JSON.stringify(body)}`);
  const jobId = body.data.jobId;
  for (;;) {
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    if (job.status === "completed") break;
    if (job.status === "failed") throw new Error(`bench job ${job.status}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  const busy = new Map<string, number>();
  for (const task of await app.services.prisma.renderSegmentTask.findMany({ where: { jobId } })) {
    busy.set(task.worker ?? "?", (busy.get(task.worker ?? "?") ?? 0) + task.busyMs / 1000);
  }
  return { seconds, busy };
}

/** A new account's session cookie, on a plan whose share of encodes (two per job slot) leaves room for both workers. */
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
  await app.services.prisma.user.update({ where: { email }, data: { currentPlanId: "subscription_agency" } });
  return cookie;
}

/** A second worker process (`scripts/worker.mjs`, as `pnpm worker` runs it), ready once it says so. */
async function secondWorker(databaseUrl: string, dataDir: string, secret: string) {
  const child = spawn(process.execPath, [join(root, "scripts/worker.mjs")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SESSION_SECRET: secret, WORKERS: "1", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("workflow worker")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the second worker exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function renderWorkers(
  log: (line: string) => void,
  startApp: (env: Record<string, string>) => Promise<App>,
  databaseUrl: string,
): Promise<void> {
  const secret = "bench-render-workers-secret-0123456789abcdef";
  const env = { STUDIO_MAX_AD_SECONDS: "15", SIGNUP_CREDITS: "100", SESSION_SECRET: secret };
  const lamp = "Lumen desk lamp: light that follows your day, warm at night";
  // The same job without the segment cache and queue (RENDER_CACHE_MB=0: this process encodes every segment).
  const plain = await startApp({ ...env, RENDER_CACHE_MB: "0" });
  let unqueued: number;
  try {
    await plain.services.startWorkers(1);
    unqueued = (await runJob(plain, await account(plain, "bench-plain@example.com"), lamp)).seconds;
  } finally {
    await plain.close();
  }
  const app = await startApp(env);
  try {
    await app.services.startWorkers(1);
    const cookie = await account(app, "bench-workers@example.com");
    const alone = await runJob(app, cookie, lamp);
    log(
      `render workers: a 4-format job through the segment queue and cache took ${(alone.seconds / unqueued).toFixed(2)}× the same job encoded in-process without them (${alone.seconds.toFixed(1)} s against ${unqueued.toFixed(1)} s)`,
    );
    const second = await secondWorker(databaseUrl, app.services.config.dataDir, secret);
    try {
      const shared = await runJob(app, cookie, "Drift bottle: keeps water cold for a day, fits every bag");
      const total = [...shared.busy.values()].reduce((sum, s) => sum + s, 0);
      const shares = [...shared.busy.entries()]
        .map(
          ([worker, s]) =>
            `${worker === app.services.workerName ? "the service's worker" : "the second worker"} ${Math.round((s / total) * 100)} %`,
        )
        .join(", ");
      log(
        `render workers: a 4-format job took ${alone.seconds.toFixed(1)} s with one worker and ${shared.seconds.toFixed(1)} s with a second \`pnpm worker\` on the same 2 cores (${(shared.seconds / alone.seconds).toFixed(2)}×); its ${total.toFixed(1)} s of segment encoding was split ${shares}`,
      );
    } finally {
      await second.stop();
    }
  } finally {
    await app.close();
  }
}
