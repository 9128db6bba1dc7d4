// Makes the embedded database template (pglite-template.ts): run by `pnpm build` and by the tests' setup.
import { writeFileSync } from "node:fs";
import { createLogger } from "../logging/logger.ts";
import { JobQueue } from "../queue/queue.ts";
import { openDatabase } from "./database.ts";
import { applyMigrations } from "./migrate.ts";
import { migrationsDigest, TEMPLATE_FILE } from "./pglite-template.ts";

/** Makes the dump (run by `pnpm build`): the migrations, and the job queue's own tables. */
export async function writeTemplate(file = TEMPLATE_FILE): Promise<void> {
  const logger = createLogger({ level: "warn" });
  const db = await openDatabase({ kind: "pglite-memory" }, logger);
  try {
    await applyMigrations(db.sql, undefined, logger);
    // A start reconciles each queue's settings with its own configuration; these are placeholders.
    const settings = { jobTimeoutSeconds: 3600, retryLimit: 2, retryDelaySeconds: 5, maintenanceSeconds: 60, pollingSeconds: 2 };
    const queue = await JobQueue.start(db, settings, { supervise: false, logger });
    await queue.stop();
    const dump = await db.pglite!.dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(`${file}.sha256`, `${migrationsDigest()}\n`);
  } finally {
    await db.close();
  }
}
