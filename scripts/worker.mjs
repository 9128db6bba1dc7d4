// `pnpm worker`: workflow workers without the HTTP server (needs DATABASE_URL=postgres://…).
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const worker = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
  // tsx resolves from server/; relative paths (DATA_DIR) still mean where the command was run.
  cwd: join(root, "server"),
  stdio: "inherit",
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => worker.kill(signal));
worker.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
