// What `pnpm start` and `pnpm worker` run is built from the sources when it is missing or older than them:
// the SPA (web/dist) and the server bundle with its embedded database template (server/dist).
import { spawnSync } from "node:child_process";
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

function run(what, filter) {
  console.log(`Building ${what}…`);
  const build = spawnSync("pnpm", ["--filter", filter, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

export function ensureWebBuilt() {
  if (stale("web/dist/index.html", ["web/src", "web/index.html", "schema/src"])) run("the web app", "@adgen/web");
}

export function ensureServerBuilt() {
  const sources = [
    "server/src",
    "server/scripts",
    "schema/src",
    "rest-adapter/src",
    "prisma/index.ts",
    "prisma/generated",
    "prisma/migrations",
  ];
  // The template is written last: when it is there and new, the bundle is too.
  if (stale("server/dist/pglite-template.tar.sha256", sources)) run("the server", "@adgen/server");
}

/** Node's arguments for a bundle entry (`main` or `worker`): stack traces name the TypeScript sources. */
export const bundleArgs = (entry) => ["--enable-source-maps", join(root, "server/dist", `${entry}.js`)];
