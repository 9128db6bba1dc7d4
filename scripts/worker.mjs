// `pnpm worker`: workflow workers without the HTTP server (needs DATABASE_URL=postgres://…), from the
// server bundle (built when it is missing or older than its sources).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { bundleArgs, ensureServerBuilt } from "./built.mjs";

await ensureServerBuilt(1, 1);
const worker = spawn(process.execPath, bundleArgs("worker"), {
  stdio: "inherit",
  // Relative paths (DATA_DIR) mean where the command was run.
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping = true;
    worker.kill(signal);
  });
}
// An orderly stop on Ctrl-C or SIGTERM is a success (package.json runs this with `exec`, see start.mjs).
worker.on("exit", (code, signal) => process.exit(stopping || signal === "SIGINT" || signal === "SIGTERM" ? (code ?? 0) : (code ?? 1)));
