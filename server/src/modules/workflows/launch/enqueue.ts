// Admission: how jobs reach the shared queue, fairly between accounts.
//
// A launched job is `queued`. It gets a queue message only when it is *admitted*: while its account has
// fewer admitted, unfinished jobs than its plan allows (`concurrentJobsFor`), the account's oldest
// waiting jobs are admitted, in order. The rest wait in the jobs table, without a message, so one
// account's burst never stands on the queue in front of another account's first job. Admission runs
// after a launch, whenever one of the account's jobs leaves the running state (completed, failed,
// cancelled, refunded, paused for review), and in the periodic sweep, so nothing waits forever across
// restarts or instances. One account's admissions take turns on a transaction-scoped advisory lock, so
// two instances (or workers) never admit past the limit.
//
// A message id derives from (job, queue generation) and admission bumps the generation: re-sending an
// admitted job's message (the sweep, after a crash between commit and send) never doubles it, and a
// job admitted again (after a review) gets a fresh message.
import type { Job } from "@adgen/prisma";
import { concurrentJobsFor } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { messageId, QUEUE } from "../../../queue/queue.ts";

export interface WorkflowMessage {
  jobId: string;
}

/** Namespace of the per-account admission locks (two-key advisory locks: this and a hash of the account id). */
const ADMISSION_LOCK = 0x61646d; // "adm"

/** Jobs that hold one of their account's slots: running, or admitted and waiting on the queue. */
const HOLDS_SLOT = `(status = 'processing' OR (status = 'queued' AND admitted_at IS NOT NULL))`;

interface Admitted {
  id: string;
  queue_generation: number;
  created_at: Date;
}

/** Sends the queue message of an admitted job (idempotent: the id derives from the job's queue generation). */
export async function sendJobMessage(
  services: Services,
  job: Pick<Job, "id" | "queueGeneration">,
  options: { priority?: number } = {},
): Promise<void> {
  await services.queue.send<WorkflowMessage>(
    QUEUE.workflow,
    { jobId: job.id },
    { id: messageId(job.id, job.queueGeneration), ...(options.priority ? { priority: options.priority } : {}) },
  );
  services.wakeWorkers();
}

const ACCOUNT_SLOTS = `SELECT u.current_plan_id::text AS plan,
    (SELECT count(*)::int FROM jobs WHERE user_id = u.id AND ${HOLDS_SLOT}) AS active,
    EXISTS (SELECT 1 FROM jobs WHERE user_id = u.id AND status = 'queued' AND admitted_at IS NULL) AS waiting
  FROM users u WHERE u.id = $1`;

type SlotsRow = { plan: string; active: number; waiting: boolean };

/**
 * The account's plan, its jobs holding a slot, and whether any job waits for one: read in the admission's
 * transaction, or else as a prepared statement (every launch reads it; Prisma's query compiler cost more
 * than the query).
 */
async function accountSlots(db: Pick<Services["prisma"], "$queryRawUnsafe"> | Services["db"]["sql"], userId: string) {
  const [account] =
    "prepared" in db
      ? await db.prepared<SlotsRow>("admission_account_slots", ACCOUNT_SLOTS, [userId])
      : await db.$queryRawUnsafe<SlotsRow[]>(ACCOUNT_SLOTS, userId);
  return account ? { ...account, room: concurrentJobsFor(account.plan) - account.active } : null;
}

/**
 * Admits the account's oldest waiting jobs while it has free slots, and sends their messages. Returns
 * how many were admitted. Safe to call any time, from any instance, as often as you like; call it after
 * the change that may free a slot or add a waiting job is committed.
 */
