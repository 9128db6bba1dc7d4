// A first start on embedded PGlite used to run initdb and every migration (about 4 s on two cores).
// `pnpm build` makes a migrated database once and dumps it beside the server bundle; a start with an empty
// data directory unpacks that dump into it (about 0.1 s), when it was made from exactly these migrations,
// and opens it as it would any existing database. Unpacking the files ourselves, rather than handing the
// dump to PGlite's `loadDataDir`, keeps it out of the WebAssembly heap (a second for the copy through
// it, and a hundred MB it never gave back). Without a dump (or when it is stale) the start migrates as
// before: the dump only saves time. It holds the job queue's tables too (pg-boss makes them on its first start).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readMigrations } from "./migrate.ts";
import { unpackArchive } from "./tar.ts";

/** Beside the server bundle (server/dist), whether this module runs from source or from the bundle. */
export const TEMPLATE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/pglite-template.tar");

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

/** The dump to start an empty data directory from, or null when there is none for these migrations. */
export function templateFor(dataDir: string, file = TEMPLATE_FILE): Buffer | null {
  if (!isEmptyOrMissing(dataDir) || !existsSync(file) || !existsSync(`${file}.sha256`)) return null;
  if (readFileSync(`${file}.sha256`, "utf8").trim() !== migrationsDigest()) return null;
  return readFileSync(file);
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
