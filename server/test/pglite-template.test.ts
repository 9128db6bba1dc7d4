// The migrated database `pnpm build` dumps for a first start: an empty data directory starts from it, with
// every migration and the queue's tables in place; a dump made from other migrations, or a data directory
// that already holds a database, is left alone (the start then migrates as it always did).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { type Database, openDatabase, pgliteSql } from "../src/db/database.ts";
import { applyMigrations, readMigrations } from "../src/db/migrate.ts";
import { startUnpackingTemplate, takeTemplateUnpack, templateFor, unpackTemplate } from "../src/db/pglite-template.ts";
import { compiledPgliteOptions, startCompilingPglite } from "../src/db/pglite-wasm.ts";
import { packDirectory, unpackArchive } from "../src/db/tar.ts";
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
    expect(templateFor(dataDir, file)).not.toBeNull();
    expect(unpackTemplate(dataDir, file)).toBe(true);
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    // Nothing is left beside it.
    expect(readdirSync(dir).filter((name) => name.startsWith("fresh"))).toEqual(["fresh"]);
    const db = await open(dataDir);
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
      // The service's database and template1: initdb's template0 would be a third of the files a first start writes.
      expect(await db.sql.query("SELECT datname FROM pg_database ORDER BY datname")).toEqual([
        { datname: "postgres" },
        { datname: "template1" },
      ]);
    } finally {
      await db.close();
    }
    // Now the directory holds a database: the template is not unpacked over it.
    expect(templateFor(dataDir, file)).toBeNull();
    expect(unpackTemplate(dataDir, file)).toBe(false);
  });

  it("leaves nothing behind when the dump is damaged, so the start migrates from scratch", () => {
    const damaged = join(dir, "damaged.tar");
    const dump = readFileSync(file);
    // The first entry's header with an entry type the template never holds (a symbolic link).
    const copy = Buffer.from(dump);
    copy[156] = "2".charCodeAt(0);
    writeFileSync(damaged, copy);
    writeFileSync(`${damaged}.sha256`, readFileSync(`${file}.sha256`));
    const dataDir = join(dir, "after-damage");
    expect(() => unpackTemplate(dataDir, damaged)).toThrow(/unexpected entry type 2/);
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith("after-damage"))).toEqual([]);
  });

  it("starts an in-memory database (memory://) too, and one from scratch when the dump is stale", { timeout: 60_000 }, async () => {
    const migrations = readMigrations().length;
    const applied = async (db: Database) =>
      (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'users'"))[0]!.n;
    const fromDump = await openDatabase({ kind: "pglite-memory" }, undefined, file);
    try {
      // Every migration is in place before any is applied, and the queue's tables with them.
      expect(await applied(fromDump)).toBe(1);
      expect(await applyMigrations(fromDump.sql)).toEqual([]);
      const queue = await fromDump.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'",
      );
      expect(queue[0]!.n).toBeGreaterThan(0);
    } finally {
      await fromDump.close();
    }
    const stale = join(dir, "stale-memory.tar");
    writeFileSync(stale, readFileSync(file));
    writeFileSync(`${stale}.sha256`, "0".repeat(64));
    const fromScratch = await openDatabase({ kind: "pglite-memory" }, undefined, stale);
    try {
      expect(await applied(fromScratch)).toBe(0);
      expect(await applyMigrations(fromScratch.sql)).toHaveLength(migrations);
    } finally {
      await fromScratch.close();
    }
  });

  it("is not used when it was made from other migrations", () => {
    const stale = join(dir, "stale.tar");
    writeFileSync(stale, "not used");
    writeFileSync(`${stale}.sha256`, "0".repeat(64));
    const empty = join(dir, "empty");
    mkdirSync(empty);
    expect(unpackTemplate(empty, stale)).toBe(false);
    expect(unpackTemplate(empty, join(dir, "missing.tar"))).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
    expect(readMigrations().length).toBeGreaterThan(1);
  });
});

