// GET /admin/system: what the background side is doing: queue depths and states (pg-boss), workers,
// the scheduled agents, and storage use (media files, free disk space, database size).
import { statfs } from "node:fs/promises";
import { type AdminSystem, QUEUE_STATES } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { QUEUE } from "../../queue/queue.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { listAgentStates } from "../agents/agents.ts";
import { mailStatus } from "../mail/mail-status.ts";
import { segmentCacheStats } from "../render/segment-store.ts";

async function queueStates(services: Services): Promise<AdminSystem["queues"]> {
  const rows = await services.db.sql.query<{ name: string; state: string; n: number }>(
    "SELECT name, state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY name, state",
  );
  return Object.values(QUEUE).map((name) => {
    const counted = new Map(rows.filter((row) => row.name === name).map((row) => [row.state, Number(row.n)]));
    const states = Object.fromEntries(
      QUEUE_STATES.map((state) => [state, counted.get(state) ?? 0]),
    ) as AdminSystem["queues"][number]["states"];
    return { name, depth: states.created + states.retry, states };
  });
}

export async function diskSpace(path: string): Promise<{ freeBytes: number; totalBytes: number } | null> {
  try {
    const info = await statfs(path);
    return { freeBytes: info.bavail * info.bsize, totalBytes: info.blocks * info.bsize };
  } catch {
    return null;
  }
}

export async function adminSystem(services: Services, source: AuditSource): Promise<AdminSystem> {
  const media = await services.media.usage();
  const [queues, agents, disk, dbSize, running, mail, renderCache] = await Promise.all([
    queueStates(services),
    listAgentStates(services),
    diskSpace(services.config.dataDir),
    services.db.sql
      .query<{ bytes: string }>("SELECT pg_database_size(current_database())::text AS bytes")
      .then((rows) => Number(rows[0]?.bytes ?? 0))
      .catch(() => null),
    services.prisma.job.count({ where: { status: "processing", leaseOwner: { not: null } } }),
    mailStatus(services),
    segmentCacheStats(services.prisma, services.config.renderCacheBytes),
  ]);
  await auditAdminRead(services, source, "admin.system_viewed");
  const workflowConcurrency = services.config.workers;
  return {
    queues,
    workers: {
      workflowConcurrency,
      polling: workflowConcurrency > 0 ? [QUEUE.workflow, QUEUE.workflowFailed, QUEUE.webhook, QUEUE.export] : [],
      runningJobs: running,
    },
    scheduledTasks: agents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      everySeconds: agent.everySeconds,
      status: agent.status,
      lastRunAt: agent.lastRunAt,
      nextRunAt: agent.nextRunAt,
    })),
    storage: {
      mediaFiles: media.files,
      mediaBytes: media.bytes,
      freeBytes: disk?.freeBytes ?? null,
      totalBytes: disk?.totalBytes ?? null,
      databaseBytes: dbSize,
    },
    renderCache,
    database: { engine: services.db.engine },
    mail,
  };
}