export async function admitJobs(services: Services, userId: string): Promise<number> {
  // Without the lock first: an account with no room or nothing waiting (most calls during a burst) costs
  // one read. Nothing is missed: whatever frees a slot later calls this again after its own commit.
  const seen = await accountSlots(services.db.sql, userId);
  if (!seen?.waiting || seen.room <= 0) return 0;
  const { admitted, active } = await services.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK}::int, hashtext(${userId}))`;
    const account = await accountSlots(tx, userId);
    if (!account || account.room <= 0) return { admitted: [] as Admitted[], active: 0 };
    // SKIP LOCKED: a waiting job that a cancel is failing right now is not waited for (nor admitted).
    const admitted = await tx.$queryRaw<Admitted[]>`
      UPDATE jobs SET admitted_at = now(), queue_generation = queue_generation + 1, updated_at = now()
      WHERE id IN (
        SELECT id FROM jobs WHERE user_id = ${userId} AND status = 'queued' AND admitted_at IS NULL
        ORDER BY created_at, id LIMIT ${account.room} FOR UPDATE SKIP LOCKED)
      RETURNING id, queue_generation, created_at`;
    return { admitted, active: account.active };
  });
  admitted.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
  // Between accounts the queue is first in, first out, except that an account's n-th slot ranks below
  // every account's (n-1)-th: another account's first job goes before this account's second.
  for (const [i, job] of admitted.entries()) {
    await sendJobMessage(services, { id: job.id, queueGeneration: job.queue_generation }, { priority: -(active + i) });
  }
  return admitted.length;
}

/**
 * A job is ready to run (launched, or approved in review): it is admitted now if its account has a free
 * slot, else it waits for its turn. Never throws: the sweep admits whatever this could not.
 */
export async function enqueueJob(services: Services, job: Pick<Job, "userId">): Promise<void> {
  await admitNext(services, job.userId);
}

/**
 * After one of the account's jobs left the running state (finished, failed, cancelled, paused): admits
 * its next waiting jobs. Never throws (the sweep admits them later if this fails).
 */
export async function admitNext(services: Services, userId: string | null | undefined): Promise<void> {
  if (!userId) return;
  await admitJobs(services, userId).catch((error: Error) =>
    services.logger.error({ userId, error: error.message }, "queue: admission failed"),
  );
}

/**
 * Removes a job's queue message (a cancelled or failed job), so no worker spends time on it. A message
 * that escapes this (sent by a racing admission) is dropped at once by the worker's claim.
 */
export async function removeJobMessage(services: Services, jobId: string): Promise<void> {
  const job = await services.prisma.job.findUnique({ where: { id: jobId }, select: { queueGeneration: true } });
  if (!job) return;
  await services.queue
    .delete(QUEUE.workflow, messageId(jobId, job.queueGeneration))
    .catch((error: Error) => services.logger.error({ jobId, error: error.message }, "queue: could not remove a message"));
}

/** Sweep: admits waiting jobs of every account that has room (for admissions lost to a crash or missed by a path). */
export async function admitWaitingJobs(services: Services, maxAccounts = 500): Promise<number> {
  const accounts = await services.prisma.$queryRawUnsafe<{ user_id: string; plan: string; active: number }[]>(
    `SELECT w.user_id, u.current_plan_id::text AS plan,
       (SELECT count(*)::int FROM jobs a WHERE a.user_id = w.user_id AND ${HOLDS_SLOT}) AS active
     FROM (SELECT user_id, min(created_at) AS oldest FROM jobs WHERE status = 'queued' AND admitted_at IS NULL GROUP BY user_id) w
     JOIN users u ON u.id = w.user_id
     ORDER BY w.oldest LIMIT $1`,
    maxAccounts,
  );
  let admitted = 0;
  for (const account of accounts) {
    if (account.active < concurrentJobsFor(account.plan)) admitted += await admitJobs(services, account.user_id);
  }
  return admitted;
}

/** Re-sends admitted jobs still queued after `olderThanSeconds` (a message lost between commit and send; idempotent by id). */
export async function resendStaleQueuedJobs(services: Services, olderThanSeconds = 30): Promise<number> {
  const stale = await services.prisma.job.findMany({
    where: { status: "queued", admittedAt: { not: null }, updatedAt: { lt: new Date(Date.now() - olderThanSeconds * 1000) } },
    select: { id: true, queueGeneration: true },
    take: 100,
  });
  for (const job of stale) await sendJobMessage(services, job);
  return stale.length;
}
