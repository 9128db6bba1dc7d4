// `pnpm build` (server part): the service and the worker as ES modules in server/dist, so a start loads
// a few files with Node's own loader instead of transpiling some 300 TypeScript modules through tsx and
// resolving some 550 package files (2 s of the start-up on two cores). The workspace's code and most
// packages are bundled; the EXTERNAL ones stay imports.
import { spawnSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const serverDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(serverDir, "..");

/**
 * Packages left to Node's loader: those that find files beside themselves (WebAssembly, fonts, binaries),
 * native addons, the ones loaded only when a feature is first used (each costs nothing until then), and
 * graphql, which must be one instance for every package that uses it.
 */
const EXTERNAL = [
  "@prisma/client",
  "@prisma/adapter-pg",
  "pglite-prisma-adapter",
  "@electric-sql/pglite",
  "pg",
  "pg-boss",
  "@node-rs/argon2",
  "@napi-rs/canvas",
  "@ffmpeg-installer/ffmpeg",
  "espeak-ng",
  "dejavu-fonts-ttf",
  "graphql",
  "@aws-sdk/client-s3",
  "@aws-sdk/lib-storage",
  "exceljs",
  "mammoth",
  "papaparse",
  "unpdf",
  "pdfkit",
  "stripe",
  "web-push",
  "nodemailer",
  "archiver",
  "pino",
  "msw",
];
const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/**
 * External packages are imported by absolute path: the bundle sits elsewhere than the workspace package
 * that imports them (pnpm gives each its own node_modules).
 */
const externalPackages = {
  name: "external-packages",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      if (!EXTERNAL.includes(packageName(args.path))) return undefined;
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * `import.meta.url` keeps meaning the source file (the files beside it: migrations, the SPA, a worker
 * script), in the workspace's code and in bundled packages alike.
 */
const sourceUrls = {
  name: "source-urls",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.(ts|js|mjs)$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const loader = args.path.endsWith(".ts") ? "ts" : "js";
      return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)), loader };
    });
  },
};

const started = performance.now();
await rm(join(serverDir, "dist"), { recursive: true, force: true });
const result = await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: "src/main.ts",
    worker: "src/worker.ts",
    "build-template": "src/db/build-template.ts",
    // Beside the template it unpacks (pglite-template.ts finds it there).
    "unpack-template": "src/db/unpack-template-thread.ts",
    // The knowledge extraction's child process (extraction-sandbox.ts starts it from beside the bundle).
    "extraction-child": "src/modules/knowledge/extraction-child.ts",
    // The render threads (render-thread.ts starts them from beside the bundle).
    "render-thread": "src/modules/render/render-thread-entry.ts",
  },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // Stack traces name the sources (node --enable-source-maps in the start script).
  sourcesContent: false,
  metafile: true,
  logLevel: "warning",
  plugins: [externalPackages, sourceUrls],
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});
const inputs = Object.keys(result.metafile.inputs).length;
console.log(
  `server built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${inputs} modules into ${relative(root, join(serverDir, "dist"))}`,
);

// The migrated embedded database a first start loads instead of running initdb and the migrations.
const template = spawnSync(process.execPath, [join(serverDir, "dist/build-template.js")], { stdio: "inherit" });
if (template.status !== 0) process.exit(template.status ?? 1);
