// Makes the embedded database template (pglite-template.ts): run by `pnpm build` and by the tests' setup.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../logging/logger.ts";
import { JobQueue } from "../queue/queue.ts";
import { openDatabase } from "./database.ts";
import { applyMigrations } from "./migrate.ts";
import { migrationsDigest, TEMPLATE_FILE } from "./pglite-template.ts";
import { packDirectory } from "./tar.ts";

/** Makes the dump (run by `pnpm build`): the migrations, and the job queue's own tables. */
export async function writeTemplate(file = TEMPLATE_FILE): Promise<void> {
  const logger = createLogger({ level: "warn" });
  const scratch = mkdtempSync(join(tmpdir(), "adgen-template-"));
  try {
    const dataDir = join(scratch, "db");
    const db = await openDatabase({ kind: "pglite", dataDir, useTemplate: false }, logger);
    try {
      await applyMigrations(db.sql, undefined, logger);
      // A start reconciles each queue's settings with its own configuration; these are placeholders.
      const settings = { jobTimeoutSeconds: 3600, retryLimit: 2, retryDelaySeconds: 5, maintenanceSeconds: 60, pollingSeconds: 2 };
      const queue = await JobQueue.start(db, settings, { supervise: false, logger });
      await queue.stop();
      // initdb's template0 (a pristine copy for CREATE DATABASE … TEMPLATE template0, which the service never
      // runs) is 300 of the dump's 1,000 files, and a first start writes every file the dump holds.
      // (Without template1 as well, the first query of Prisma's cost PostgreSQL 60 MB more: it stays.)
      await db.sql.query("UPDATE pg_database SET datistemplate = false WHERE datname = 'template0'");
      await db.sql.query("DROP DATABASE template0");
    } finally {
      await db.close();
    }
    // Packed after a clean shutdown: a start that unpacks it opens it without replaying the write-ahead
    // log (PGlite's own dump of a running database cost the first start a third of a second of recovery).
    writeFileSync(
      file,
      packDirectory(dataDir, (name) => name === "postmaster.pid"),
    );
    writeFileSync(`${file}.sha256`, `${migrationsDigest()}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
