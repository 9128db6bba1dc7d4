// pglite-prisma-adapter 0.6.1 sends argument-less multi-statement SQL (migration scripts, the CLI's
// shadow database) through the extended protocol, which PostgreSQL rejects ("cannot insert multiple
// commands into a prepared statement"). We route such SQL to PGlite's exec(), which uses the simple
// protocol, and keep everything else on query().
import { PGlite, type PGliteInterface, type Results } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

type Queryable = Pick<PGliteInterface, "query" | "exec">;

function isMultiStatement(sql: string): boolean {
  return sql.trim().replace(/;\s*$/, "").includes(";");
}

export function routeMultiStatementToExec<T extends Queryable>(db: T): T {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "query") {
        return async (sql: string, params?: unknown[], options?: Parameters<Queryable["query"]>[2]) => {
          if ((!params || params.length === 0) && isMultiStatement(sql)) {
            const results = await target.exec(sql, options);
            return (results.at(-1) ?? { rows: [], fields: [], affectedRows: 0 }) as Results;
          }
          return target.query(sql, params, options);
        };
      }
      if (prop === "transaction") {
        const transaction = Reflect.get(target, prop, receiver) as (fn: (tx: Queryable) => Promise<unknown>) => Promise<unknown>;
        return (fn: (tx: Queryable) => Promise<unknown>) => transaction.call(target, (tx) => fn(routeMultiStatementToExec(tx)));
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A Prisma driver-adapter factory over one PGlite instance (and a fresh in-memory one as shadow). */
export class PGliteAdapterFactory extends PrismaPGlite {
  constructor(db: PGlite) {
    super(routeMultiStatementToExec(db));
  }

  override connectToShadowDb() {
    return new PrismaPGlite(routeMultiStatementToExec(new PGlite())).connect();
  }
}
