// `pnpm start`: builds the SPA and the server bundle when they are missing or older than their sources
// (scripts/built.mjs), then runs the server (which applies migrations itself) with signals passed through.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { bundleArgs, ensureServerBuilt, ensureWebBuilt } from "./built.mjs";

ensureWebBuilt();
ensureServerBuilt();
const server = spawn(process.execPath, bundleArgs("main"), {
  stdio: "inherit",
  // Relative paths (DATA_DIR) mean where the command was run.
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
