// The job queue: pg-boss on the service's own database (PGlite or PostgreSQL), so workers on any
// machine that reaches the database share one queue. Messages carry only ids; the state lives in our
// tables, and a message id derives from (job id, queue generation), so sending twice is harmless.
import { createHash } from "node:crypto";
import { routeMultiStatementToExec } from "@adgen/prisma";
import PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import type { Logger } from "../logging/logger.ts";

export const QUEUE = {
  workflow: "workflow",
  /** Dead letters of `workflow`: jobs that failed their last attempt (thrown error or a dead worker). */
  workflowFailed: "workflow-failed",
  webhook: "webhook",
  export: "export",
  /** Text extraction of knowledge-base items. */
  knowledge: "knowledge",
  /** Finished `publish: true` ads, each waiting for its scheduled time. */
  publish: "publish",
  /** Scene segments of renders, for any worker to encode (render/segment-farm.ts). */
  renderSegment: "render-segment",
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

export interface QueueSettings {
  /** Seconds a job may stay active before it is presumed dead (its worker crashed) and retried. */
  jobTimeoutSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
  /** How often expired jobs are detected. */
  maintenanceSeconds: number;
  pollingSeconds: number;
}

export type QueueMessage<T> = PgBoss.JobWithMetadata<T>;

/** A stable UUID from any string (the message id of a job's n-th enqueue). */
export function messageId(...parts: (string | number)[]): string {
  const hex = createHash("sha256").update(parts.join(":")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class JobQueue {
  private constructor(
    readonly boss: PgBoss,
    readonly settings: QueueSettings,
  ) {}

  static async start(db: Database, settings: QueueSettings, options: { supervise: boolean; logger: Logger }): Promise<JobQueue> {
    const common = {
      schema: "pgboss",
      supervise: options.supervise,
      schedule: false,
      maintenanceIntervalSeconds: settings.maintenanceSeconds,
      monitorStateIntervalSeconds: Math.max(settings.maintenanceSeconds, 10),
    };
    let boss: PgBoss;
    if (db.pglite) {
      const pglite = routeMultiStatementToExec(db.pglite);
      boss = new PgBoss({
        ...common,
        db: { executeSql: async (text: string, values: unknown[]) => ({ rows: (await pglite.query(text, values ?? [])).rows }) },
      });
    } else {
      const url = (db.pool as unknown as { options: { connectionString: string } }).options.connectionString;
      boss = new PgBoss({ ...common, connectionString: url, max: 4 });
    }
    boss.on("error", (error) => options.logger.error({ error: error.message }, "queue: pg-boss error"));
    await boss.start();
    const retry = { retryLimit: settings.retryLimit, retryDelay: settings.retryDelaySeconds, retryBackoff: true };
    await ensureQueue(boss, { name: QUEUE.workflowFailed, retryLimit: 5, retryDelay: 2, retryBackoff: true });
    await ensureQueue(boss, {
      name: QUEUE.workflow,
      ...retry,
      expireInSeconds: settings.jobTimeoutSeconds,
      deadLetter: QUEUE.workflowFailed,
    });
    await ensureQueue(boss, { name: QUEUE.webhook, retryLimit: 6, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 });
    await ensureQueue(boss, { name: QUEUE.export, retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 });
    await ensureQueue(boss, { name: QUEUE.knowledge, retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 600 });
    await ensureQueue(boss, { name: QUEUE.publish, retryLimit: 2, retryDelay: 30, expireInSeconds: 900 });
    // A segment's retries are its owner's (render_segment_tasks.attempts): a message is only a wake-up call.
    await ensureQueue(boss, { name: QUEUE.renderSegment, retryLimit: 0, expireInSeconds: 900 });
    return new JobQueue(boss, settings);
  }

  async send<T extends object>(queue: QueueName, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    return this.boss.send(queue, data, options);
  }

  /** Deletes messages by id, whatever their state (a worker running one finds it gone when it completes). */
  async delete(queue: QueueName, ids: string | string[]): Promise<void> {
    const list = Array.isArray(ids) ? ids : [ids];
    if (list.length) await this.boss.deleteJob(queue, list);
  }

  /** Registers `concurrency` pollers on `queue`; each handles one message at a time. */
  async work<T>(queue: QueueName, concurrency: number, handler: (message: QueueMessage<T>) => Promise<void>): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      ids.push(
        await this.boss.work<T>(
          queue,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.settings.pollingSeconds },
          async ([message]) => {
            if (message) await handler(message);
          },
        ),
      );
    }
    return ids;
  }

  /** Wakes this process's pollers of `queue` now instead of at their next poll. */
  nudge(workerIds: string[]) {
    for (const id of workerIds) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 5000, close: true });
  }
}

async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue & { name: string }) {
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = await boss.getQueue(queue.name);
      if (existing) await boss.updateQueue(queue.name, queue);
      else await boss.createQueue(queue.name, queue);
      return;
    } catch (error) {
      // Another instance starting at the same moment: our create lost a race (duplicate) or a deadlock to its
      // create, which may not have committed yet. Look again shortly.
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
