// Raw SQL access, the shape every database engine provides (database.ts builds it for PGlite and for
// PostgreSQL). Its own file so that migrations, which the database opens with, need not import the opener.
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * The same, as a named prepared statement on PostgreSQL: parsed and planned once per connection, for
   * the queries every request runs. `name` must stand for one `text` only.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script (no parameters). */
  exec(script: string): Promise<void>;
  /** Runs `fn` on one dedicated connection (session-level advisory locks need that). */
  withConnection<T>(fn: (conn: Sql) => Promise<T>): Promise<T>;
}
