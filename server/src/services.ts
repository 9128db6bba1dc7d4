// Assembles the services of one process: database (migrated), sessions, rate limits, events.
import type { Config } from "./config/env.ts";
import type { Services } from "./context.ts";
import { openDatabase } from "./db/database.ts";
import { applyMigrations } from "./db/migrate.ts";
import { type EventBus, InProcessEventBus } from "./events/bus.ts";
import { PostgresEventBus } from "./events/postgres-bus.ts";
import { ensureAdminAccount } from "./modules/admin/bootstrap-admin.ts";
import { SessionManager } from "./modules/auth/sessions.ts";
import { MemoryRateLimitStore, PostgresRateLimitStore, RateLimiter } from "./rate-limit/limiter.ts";

export interface ServiceHandle extends Services {
  close(): Promise<void>;
}

export async function createServices(config: Config): Promise<ServiceHandle> {
  const db = await openDatabase(config.database);
  try {
    await applyMigrations(db.sql);
  } catch (error) {
    await db.close();
    throw error;
  }
  const store = db.engine === "postgres" ? new PostgresRateLimitStore(db.sql) : new MemoryRateLimitStore();
  // One instance on PGlite needs no more than an in-process bus; on PostgreSQL, instances share events.
  const events: EventBus =
    config.database.kind === "postgres" && db.pool ? await PostgresEventBus.connect(config.database.url, db.pool) : new InProcessEventBus();
  const services: Services = {
    config,
    db,
    prisma: db.prisma,
    sessions: new SessionManager(db.prisma, config.sessionSecret, config.sessionDays),
    rateLimiter: new RateLimiter(store, config.rateLimits),
    events,
  };
  await ensureAdminAccount(services);
  return {
    ...services,
    async close() {
      await events.close();
      await db.close();
    },
  };
}
