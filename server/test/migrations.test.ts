// Start-up migrations (STACK.md): applied in order, each in a transaction, recorded in _prisma_migrations
// like `prisma migrate deploy`, idempotent, and safe when two start-ups race on one fresh database.
import { createHash } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, pgliteSql, type Sql } from "../src/db/database.ts";
import { applyMigrations, readMigrations } from "../src/db/migrate.ts";
import { startTestApp, type TestApp, testDatabase } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const MIGRATIONS = readMigrations();

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
  applied_steps_count: number;
}

function recorded(sql: Sql) {
  return sql.query<MigrationRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
  );
}

async function userTableExists(sql: Sql) {
  const rows = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'users'`);
  return Number(rows[0]!.n) === 1;
}

function expectAllRecorded(rows: MigrationRow[]) {
  expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(MIGRATIONS.map((m) => [m.name, m.checksum]));
  for (const row of rows) {
    expect(row.finished_at).not.toBeNull();
    expect(row.rolled_back_at).toBeNull();
    expect(Number(row.applied_steps_count)).toBe(1);
  }
}

describe("applyMigrations", () => {
  it("reads the migration folders in name order with SHA-256 checksums", () => {
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    expect(MIGRATIONS.map((m) => m.name)).toEqual([...MIGRATIONS.map((m) => m.name)].sort());
    for (const m of MIGRATIONS) expect(m.checksum).toBe(createHash("sha256").update(m.sql).digest("hex"));
  });

  it("has recorded every migration of the running service, and a second run applies nothing", async () => {
    const { sql } = app.services.db;
    expectAllRecorded(await recorded(sql));
    expect(await applyMigrations(sql)).toEqual([]);
    expect(await applyMigrations(sql)).toEqual([]);
    expectAllRecorded(await recorded(sql));
  });

  it("rolls a failing migration back whole, records nothing, and applies it once fixed", async () => {
    const { sql } = app.services.db;
    const broken = {
      name: "29990101000000_broken",
      sql: `CREATE TABLE "half_done" (id int); SELECT no_such_function();`,
      checksum: "x".repeat(64),
    };
    await expect(applyMigrations(sql, [...MIGRATIONS, broken])).rejects.toThrow(/^migration 29990101000000_broken failed: /);
    const tables = await sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(tables).toEqual([]);
    expectAllRecorded(await recorded(sql));

    const fixed = { ...broken, sql: `CREATE TABLE "half_done" (id int);`, checksum: "y".repeat(64) };
    expect(await applyMigrations(sql, [...MIGRATIONS, fixed])).toEqual([fixed.name]);
    expect(await applyMigrations(sql, [...MIGRATIONS, fixed])).toEqual([]);
    expect((await recorded(sql)).map((r) => r.migration_name)).toEqual([...MIGRATIONS.map((m) => m.name), fixed.name]);
    await sql.exec(`DROP TABLE "half_done"; DELETE FROM "_prisma_migrations" WHERE migration_name = '${fixed.name}'`);
  });

  it("two concurrent runs on a fresh database both succeed and apply each migration once", async () => {
    const names = MIGRATIONS.map((m) => m.name);
    if (process.env.TEST_DATABASE_URL) {
      // Two instances starting against one empty PostgreSQL database.
      const fresh = await testDatabase();
      const a = await openDatabase(fresh.target);
      const b = await openDatabase(fresh.target);
      try {
        expect(await userTableExists(a.sql)).toBe(false);
        const runs = await Promise.all([applyMigrations(a.sql), applyMigrations(b.sql)]);
        expect([...runs].sort((x, y) => y.length - x.length)).toEqual([names, []]);
        expectAllRecorded(await recorded(b.sql));
        expect(await userTableExists(b.sql)).toBe(true);
      } finally {
        await a.close();
        await b.close();
        await fresh.drop();
      }
    } else {
      // One embedded database, two start-up paths racing on its single connection. (A copy of the template
      // emptied of its schema: as fresh as a new PGlite, without the seconds its initdb takes.)
      const { target } = await testDatabase();
      const db = new PGlite(target.kind === "pglite-memory" ? { loadDataDir: target.loadDataDir } : undefined);
      try {
        const sql = pgliteSql(db);
        await sql.exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public;`);
        expect(await userTableExists(sql)).toBe(false);
        expect(await sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = '_prisma_migrations'`)).toEqual([]);
        const runs = await Promise.all([applyMigrations(sql), applyMigrations(sql)]);
        expect([...runs].sort((x, y) => y.length - x.length)).toEqual([names, []]);
        expectAllRecorded(await recorded(sql));
        expect(await userTableExists(sql)).toBe(true);
      } finally {
        await db.close();
      }
    }
  });
});
