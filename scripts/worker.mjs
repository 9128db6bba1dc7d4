// `pnpm worker`: workflow workers without the HTTP server (needs DATABASE_URL=postgres://…), from the
// server bundle (built when it is missing or older than its sources).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { bundleArgs, ensureServerBuilt } from "./built.mjs";

ensureServerBuilt();
const worker = spawn(process.execPath, bundleArgs("worker"), {
  stdio: "inherit",
  // Relative paths (DATA_DIR) mean where the command was run.
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => worker.kill(signal));
worker.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
