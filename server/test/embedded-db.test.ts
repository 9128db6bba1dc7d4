// The default embedded database (no DATABASE_URL: PGlite files under DATA_DIR) keeps accounts, sessions
// and the generated session secret across a restart.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config/env.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { listen } from "../src/http/app.ts";
import { createServices } from "../src/services.ts";
import { PASSWORD } from "./support/accounts.ts";
import { RestClient, uniqueEmail } from "./support/clients.ts";

const dataDir = mkdtempSync(join(tmpdir(), "adgen-embedded-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Seeds DATA_DIR/db from the migrated template when this run has one (saves PGlite's initdb, seconds). */
beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) return;
  const seed = new PGlite(join(dataDir, "db"), { loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) });
  await seed.waitReady;
  await seed.close();
});

/** Starts the service as `pnpm start` would with only DATA_DIR set. */
async function start() {
  const config = loadConfig({ DATA_DIR: dataDir, WORKERS: "0" });
  expect(config.database).toEqual({ kind: "pglite", dataDir: join(dataDir, "db") });
  const services = await createServices(config);
  const server = await listen(services, 0, "127.0.0.1");
  return {
    services,
    url: server.url,
    async stop() {
      await server.close();
      await services.close();
    },
  };
}

describe("embedded database on disk", () => {
  it("keeps an account, its balance and its session across a restart", { timeout: 60_000 }, async () => {
    const email = uniqueEmail("disk").toLowerCase();
    const first = await start();
    let cookie: string;
    let id: string;
    try {
      const client = new RestClient(first.url);
      const signup = await client.post("/auth/signup", { email, password: PASSWORD });
      expect(signup.status).toBe(200);
      id = signup.body.data.id;
      cookie = client.cookie!;
      expect((await client.get("/health/db")).body.data.engine).toBe("pglite");
    } finally {
      await first.stop();
    }
    expect(existsSync(join(dataDir, "db", "PG_VERSION"))).toBe(true);
    expect(existsSync(join(dataDir, "secrets", "session-secret"))).toBe(true);

    const second = await start();
    try {
      // Nothing left to migrate on the second start.
      expect(await applyMigrations(second.services.db.sql)).toEqual([]);
      // The session from before the restart is still valid (same secret, same session row).
      const old = Object.assign(new RestClient(second.url), { cookie });
      const session = await old.get("/auth/session");
      expect(session.status).toBe(200);
      expect(session.body.data).toMatchObject({ userId: id, email });

      const client = new RestClient(second.url);
      const login = await client.post("/auth/login", { email, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.data).toEqual({ id, email, role: "user" });
      expect((await client.get("/user/credits")).body.data).toEqual({ balance: 10 });
      const duplicate = await new RestClient(second.url).post("/auth/signup", { email, password: PASSWORD });
      expect(duplicate.status).toBe(409);
    } finally {
      await second.stop();
    }
  });
});
