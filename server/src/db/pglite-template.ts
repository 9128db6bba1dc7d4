// A first start on embedded PGlite used to run initdb and every migration (about 4 s on two cores).
// `pnpm build` makes a migrated database once and dumps it beside the server bundle; a start with an empty
// data directory loads that dump instead (about 1 s), when it was made from exactly these migrations.
// Without it (or when it is stale) the start migrates as before: the dump only saves time. It holds the
// job queue's tables too (pg-boss makes them on its first start).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readMigrations } from "./migrate.ts";

/** Beside the server bundle (server/dist), whether this module runs from source or from the bundle. */
export const TEMPLATE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/pglite-template.tar");

/** What the dump was made from: every migration's name and checksum. */
export function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const migration of readMigrations()) hash.update(`${migration.name}:${migration.checksum}\n`);
  return hash.digest("hex");
}

/** The dump to start an empty data directory from, or null when there is none for these migrations. */
export function templateForEmptyDataDir(dataDir: string, file = TEMPLATE_FILE): Blob | null {
  if (existsSync(join(dataDir, "PG_VERSION")) || !existsSync(file) || !existsSync(`${file}.sha256`)) return null;
  if (readFileSync(`${file}.sha256`, "utf8").trim() !== migrationsDigest()) return null;
  return new Blob([readFileSync(file)]);
}
