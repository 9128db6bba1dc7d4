// A first start on embedded PGlite used to run initdb and every migration (about 4 s on two cores).
// `pnpm build` makes a migrated database once and dumps it beside the server bundle; a start with an empty
// data directory unpacks that dump into it (a thousand files, on a thread of its own when `pnpm start`
// begins), when it was made from exactly these migrations, and opens it as it would any existing
// database. Unpacking the files ourselves, rather than handing the dump to PGlite's `loadDataDir`, keeps
// it out of the WebAssembly heap (a second for the copy through it, and a hundred MB it never gave back).
// An in-memory database (`memory://`) lives in that heap anyway: it is handed the dump (`templateDump`).
// Without a dump (or when it is stale) the start migrates as before: the dump only saves time. It holds
// the job queue's tables too (pg-boss makes them on its first start).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { readMigrations } from "./migrate.ts";
import { unpackArchive } from "./tar.ts";

/** Beside the server bundle (server/dist), whether this module runs from source or from the bundle. */
export const TEMPLATE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/pglite-template.tar");

/** The thread that unpacks it (unpack-template-thread.ts), built beside it. */
export const UNPACK_THREAD = resolve(dirname(TEMPLATE_FILE), "unpack-template.js");

/** What the dump was made from: every migration's name and checksum. */
export function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const migration of readMigrations()) hash.update(`${migration.name}:${migration.checksum}\n`);
  return hash.digest("hex");
}

/** Whether `dataDir` already holds a database (or anything else: then it is not ours to fill). */
function isEmptyOrMissing(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

/** The dump, or null when there is none made from these migrations. */
export function templateDump(file = TEMPLATE_FILE): Buffer | null {
  if (!existsSync(file) || !existsSync(`${file}.sha256`)) return null;
  if (readFileSync(`${file}.sha256`, "utf8").trim() !== migrationsDigest()) return null;
  return readFileSync(file);
}

/** The dump to start an empty data directory from, or null when there is none for these migrations. */
export function templateFor(dataDir: string, file = TEMPLATE_FILE): Buffer | null {
  return isEmptyOrMissing(dataDir) ? templateDump(file) : null;
}

/**
 * Unpacks the dump into an empty `dataDir` (answers whether it did). It is unpacked beside the directory
 * and renamed into place, so a start that dies half-way leaves no half a database behind.
 */
export function unpackTemplate(dataDir: string, file = TEMPLATE_FILE): boolean {
  const dump = templateFor(dataDir, file);
  if (!dump) return false;
  const staging = `${dataDir}.unpacking-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    unpackArchive(dump, staging);
    if (existsSync(dataDir)) rmSync(dataDir, { recursive: true });
    renameSync(staging, dataDir);
    return true;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Unpacks started before the database is opened, by data directory. */
const early = new Map<string, Promise<boolean>>();

/**
 * Starts unpacking the dump into `dataDir` on a thread of its own, for `openDatabase` to take up.
 * `pnpm start` calls it before it loads the rest of the service, so a first start writes the thousand
 * files on the second core while the main thread loads modules, instead of after them. Without the built
 * thread (a start from source, never built) `openDatabase` unpacks on the main thread as before.
 */
export function startUnpackingTemplate(dataDir: string, file = TEMPLATE_FILE, thread = UNPACK_THREAD): void {
  if (early.has(dataDir) || !existsSync(thread)) return;
  const run = new Promise<boolean>((resolve, reject) => {
    const unpacking = new Worker(thread, { workerData: { dataDir, file } });
    unpacking.once("message", (done: boolean) => resolve(done));
    unpacking.once("error", reject);
    unpacking.once("exit", (code) => reject(new Error(`the template's unpacking thread stopped (exit code ${code}) before it answered`)));
  });
  // A failure is thrown where the unpack is taken up (openDatabase), not as an unhandled rejection.
  run.catch(() => {});
  early.set(dataDir, run);
}

/**
 * The unpack `startUnpackingTemplate` started for `dataDir` (taken once), or else one on this thread. When
 * the thread failed (it cleaned up after itself before it stopped), this thread tries once more: a thread
 * that could not start must not stop the service from starting, and a damaged template fails the same way.
 */
export async function takeTemplateUnpack(dataDir: string, file = TEMPLATE_FILE): Promise<boolean> {
  const run = early.get(dataDir);
  early.delete(dataDir);
  if (!run) return unpackTemplate(dataDir, file);
  return run.catch(() => unpackTemplate(dataDir, file));
}
