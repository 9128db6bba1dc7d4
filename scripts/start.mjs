// `pnpm start`: builds the SPA when it is missing or older than its sources, then runs the server
// (which applies migrations itself) with signals passed through.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), info.mtimeMs);
}

const built = join(root, "web/dist/index.html");
const sources = Math.max(
  newestMtime(join(root, "web/src")),
  newestMtime(join(root, "web/index.html")),
  newestMtime(join(root, "schema/src")),
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log("Building the web app…");
  const build = spawnSync("pnpm", ["--filter", "@adgen/web", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
  // tsx resolves from server/; relative paths (DATA_DIR) still mean where the command was run.
  cwd: join(root, "server"),
  stdio: "inherit",
  env: { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR || "data") },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
