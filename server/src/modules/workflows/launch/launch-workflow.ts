// POST /workflow: check (admission.ts), charge and create the job in one statement, then queue it.
// Order of checks: auth 401 and validation 400 (the invocation path, before this) → admission: the options
// this instance cannot honour 400 → trial expired 402 → reserved workflow 403 → brand or optimizer project 404
// (a project not completed, or none: 400) → addresses and generation budget 400 → credits 402 → for the types
// made from a page, a page that cannot be read 400 (read last, so a launch refused anyway costs no fetch). The
// charge is a conditional update, so concurrent launches never overdraw. Callers pass the signed-in account and
// the parsed request: the API's operation, the assistant, the loop, and background work such as the house ad.
import { randomUUID } from "node:crypto";
import { type CostEstimate, formatsFor, type LaunchData, type WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { LedgerReason } from "../../credits/ledger.ts";
import { publishBalance } from "../../credits/balance-updates.ts";
import { projectNameFrom } from "../../projects/project-name.ts";
import { toJobView, waitForJob } from "../jobs/jobs.ts";
import { accountRefusal, admitLaunch, type LaunchAccount } from "./admission.ts";
import type { NewJob } from "./charge-launch.ts";
import { enqueueJob } from "./enqueue.ts";
import { chargeOnce, keyWasUsed, type LaunchAnswer, storeAnswer } from "./idempotent-charge.ts";
import { assertPageReadable } from "./preview-page.ts";
import { previewSeeding } from "../preview/launch-from-preview.ts";

export type { LaunchAccount } from "./admission.ts";

export interface LaunchOutcome extends LaunchAnswer {
  /** True when the answer is a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** What a launch would cost and whether it would go through now (no charge, no job). */
export async function estimateWorkflow(services: Services, account: LaunchAccount, request: WorkflowRequest): Promise<CostEstimate> {
  const { cost, provider } = await admitLaunch(services, account, request, { launch: false });
  // The balance and plan as read when this request was authenticated.
  const refusal = accountRefusal(account, request.type, cost);
  return {
    type: request.type,
    quality: request.quality,
    cost,
    balance: account.creditsBalance,
    sufficient: account.creditsBalance >= cost,
    blockedBy: refusal?.blockedBy ?? null,
    message: refusal?.error.message ?? null,
    formats: formatsFor(request),
    provider,
  };
}

/** The job a launch creates, and its queued answer. */
function newJob(account: LaunchAccount, request: WorkflowRequest, cost: number, project: string | undefined) {
  const jobId = randomUUID();
  const formats = formatsFor(request);
  const job: NewJob = {
    id: jobId,
    userId: account.id,
    type: request.type,
    name: projectNameFrom(request),
    quality: request.quality,
    input: { ...request, formats, ...(project ? { project } : {}) },
    cost,
    hitl: request.hitl,
    batchId: request.type === "factory" ? jobId : null,
    callbackUrl: request.callbackUrl ?? null,
  };
  const queued: LaunchAnswer = {
    data: { jobId, status: "queued", creditsUsed: cost, ...(job.batchId ? { batchId: job.batchId } : {}) },
    cost,
    message: `Workflow ${request.type} queued; ${cost} credit${cost === 1 ? "" : "s"} charged.`,
  };
  return { job, queued };
}

export async function launchWorkflow(
  services: Services,
  account: LaunchAccount,
  request: WorkflowRequest,
  options: { idempotencyKey?: string | null } = {},
): Promise<LaunchOutcome> {
  const key = options.idempotencyKey?.trim() || null;
  if (key && key.length > 255) throw new AppError("BAD_REQUEST", "Idempotency-Key must be at most 255 characters");
  const { cost, provider, project } = await admitLaunch(services, account, request, { launch: true });
  // A repeated Idempotency-Key replays its first answer below, whatever the balance or the page are now.
  if (!(key && (await keyWasUsed(services, account.id, key)))) {
    // The charge re-checks the balance itself; this only spares a page read for a launch it would refuse.
    const refusal = accountRefusal(account, request.type, cost);
    if (refusal) throw refusal.error;
    await assertPageReadable(services, account.id, request);
  }
  const { job, queued } = newJob(account, request, cost, project);
  // A launch from a free preview renders the storyboard it showed (404/400 here, before any charge).
  const seedPreview = await previewSeeding(services, account.id, request, job.id);
  const created = await chargeOnce(services, job, queued, key ? { key, request } : null).catch(async (error: unknown) => {
    await seedPreview?.discard();
    throw error;
  });
  if (created.kind === "replay") {
    await seedPreview?.discard();
    return { ...created.outcome, replayed: true };
  }
  if (!created.published)
    publishBalance(services, account.id, { balance: created.balance, delta: -cost, reason: LedgerReason.workflowCharge });
  // The admin's revenue page sets this against credits sold; studio-only jobs keep the column's 0 (no write).
  if (provider.costCents > 0) {
    await services.prisma.job.update({ where: { id: job.id }, data: { providerCostCents: provider.costCents } });
  }
  await seedPreview?.write();
  await enqueueJob(services, job);
  if (request.async) return { ...created.outcome, replayed: false };
  const answer = await awaitJob(services, request, job.id, cost);
  if (key) await storeAnswer(services, account.id, key, answer);
  return { ...answer, replayed: false };
}

/** async: false waits for the result, bounded; past the bound it answers the queued shape. */
async function awaitJob(services: Services, request: WorkflowRequest, jobId: string, cost: number): Promise<LaunchAnswer> {
  const finished = await waitForJob(services, jobId, services.config.syncWaitSeconds * 1000);
  const view = toJobView(finished);
  const done = view.status === "completed" || view.status === "failed" || view.status === "awaiting_review";
  const data: LaunchData = {
    jobId,
    status: view.status,
    creditsUsed: cost,
    ...(view.result ? { result: view.result } : {}),
    ...(view.batchId ? { batchId: view.batchId } : {}),
  };
  const message = !done
    ? `Workflow ${request.type} is still ${view.status} after ${services.config.syncWaitSeconds} s; follow it on /api/workflow/stream?jobId=${jobId}.`
    : view.status === "completed"
      ? `Workflow ${request.type} completed.`
      : view.status === "awaiting_review"
        ? `Workflow ${request.type} is waiting for your review.`
        : `Workflow ${request.type} failed: ${view.error}. ${cost} credit${cost === 1 ? " was" : "s were"} refunded.`;
  return { data, cost, message };
}
