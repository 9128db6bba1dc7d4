// PGlite's WebAssembly (9 MB), compiled as soon as `pnpm start` knows it will open the embedded database:
// V8 compiles it on background threads while the main thread loads the service, instead of when PGlite
// is created. PGlite compiles it itself when nothing started it (tests, tools), or when this failed.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let compiling: Promise<WebAssembly.Module | null> | null = null;

export function startCompilingPglite(): void {
  if (compiling) return;
  // Where PGlite itself loads it from: beside its own modules.
  const wasm = join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "pglite.wasm");
  compiling = readFile(wasm)
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => null);
}

/** PGlite's options for the module compiled early, if there is one. */
export async function compiledPgliteOptions(): Promise<{ pgliteWasmModule?: WebAssembly.Module }> {
  const module = await compiling;
  return module ? { pgliteWasmModule: module } : {};
}
