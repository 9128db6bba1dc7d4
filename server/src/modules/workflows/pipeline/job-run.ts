// One run of a claimed job by a worker, as the runner's parts (run-job.ts, finish-job.ts) share it.
import type { Job } from "@adgen/prisma";
import type { WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import type { Logger } from "../../../logging/logger.ts";

/** Milliseconds since `startedAt` (a performance.now() reading), for the log. */
export const since = (startedAt: number) => Math.round(performance.now() - startedAt);

/** One run of a claimed job by this worker. */
export interface JobRun {
  services: Services;
  jobId: string;
  /** This run's lease owner. */
  owner: string;
  /** The job as last written by this run. */
  job: Job;
  request: WorkflowRequest;
  log: Logger;
  startedAt: number;
  signal: AbortSignal;
  /** The step under way, for the line of a step that fails or is stopped. */
  running: { step: string; startedAt: number } | null;
}
