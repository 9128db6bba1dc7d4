// `pnpm worker`: workflow workers without the HTTP server (needs DATABASE_URL=postgres://…).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const worker = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { cwd: join(root, "server"), stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => worker.kill(signal));
worker.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
