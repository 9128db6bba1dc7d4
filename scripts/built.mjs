// What `pnpm start` and `pnpm worker` run is built from the sources when it is missing or older than them:
// the SPA (web/dist) and the server bundle with its embedded database template (server/dist). `pnpm
// install` builds both already (scripts/install-build.mjs), so a first start only checks they are fresh.
// Each stage is one line: what it is, and either "up to date" or its progress while it builds (elapsed
// seconds, rewritten in place on a terminal), then how long it took. A build's own output is shown only
// when it fails.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), info.mtimeMs);
}

function stale(output, sources) {
  const built = join(root, output);
  return !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map((s) => newestMtime(join(root, s))));
}

const WEB = { output: "web/dist/index.html", sources: ["web/src", "web/index.html", "schema/src"], filter: "@adgen/web" };
const SERVER = {
  // The template is written last: when it is there and new, the bundle is too.
  output: "server/dist/pglite-template.tar.sha256",
  sources: ["server/src", "server/scripts", "schema/src", "rest-adapter/src", "prisma/index.ts", "prisma/generated", "prisma/migrations"],
  filter: "@adgen/server",
};

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** One stage's line: `[n/total] what: up to date`, or its build with elapsed time, then `done in …`. */
export async function stage(n, total, what, target) {
  const label = `[${n}/${total}] ${what}`;
  if (!stale(target.output, target.sources)) {
    console.log(`${label}: up to date`);
    return;
  }
  const started = performance.now();
  const tty = process.stdout.isTTY;
  if (tty) process.stdout.write(`${label}: building…`);
  else console.log(`${label}: building…`);
  const tick = tty ? setInterval(() => process.stdout.write(`\r${label}: building… ${seconds(started)}`), 1000) : null;
  const output = [];
  const code = await new Promise((resolve) => {
    const build = spawn("pnpm", ["--filter", target.filter, "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    build.stdout.on("data", (chunk) => output.push(chunk));
    build.stderr.on("data", (chunk) => output.push(chunk));
    build.on("error", () => resolve(1));
    build.on("close", (status) => resolve(status ?? 1));
  });
  if (tick) clearInterval(tick);
  if (code !== 0) {
    if (tty) process.stdout.write("\n");
    process.stderr.write(Buffer.concat(output));
    console.error(`${label}: the build failed (above). Fix it and run the command again.`);
    process.exit(code);
  }
  const done = `${label}: built in ${seconds(started)}`;
  if (tty) process.stdout.write(`\r${done}\x1b[K\n`);
  else console.log(done);
}

export const ensureWebBuilt = (n = 1, total = 2) => stage(n, total, "Web app", WEB);
export const ensureServerBuilt = (n = 2, total = 2) => stage(n, total, "Server and its database template", SERVER);

/** Node's arguments for a bundle entry (`main` or `worker`): stack traces name the TypeScript sources. */
export const bundleArgs = (entry) => ["--enable-source-maps", join(root, "server/dist", `${entry}.js`)];
