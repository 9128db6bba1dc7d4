// Assembles the services of one process: database (migrated), sessions, rate limits, events.
import type { Config } from "./config/env.ts";
import type { Services } from "./request-context.ts";
import { openDatabase } from "./db/database.ts";
import { applyMigrations } from "./db/migrate.ts";
import { type EventBus, InProcessEventBus } from "./bus/bus.ts";
import { SharedRateLimitStore } from "./rate-limit/shared-store.ts";
import { PostgresEventBus } from "./bus/postgres-bus.ts";
import { ensureAdminAccount } from "./modules/admin/bootstrap-admin.ts";
import { SessionManager } from "./modules/auth/sessions.ts";
import { createMediaStorage } from "./media/media-config.ts";
import { type Resolver, systemResolver } from "./modules/net/safe-fetch.ts";
import { createStudioRenderer } from "./modules/render/index.ts";
import { createSegmentFarm, newWorkerName, SEGMENTS_QUEUED } from "./modules/render/segment-farm.ts";
import { createSegmentStore } from "./modules/render/segment-store.ts";
import type { VideoRenderer } from "./modules/render/types.ts";
import { createLogger, type Logger } from "./logging/logger.ts";
import { createEspeakSynthesizer } from "./modules/voice/espeak.ts";
import { createLanguageModel } from "./modules/language-model/chat-completions.ts";
import { remoteProvidersFrom } from "./modules/providers/remote-providers.ts";
import type { VoiceSynthesizer } from "./modules/voice/types.ts";
import { JobQueue } from "./queue/queue.ts";
import { startWorkers, type Workers } from "./workers/workers.ts";
import { MemoryRateLimitStore, PostgresRateLimitStore, RateLimiter } from "./rate-limit/limiter.ts";

export interface ServiceHandle extends Services {
  /** Starts `count` workflow workers (and the other background workers and sweeps) in this process. */
  startWorkers(count: number): Promise<Workers>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  resolver?: Resolver;
  renderer?: VideoRenderer;
  voice?: VoiceSynthesizer;
  /** Replaces the stdout logger at LOG_LEVEL (tests capture lines in memory). */
  logger?: Logger;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<ServiceHandle> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  let db = await openDatabase(config.database, logger);
  let applied: string[];
  try {
    applied = await applyMigrations(db.sql, undefined, logger);
  } catch (error) {
    await db.close();
    throw error;
  }
  // Creating every table grows an embedded database's WebAssembly heap by a hundred MB or more that it
  // never gives back: after a first start without the build's template it is opened afresh (0.3 s), with
  // the memory of a normal start.
  if (config.database.kind === "pglite" && applied.length > 1) {
    await db.close();
    db = await openDatabase(config.database, logger);
  }
  const store = db.engine === "postgres" ? new PostgresRateLimitStore(db.sql) : new MemoryRateLimitStore();
  const hotStore =
    db.engine === "postgres"
      ? new SharedRateLimitStore(db.sql, (error) => logger.warn({ error: error.message }, "rate limits: sharing counts failed; retrying"))
      : undefined;
  // One instance on PGlite needs no more than an in-process bus; on PostgreSQL, instances share events.
  const events: EventBus =
    config.database.kind === "postgres" && db.pool
      ? await PostgresEventBus.connect(config.database.url, db.pool, logger)
      : new InProcessEventBus();
  const queue = await JobQueue.start(db, config.queue, { supervise: true, logger });
  const media = await createMediaStorage(config.media, config.dataDir);
  const segmentCache = config.renderCacheBytes > 0 ? createSegmentStore(db.prisma, media, config.renderCacheBytes) : null;
  // A render's segments go on the queue for every worker, and every instance's segment workers are woken
  // at once (through the database's notifications when instances share one), not at their next poll.
  const workerName = newWorkerName();
  const segmentFarm = segmentCache
    ? createSegmentFarm({
        prisma: db.prisma,
        queue,
        media,
        cache: segmentCache,
        workerName,
        wake: () => events.broadcast(SEGMENTS_QUEUED, null),
      })
    : null;
  const services: ServiceHandle = {
    config,
    db,
    prisma: db.prisma,
    sessions: new SessionManager(db.prisma, config.sessionSecret, config.sessionDays, events),
    rateLimiter: new RateLimiter(store, config.rateLimits, hotStore),
    events,
    logger,
    queue,
    media,
    renderer:
      options.renderer ??
      createStudioRenderer({
        ...(config.renderThreads ? { threads: config.renderThreads } : {}),
        ...(segmentCache ? { segmentCache } : {}),
        ...(segmentFarm ? { segmentFarm } : {}),
      }),
    voice: options.voice ?? createEspeakSynthesizer(),
    languageModel: config.languageModel ? createLanguageModel(config.languageModel) : null,
    providers: remoteProvidersFrom(config),
    resolver: options.resolver ?? systemResolver,
    wakeWorkers: () => {},
    segmentCache,
    workerName,
    async startWorkers(count: number) {
      workers = await startWorkers(services, count);
      const ids = workers.workflowWorkerIds;
      services.wakeWorkers = () => queue.nudge(ids);
      stopWaking = events.onBroadcast(SEGMENTS_QUEUED, () => workers?.wakeSegmentHelper());
      return workers;
    },
    async close() {
      stopWaking();
      await workers?.stop();
      await queue.stop();
      await services.rateLimiter.close();
      await events.close();
      await services.voice.close?.();
      services.media.close?.();
      await db.close();
    },
  };
  let workers: Workers | null = null;
  let stopWaking = () => {};
  await ensureAdminAccount(services);
  return services;
}
