// One code path for three databases: embedded PGlite on disk, in-memory PGlite, PostgreSQL servers.
// Prisma talks to each through a driver adapter; `sql` gives raw access for the few things Prisma
// cannot express (migrations, advisory locks, LISTEN/NOTIFY, atomic counters).
import { PGlite } from "@electric-sql/pglite";
import { PGliteAdapterFactory, PrismaClient, PrismaPg } from "@adgen/prisma";
import pg from "pg";
import type { DatabaseTarget } from "../config/env.ts";
import { defaultLogger, type Logger } from "../logging/logger.ts";
import { TEMPLATE_FILE, takeTemplateUnpack, templateDump } from "./pglite-template.ts";
import { compiledPgliteOptions } from "./pglite-wasm.ts";
import type { Sql } from "./sql.ts";

export type Engine = "pglite" | "postgres";

export type { Sql } from "./sql.ts";

export interface Database {
  engine: Engine;
  prisma: PrismaClient;
  sql: Sql;
  /** The pg pool on PostgreSQL (LISTEN/NOTIFY and queue libraries need it), null on PGlite. */
  pool: pg.Pool | null;
  /** The PGlite instance, null on PostgreSQL. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

/**
 * The embedded database's memory: PostgreSQL's default 128 MB of shared buffers live inside PGlite's
 * WebAssembly heap, which never shrinks. The embedded default serves one small deployment (its data is a
 * few hundred MB at most, read through the OS's own cache): 16 MB of buffers cut its resident memory by
 * about 115 MB. A deployment that needs more moves to PostgreSQL (DATABASE_URL).
 */
const PGLITE_SETTINGS = ["shared_buffers = 16MB"];

/** The tail of each PGlite's queue of withConnection callers. */
const pgliteTurns = new WeakMap<object, Promise<unknown>>();

export function pgliteSql(db: Pick<PGlite, "query" | "exec">): Sql {
  const sql: Sql = {
    async query<T>(text: string, params: unknown[] = []) {
      return (await db.query<T>(text, params)).rows;
    },
    async prepared<T>(_name: string, text: string, params: unknown[]) {
      return (await db.query<T>(text, params)).rows;
    },
    async exec(script) {
      await db.exec(script);
    },
    // PGlite is one connection already, so a session-level advisory lock does not keep two callers of this
    // process apart (it is re-entrant within a session): they take turns here instead. Not re-entrant.
    withConnection: (fn) => {
      const run = (pgliteTurns.get(db) ?? Promise.resolve()).then(() => fn(sql));
      pgliteTurns.set(
        db,
        run.catch(() => {}),
      );
      return run;
    },
  };
  return sql;
}

function poolSql(pool: pg.Pool | pg.PoolClient): Sql {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
    },
    async prepared<T>(name: string, text: string, params: unknown[]) {
      return (await pool.query({ name, text, values: params })).rows as T[];
    },
    async exec(script) {
      await pool.query(script);
    },
    async withConnection(fn) {
      if (!(pool instanceof pg.Pool)) return fn(poolSql(pool));
      const client = await pool.connect();
      try {
        return await fn(poolSql(client));
      } finally {
        client.release();
      }
    },
  };
}

export async function openDatabase(
  target: DatabaseTarget,
  logger: Logger = defaultLogger(),
  templateFile = TEMPLATE_FILE,
): Promise<Database> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 4, idleTimeoutMillis: 10_000 });
    pool.on("error", (error) => logger.error({ error: error.message }, "database: idle client error"));
    const prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: target.url, max: 10, idleTimeoutMillis: 10_000 }),
    });
    return {
      engine: "postgres",
      prisma,
      sql: poolSql(pool),
      pool,
      pglite: null,
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  if (target.kind === "pglite" && target.useTemplate !== false && (await takeTemplateUnpack(target.dataDir, templateFile)))
    logger.info({ dataDir: target.dataDir }, "embedded database made from the build's template");
  // In memory, the build's dump saves initdb and every migration too (about 5 s of a 7 s start).
  let loadDataDir = target.kind === "pglite-memory" ? target.loadDataDir : undefined;
  if (target.kind === "pglite-memory" && !loadDataDir) {
    const dump = templateDump(templateFile);
    if (dump) {
      loadDataDir = new Blob([dump as Uint8Array<ArrayBuffer>]);
      logger.info("in-memory database made from the build's template");
    }
  }
  const compiled = await compiledPgliteOptions();
  const pglite =
    target.kind === "pglite"
      ? new PGlite(target.dataDir, { postgresqlconf: PGLITE_SETTINGS, ...compiled })
      : new PGlite({ postgresqlconf: PGLITE_SETTINGS, ...compiled, ...(loadDataDir ? { loadDataDir } : {}) });
  await pglite.waitReady;
  // The Prisma adapter reads timestamptz text without its offset, so the session must be UTC.
  await pglite.exec("SET TIME ZONE 'UTC'");
  const prisma = new PrismaClient({ adapter: new PGliteAdapterFactory(pglite) });
  return {
    engine: "pglite",
    prisma,
    sql: pgliteSql(pglite),
    pool: null,
    pglite,
    async close() {
      await prisma.$disconnect();
      // The adapter's dispose() does not close PGlite; an on-disk database must be closed to flush.
      if (!pglite.closed) await pglite.close();
    },
  };
}
