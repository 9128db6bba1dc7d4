// The migrated database `pnpm build` dumps for a first start: an empty data directory starts from it, with
// every migration and the queue's tables in place; a dump made from other migrations, or a data directory
// that already holds a database, is left alone (the start then migrates as it always did).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { pgliteSql } from "../src/db/database.ts";
import { applyMigrations, readMigrations } from "../src/db/migrate.ts";
import { templateForEmptyDataDir } from "../src/db/pglite-template.ts";
import { writeTemplate } from "../src/db/write-pglite-template.ts";

let dir: string;
let file: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-template-test-"));
  file = join(dir, "template.tar");
  await writeTemplate(file);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the embedded database template", () => {
  it("starts an empty data directory with every migration applied and the queue's tables", { timeout: 60_000 }, async () => {
    const dataDir = join(dir, "fresh");
    const template = templateForEmptyDataDir(dataDir, file);
    expect(template).not.toBeNull();
    const db = await openDatabaseFrom(dataDir, file);
    try {
      // Nothing is left to apply, and the tables are there.
      expect(await applyMigrations(db.sql)).toEqual([]);
      const tables = await db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('users', 'sessions', 'credit_ledger')",
      );
      expect(tables[0]!.n).toBe(3);
      const queue = await db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'",
      );
      expect(queue[0]!.n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
    // Now the directory holds a database: the template is not offered again.
    expect(templateForEmptyDataDir(dataDir, file)).toBeNull();
  });

  it("is not used when it was made from other migrations", () => {
    const stale = join(dir, "stale.tar");
    writeFileSync(stale, "not used");
    writeFileSync(`${stale}.sha256`, "0".repeat(64));
    const empty = join(dir, "empty");
    mkdirSync(empty);
    expect(templateForEmptyDataDir(empty, stale)).toBeNull();
    expect(templateForEmptyDataDir(empty, join(dir, "missing.tar"))).toBeNull();
    expect(readMigrations().length).toBeGreaterThan(1);
  });
});

/** Opens `dataDir` as a start does (database.ts), with the template at `file`. */
async function openDatabaseFrom(dataDir: string, file: string) {
  const template = templateForEmptyDataDir(dataDir, file);
  const pglite = new PGlite(dataDir, template ? { loadDataDir: template } : {});
  await pglite.waitReady;
  return { sql: pgliteSql(pglite), close: () => pglite.close() };
}
