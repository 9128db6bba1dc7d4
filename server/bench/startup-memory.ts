// Start to healthy and idle memory of the real service process (the server bundle, as `pnpm start` runs it):
// on embedded PGlite with a fresh data directory (migrations included) and again on the data it left,
// and on PostgreSQL. Resident memory is read from /proc after the service has been idle for 10 s.
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

async function startOnce(env: Record<string, string>, port: number): Promise<Run> {
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
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rssKb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN);
    return { startMs, idleRssMb: rssKb / 1024 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

export async function startupAndMemory(log: (line: string) => void, postgresUrl: string | null): Promise<void> {
  ensureServerBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), "adgen-bench-start-"));
  const base = { DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString("hex") };
  try {
    const fresh = await startOnce(base, 3391);
    const again = await startOnce(base, 3392);
    log(
      `start to healthy on embedded PGlite: ${(fresh.startMs / 1000).toFixed(2)} s fresh (an empty data directory: the build's migrated template loaded), ${(again.startMs / 1000).toFixed(2)} s on existing data; idle memory ${fresh.idleRssMb.toFixed(0)} MB / ${again.idleRssMb.toFixed(0)} MB RSS`,
    );
    if (postgresUrl) {
      const onPg = await startOnce({ ...base, DATA_DIR: join(dataDir, "pg"), DATABASE_URL: postgresUrl }, 3393);
      log(`start to healthy on PostgreSQL: ${(onPg.startMs / 1000).toFixed(2)} s; idle memory ${onPg.idleRssMb.toFixed(0)} MB RSS`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
