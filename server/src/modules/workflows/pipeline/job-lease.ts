// A worker's hold on a job while it runs it: the claim (a lease only one worker holds), the heartbeat that
// renews it, the stop signal when the job is failed elsewhere (cancel, review reject), and its release.
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../request-context.ts";
import { subscribeToJob } from "../jobs/job-fan-out.ts";

/** Thrown in a running job when it is no longer this worker's to run (failed elsewhere, or its lease lapsed). */
export class JobStopped extends Error {}

/**
 * Claims the job for this worker: only an admitted, queued or processing job whose lease is free or
 * lapsed (its worker died) can be claimed, so two workers never run one job at once. A message of a
 * finished (cancelled, failed, completed) or not admitted job claims nothing and is dropped at once.
 */
export async function claim(services: Services, jobId: string, owner: string): Promise<Job | null> {
  const lease = services.config.jobLeaseSeconds;
  const rows = await services.prisma.$queryRaw<{ id: string }[]>`
    UPDATE jobs SET lease_owner = ${owner}, heartbeat_at = now(), status = 'processing',
      attempts = attempts + (CASE WHEN awaiting_provider_since IS NULL THEN 1 ELSE 0 END), awaiting_provider_since = NULL,
      started_at = COALESCE(started_at, now()), updated_at = now()
    WHERE id = ${jobId} AND status IN ('queued', 'processing') AND admitted_at IS NOT NULL
      AND (lease_owner IS NULL OR heartbeat_at < now() - (${lease}::int * interval '1 second'))
    RETURNING id`;
  return rows.length ? services.prisma.job.findUnique({ where: { id: jobId } }) : null;
}

export interface Lease {
  /** Aborts when the job is failed elsewhere while a step is running. */
  signal: AbortSignal;
  /** Stops renewing and lets go of the job (its row keeps whatever status the run gave it). */
  release(): Promise<void>;
}

/** Holds the claimed job: renews the lease while working, and stops promptly when the job is failed elsewhere. */
export function holdLease(services: Services, jobId: string, owner: string): Lease {
  const { prisma } = services;
  // A worker that dies stops renewing and the sweep hands the job on.
  const heartbeat = setInterval(
    () => {
      void prisma.job.updateMany({ where: { id: jobId, leaseOwner: owner }, data: { heartbeatAt: new Date() } }).catch(() => {});
    },
    Math.max(500, (services.config.jobLeaseSeconds * 1000) / 3),
  );
  const abort = new AbortController();
  const unsubscribe = subscribeToJob(services.events, jobId, (view) => {
    if (view.type === "workflow.failed") abort.abort(new JobStopped());
  });
  return {
    signal: abort.signal,
    async release() {
      clearInterval(heartbeat);
      unsubscribe();
      await prisma.job.updateMany({ where: { id: jobId, leaseOwner: owner }, data: { leaseOwner: null } }).catch(() => {});
    },
  };
}

/** The job, while it is still processing under this worker's lease; JobStopped otherwise. */
export async function assertStillRunning(services: Services, jobId: string, owner: string): Promise<Job> {
  const job = await services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
  if (job.status !== "processing" || job.leaseOwner !== owner) throw new JobStopped();
  return job;
}
