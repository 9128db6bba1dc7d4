// `pnpm bench start`: what a newcomer waits for, from a fresh clone of this repository's committed state:
// `pnpm install` (packages from the local store, plus the builds it now does at install time), then the
// first `pnpm start` to the line that gives the address, a restart on the same data, and a SIGTERM that
// must end the service with 0 and no "ELIFECYCLE" from pnpm.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../../scripts/built.mjs";

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Runs `pnpm start` in `dir` until it prints its address; answers how long that took, then stops it with SIGTERM. */
async function startOnce(
  dir: string,
  port: number,
): Promise<{ readyMs: number; exitCode: number | null; quiet: boolean; stages: string[] }> {
  const started = performance.now();
  const child = spawn("pnpm", ["start"], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), DATA_DIR: join(dir, "data"), LOG_LEVEL: "warn", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const readyMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line after 10 minutes:\n${output}`)), 600_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/AdGen is ready/.test(output)) {
        clearTimeout(timer);
        resolve(performance.now() - started);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`pnpm start ended (${code}) before it was ready:\n${output}`)));
  });
  child.removeAllListeners("exit");
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
  // The stage lines ("[1/3] Web app: up to date", …) say whether this start rebuilt anything.
  const stages = output
    .split("\n")
    .filter((line) => /^\[\d\/\d\]/.test(line) && !/starting/.test(line))
    .map((line) => line.replace(/^\[\d\/\d\]\s*/, "").trim());
  return { readyMs, exitCode, quiet: !/ELIFECYCLE/.test(output), stages };
}

export async function freshCloneStart(log: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "adgen-fresh-clone-"));
  try {
    execFileSync("git", ["clone", "--quiet", "--local", root, dir]);
    const installStarted = performance.now();
    // The local store has every package already: no download, as on a machine that installed before.
    execFileSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], {
      cwd: dir,
      stdio: "ignore",
      env: { ...process.env, CI: "1" },
    });
    const installMs = performance.now() - installStarted;
    const first = await startOnce(dir, 3396);
    const restart = await startOnce(dir, 3396);
    log(
      `fresh clone: pnpm install (with the builds) ${seconds(installMs)} s; first pnpm start to its address ${seconds(first.readyMs)} s; ` +
        `restart ${seconds(restart.readyMs)} s; SIGTERM ends with ${first.exitCode} and ${restart.exitCode}, ` +
        `${first.quiet && restart.quiet ? "no ELIFECYCLE" : "pnpm printed ELIFECYCLE"}; the first start's stages: ${first.stages.join("; ") || "none printed"}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