describe("a first start's head start", () => {
  // What `pnpm start` runs (the built thread) from source.
  const thread = fileURLToPath(new URL("./support/unpack-template-thread.mjs", import.meta.url));

  it("unpacks on its own thread while this one goes on, and openDatabase takes the result up once", { timeout: 60_000 }, async () => {
    const dataDir = join(dir, "threaded");
    startUnpackingTemplate(dataDir, file, thread);
    // Started already, so a second call for the same directory changes nothing.
    startUnpackingTemplate(dataDir, file, thread);
    // This thread is not held up: the directory is still being made when the call returns.
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(false);
    expect(await takeTemplateUnpack(dataDir, file)).toBe(true);
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    expect(readdirSync(dir).filter((name) => name.startsWith("threaded"))).toEqual(["threaded"]);
    // Taken once: the next open finds a database there and unpacks nothing.
    expect(await takeTemplateUnpack(dataDir, file)).toBe(false);
    const db = await open(dataDir);
    try {
      expect(await applyMigrations(db.sql)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("reports the thread's failure where the database is opened, and leaves nothing behind", { timeout: 30_000 }, async () => {
    const damaged = join(dir, "damaged-for-thread.tar");
    const copy = Buffer.from(readFileSync(file));
    copy[156] = "2".charCodeAt(0);
    writeFileSync(damaged, copy);
    writeFileSync(`${damaged}.sha256`, readFileSync(`${file}.sha256`));
    const dataDir = join(dir, "threaded-damage");
    startUnpackingTemplate(dataDir, damaged, thread);
    await expect(takeTemplateUnpack(dataDir, damaged)).rejects.toThrow(/unexpected entry type 2/);
    expect(readdirSync(dir).filter((name) => name.startsWith("threaded-damage"))).toEqual([]);
  });

  it("unpacks on this thread when the thread could not run", { timeout: 30_000 }, async () => {
    const broken = join(dir, "broken-thread.mjs");
    writeFileSync(broken, "throw new Error('this thread cannot start');\n");
    const dataDir = join(dir, "thread-broken");
    startUnpackingTemplate(dataDir, file, broken);
    expect(await takeTemplateUnpack(dataDir, file)).toBe(true);
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    expect(readdirSync(dir).filter((name) => name.startsWith("thread-broken"))).toEqual(["thread-broken"]);
  });

  it("unpacks on this thread when nothing started it, or when the thread was never built", { timeout: 30_000 }, async () => {
    const dataDir = join(dir, "unthreaded");
    startUnpackingTemplate(dataDir, file, join(dir, "not-built.js"));
    expect(existsSync(dataDir)).toBe(false);
    expect(await takeTemplateUnpack(dataDir, file)).toBe(true);
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
  });

  it("hands PGlite its WebAssembly compiled beforehand, and PGlite runs on it", { timeout: 30_000 }, async () => {
    expect(await compiledPgliteOptions()).toEqual({});
    startCompilingPglite();
    const compiled = await compiledPgliteOptions();
    expect(compiled.pgliteWasmModule).toBeInstanceOf(WebAssembly.Module);
    const pglite = new PGlite({ ...compiled });
    try {
      expect((await pglite.query<{ n: number }>("SELECT 6 * 7 AS n")).rows).toEqual([{ n: 42 }]);
    } finally {
      await pglite.close();
    }
  });
});

/** Opens `dataDir` as a start does after unpacking (database.ts). */
async function open(dataDir: string) {
  const pglite = new PGlite(dataDir);
  await pglite.waitReady;
  return { sql: pgliteSql(pglite), close: () => pglite.close() };
}

describe("the template's archive", () => {
  it("unpacks to the same files and folders it was packed from, long names and empty files included", () => {
    const source = join(dir, "tree");
    const deep = join(source, "a".repeat(60), "b".repeat(60));
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(source, "empty-folder"));
    writeFileSync(join(deep, "c".repeat(90)), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(source, "empty"), "");
    writeFileSync(join(source, "page"), Buffer.alloc(8192 + 1, 7));
    writeFileSync(join(source, "skipped.pid"), "1");
    const archive = packDirectory(source, (name) => name === "skipped.pid");
    expect(archive.length % 512).toBe(0);
    const target = join(dir, "tree-copy");
    unpackArchive(archive, target);
    expect(readFileSync(join(target, "a".repeat(60), "b".repeat(60), "c".repeat(90)))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(readFileSync(join(target, "empty"))).toEqual(Buffer.alloc(0));
    expect(readFileSync(join(target, "page"))).toEqual(Buffer.alloc(8193, 7));
    expect(readdirSync(join(target, "empty-folder"))).toEqual([]);
    expect(existsSync(join(target, "skipped.pid"))).toBe(false);
  });

  it("refuses a name that climbs out of the folder it unpacks into", () => {
    const archive = packDirectory(join(dir, "tree"));
    const evil = Buffer.from(archive);
    // The first entry is the long-named folder; rename it to climb out, and fix its checksum.
    evil.fill(0, 0, 100);
    evil.write("../outside", 0);
    evil.fill(0, 345, 500);
    evil.write("        ", 148);
    let sum = 0;
    for (const byte of evil.subarray(0, 512)) sum += byte;
    evil.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    expect(() => unpackArchive(evil, join(dir, "evil"))).toThrow(/unsafe path \.\.\/outside/);
    expect(existsSync(join(dir, "outside"))).toBe(false);
  });
});
