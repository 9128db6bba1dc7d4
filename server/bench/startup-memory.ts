// Start to healthy and idle memory of the real service process (the server bundle, as `pnpm start` runs it):
// on embedded PGlite with a fresh data directory (migrations included) and again on the data it left,
// in memory (memory://), and on PostgreSQL. Resident memory is read from /proc after the service has been idle for 10 s.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleArgs, ensureServerBuilt } from "../../scripts/built.mjs";

const serverDir = join(dirname(fileURLToPath(import.meta.url)), "..");

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...rest } = env;
  return rest;
}

interface Run {
  startMs: number;
  idleRssMb: number;
}

async function startOnce(env: Record<string, string>, port: number, idleMemory: boolean): Promise<Run> {
  const started = performance.now();
  // As `pnpm start` runs it: the server bundle (built first when it is stale).
  const child = spawn(process.execPath, bundleArgs("main"), {
    cwd: serverDir,
    // DATABASE_URL only where a run asks for PostgreSQL: the others are the embedded default.
    env: { ...withoutDatabaseUrl(process.env), ...env, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was healthy`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const startMs = performance.now() - started;
    if (!idleMemory) return { startMs, idleRssMb: Number.NaN };
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rssKb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN);
    return { startMs, idleRssMb: rssKb / 1024 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

/** Starts this machine's noise swings by a few hundred ms: each case starts three times; the median counts. */
const STARTS = 3;

async function startSeveral(envFor: (i: number) => Record<string, string>, port: number) {
  const runs: Run[] = [];
  // Idle memory is read after the last start of the three.
  for (let i = 0; i < STARTS; i++) runs.push(await startOnce(envFor(i), port, i === STARTS - 1));
  const times = runs.map((run) => run.startMs / 1000).sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!.toFixed(2),
    all: times.map((t) => t.toFixed(2)).join(", "),
    idleRssMb: runs.at(-1)!.idleRssMb.toFixed(0),
  };
}

export async function startupAndMemory(log: (line: string) => void, postgresUrl: string | null): Promise<void> {
  await ensureServerBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), "adgen-bench-start-"));
  const base = { DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString("hex") };
  try {
    // Each fresh start gets an empty data directory of its own; the starts on existing data reuse the last.
    const fresh = await startSeveral((i) => ({ ...base, DATA_DIR: join(dataDir, `fresh-${i}`) }), 3391);
    const again = await startSeveral(() => ({ ...base, DATA_DIR: join(dataDir, `fresh-${STARTS - 1}`) }), 3392);
    log(
      `start to healthy on embedded PGlite (median of ${STARTS}): ${fresh.median} s fresh (an empty data directory: the build's migrated template loaded; ${fresh.all}), ${again.median} s on existing data (${again.all}); idle memory ${fresh.idleRssMb} MB / ${again.idleRssMb} MB RSS`,
    );
    const inMemory = await startSeveral(() => ({ ...base, DATA_DIR: join(dataDir, "memory"), DATABASE_URL: "memory://" }), 3394);
    log(
      `start to healthy on in-memory PGlite (memory://, median of ${STARTS}; the build's template loaded): ${inMemory.median} s (${inMemory.all}); idle memory ${inMemory.idleRssMb} MB RSS`,
    );
    if (postgresUrl) {
      const onPg = await startSeveral(() => ({ ...base, DATA_DIR: join(dataDir, "pg"), DATABASE_URL: postgresUrl }), 3393);
      log(`start to healthy on PostgreSQL (median of ${STARTS}): ${onPg.median} s (${onPg.all}); idle memory ${onPg.idleRssMb} MB RSS`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
