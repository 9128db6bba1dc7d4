// `pnpm start`: checks the SPA and the server bundle are built and fresh (`pnpm install` built them;
// scripts/built.mjs rebuilds what is missing or older than its sources), then runs the server (which
// applies migrations itself) with signals passed through. One line per stage, then the address to open
// once the service answers. Ctrl-C or SIGTERM stops it in order and ends with 0 (package.json runs this
// with `exec`, so no shell between pnpm and this process turns the signal into a failure).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { bundleArgs, ensureServerBuilt, ensureWebBuilt } from "./built.mjs";

const started = performance.now();
await ensureWebBuilt(1, 3);
await ensureServerBuilt(2, 3);

const port = process.env.PORT || "3000";
const host = process.env.HOST || "127.0.0.1";
const publicUrl = process.env.PUBLIC_URL || `http://localhost:${port}`;
// Where this machine reaches the server: a wildcard bind answers on loopback.
const probeHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
console.log("[3/3] Service: starting (database migrations, workers)…");

const server = spawn(process.execPath, bundleArgs("main"), {
  stdio: "inherit",
  // Relative paths (DATA_DIR) mean where the command was run.
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}
// An orderly stop (ours, or the server's own on a signal it got from the terminal) is a success.
server.on("exit", (code, signal) => process.exit(stopping || signal === "SIGINT" || signal === "SIGTERM" ? (code ?? 0) : (code ?? 1)));

async function announceWhenReady() {
  while (!stopping && server.exitCode === null) {
    try {
      const res = await fetch(`http://${probeHost}:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        console.log(`AdGen is ready after ${((performance.now() - started) / 1000).toFixed(1)} s: open ${publicUrl}`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
void announceWhenReady();
