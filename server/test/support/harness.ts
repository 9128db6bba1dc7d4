// Starts the real service for a test file: its own database (a copy of the migrated PGlite template,
// or a fresh PostgreSQL database when TEST_DATABASE_URL is set, as `pnpm test:pg` does) and a real
// HTTP server on a free port serving REST, tRPC, GraphQL and WebSocket.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type Config, type DatabaseTarget, loadConfig } from "../../src/config/env.ts";
import { listen, type RunningServer } from "../../src/http/app.ts";
import { createServices, type ServiceHandle, type ServiceOptions } from "../../src/services.ts";

export interface TestApp {
  services: ServiceHandle;
  config: Config;
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/** A fresh database for one test file. On PostgreSQL: a uniquely named database, dropped afterwards. */
export async function testDatabase(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dump = readFileSync(inject("pgliteTemplate"));
    return { target: { kind: "pglite-memory", loadDataDir: new Blob([dump]) }, drop: async () => {} };
  }
  const name = `adgen_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * `env` as the service reads it (WORKERS > 0 starts in-process workers); `options` swaps the DNS
 * resolver (the network is closed in tests) or the renderer.
 */
export async function startTestApp(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "adgen-test-"));
  const database = await testDatabase();
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      WORKERS: "0",
      RATE_LIMIT_AUTH_PER_HOUR: "1000",
      RATE_LIMIT_API_PER_MINUTE: "1000",
      STUDIO_MAX_AD_SECONDS: "2",
      QUEUE_MAINTENANCE_SECONDS: "1",
      SWEEP_SECONDS: "1",
      JOB_RETRY_DELAY_SECONDS: "1",
      // Quiet unless a test asks for a level or passes its own logger (server/test/logging.test.ts).
      LOG_LEVEL: "silent",
      ...env,
    },
    { database: database.target },
  );
  const services = await createServices(config, options);
  if (config.workers > 0) await services.startWorkers(config.workers);
  const server = await listen(services, 0, "127.0.0.1");
  return {
    services,
    config,
    url: server.url,
    server,
    async close() {
      await server.close();
      await services.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
