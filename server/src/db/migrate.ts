// Applies prisma/migrations at start-up. The Prisma CLI cannot do it here (it never closes an on-disk
// PGlite, see STACK.md), so we do what `prisma migrate deploy` does: each pending migration in order,
// each in its own transaction, recorded in `_prisma_migrations` with Prisma's columns. A session-level
// advisory lock makes concurrent start-ups of several instances take turns.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { migrationsDir as defaultMigrationsDir } from "@adgen/prisma/migrations-dir";
import { defaultLogger, type Logger } from "../logging/logger.ts";
import type { Sql } from "./sql.ts";

const MIGRATION_LOCK_KEY = 72_707_369; // any constant; shared by every instance of this service

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = defaultMigrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export async function applyMigrations(sql: Sql, migrations = readMigrations(), logger: Logger = defaultLogger()): Promise<string[]> {
  return sql.withConnection(async (conn) => {
    await conn.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await conn.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const done = await conn.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      const applied = new Map(done.map((row) => [row.migration_name, row.checksum]));
      const ran: string[] = [];
      for (const migration of migrations) {
        const recorded = applied.get(migration.name);
        if (recorded !== undefined) {
          if (recorded !== migration.checksum) {
            logger.warn({ migration: migration.name }, "database: migration edited after it was applied (checksum differs)");
          }
          continue;
        }
        const id = randomUUID();
        await conn.exec("BEGIN");
        try {
          await conn.exec(migration.sql);
          await conn.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), now(), 1)`,
            [id, migration.checksum, migration.name],
          );
          await conn.exec("COMMIT");
        } catch (error) {
          await conn.exec("ROLLBACK");
          throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
        }
        ran.push(migration.name);
      }
      return ran;
    } finally {
      await conn.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  });
}
