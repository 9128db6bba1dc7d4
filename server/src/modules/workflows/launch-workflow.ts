// POST /workflow: validate, check, charge and create the job in one transaction, then queue it.
// Order of checks (issue 3): auth 401 → validation 400 (with the options this instance cannot honour) → trial expired 402 → reserved workflow 403 →
// brand or optimizer project 404 (a project not completed, or none: 400) → credits 402 → for the types made from a page, a page
// that cannot be read 400 (read last, so a launch refused anyway costs no fetch). The charge is a conditional update, so concurrent launches never overdraw.
import { createHash, randomUUID } from "node:crypto";
import type { Prisma, User } from "@adgen/prisma";
import {
  type CostEstimate,
  formatsFor,
  type LaunchData,
  RESERVED_WORKFLOW_PLANS,
  RESERVED_WORKFLOW_TYPES,
  WorkflowRequest,
  type WorkflowRequestInput,
  WORKFLOWS,
  workflowCost,
  workflowName,
} from "@adgen/schema";
import type { RequestContext } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { requireUser } from "../auth/authenticate.ts";
import { loadBrandForJob } from "../brand/brand-profile.ts";
import { assertPublicUrl, assertStorableUrl, SafeFetchError } from "../net/safe-fetch.ts";
import { InsufficientCreditsError, LedgerReason } from "../credits/ledger.ts";
import { chargeAndCreateJob, type NewJob } from "./charge-launch.ts";
import { publishBalance } from "../credits/balance-updates.ts";
import { checkClipInputs, checkProviderBudget, checkWorkflowOptions, modelsFor } from "./check-options.ts";
import { estimateProviderCost, type ProviderCostEstimate } from "../providers/provider-cost.ts";
import { assertPageReadable } from "./preview-page.ts";
import { assertCanPublish } from "../social/social-accounts.ts";
import { enqueueJob } from "./enqueue.ts";
import { findSourceProject } from "./source-project.ts";
import { toJobView, waitForJob } from "./jobs.ts";
import { projectNameFrom } from "../projects/project-name.ts";

const reservedPlans: readonly string[] = RESERVED_WORKFLOW_PLANS;
const reservedTypes: readonly string[] = RESERVED_WORKFLOW_TYPES;

function trialExpired(user: User, now = new Date()): boolean {
  return user.currentPlanId === "trial" && user.trialEndsAt !== null && user.trialEndsAt.getTime() <= now.getTime();
}

function trialMessage(user: User): string {
  return `Your trial ended on ${user.trialEndsAt?.toISOString().slice(0, 10)}. Choose a plan or buy credits to keep launching workflows.`;
}

function reserved(user: User, type: string): boolean {
  return reservedPlans.includes(user.currentPlanId) && reservedTypes.includes(type);
}

function reservedMessage(user: User, type: string): string {
  const name = WORKFLOWS.find((w) => w.type === type)?.name ?? type;
  return `The ${name} workflow (${type}) is not available on the ${user.currentPlanId} plan. Upgrade to a paid plan to use it; nothing was charged.`;
}

/** The account's own brand, or 404 (another account's brand is not found). */
async function findOwnBrand(ctx: RequestContext, brandId: string): Promise<void> {
  const user = requireUser(ctx);
  const brand = await ctx.services.prisma.brandProfile.findFirst({ where: { id: brandId, userId: user.id }, select: { id: true } });
  if (!brand) throw new AppError("NOT_FOUND", "Brand not found");
}

/**
 * A local audit reads the business's page, a brand film the brand's site: the request's `url`, else the
 * brand profile's `websiteUrl`. Without either it is refused before anything is charged.
 */
async function assertAuditPage(ctx: RequestContext, request: WorkflowRequest): Promise<void> {
  if ((request.type !== "local-audit" && request.type !== "brand") || request.url) return;
  const brand = await loadBrandForJob(ctx.services.prisma, requireUser(ctx).id, request.brand);
  if (!brand?.websiteUrl) {
    const page = request.type === "brand" ? "the brand's site" : "the business's page";
    const message = `The ${workflowName(request.type)} workflow needs a web page to work from: give the address of ${page}, or save the website in your brand profile`;
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "url", message }] });
  }
}

/**
 * ad-optimizer: the project it improves, one of the account's own completed projects (the one named, else
 * the latest): 404 for an unknown or another account's project, 400 for one not completed or none at all.
 */
async function sourceProjectId(ctx: RequestContext, request: WorkflowRequest): Promise<string | undefined> {
  if (request.type !== "ad-optimizer") return undefined;
  const source = await findSourceProject(ctx.services.prisma, requireUser(ctx).id, request.project);
  return source.job.id;
}

/** What the job's generated models would use and cost, from the models it will use. */
function providerCostOf(
  ctx: RequestContext,
  request: WorkflowRequest,
): { models: ReturnType<typeof modelsFor>; provider: ProviderCostEstimate } {
  const { config, providers } = ctx.services;
  const models = modelsFor(request, providers);
  const provider = estimateProviderCost({ ...request, models, maxAdSeconds: config.maxAdSeconds }, config.providerCosts);
  return { models, provider };
}

/** What a launch would cost and whether it would go through now (no charge, no job). */
export async function estimateWorkflow(ctx: RequestContext, input: WorkflowRequestInput): Promise<CostEstimate> {
  const user = requireUser(ctx);
  const request = parseInput(WorkflowRequest, input);
  checkWorkflowOptions(request, ctx.services.providers);
  await assertCanPublish(ctx, request);
  // Read when this request was authenticated: the balance and plan as of now.
  const fresh = user;
  if (request.brand) await findOwnBrand(ctx, request.brand);
  await assertAuditPage(ctx, request);
  await sourceProjectId(ctx, request);
  const cost = workflowCost(request.type, request.quality);
  const { models, provider } = providerCostOf(ctx, request);
  await checkClipInputs(ctx.services, user.id, request);
  checkProviderBudget(request, models, provider, cost, ctx.services.config.providerCosts);
  const sufficient = fresh.creditsBalance >= cost;
  let blockedBy: CostEstimate["blockedBy"] = null;
  let message: string | null = null;
  if (trialExpired(fresh)) [blockedBy, message] = ["trial_expired", trialMessage(fresh)];
  else if (reserved(fresh, request.type)) [blockedBy, message] = ["reserved_workflow", reservedMessage(fresh, request.type)];
  else if (!sufficient) [blockedBy, message] = ["insufficient_credits", new InsufficientCreditsError(cost, fresh.creditsBalance).message];
  return {
    type: request.type,
    quality: request.quality,
    cost,
    balance: fresh.creditsBalance,
    sufficient,
    blockedBy,
    message,
    formats: formatsFor(request),
    provider,
  };
}

export interface LaunchOutcome {
  data: LaunchData;
  /** Credits charged by the launch that created the job. */
  cost: number;
  message: string;
  /** True when the answer is a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * A `url` that points at a private or local address is the caller's mistake (400). A page that merely
 * cannot be resolved now is not: the job goes on from the concept and records a warning. A callback
 * URL follows the rule of every address saved now and called later (assertCallbackUrl).
 */
async function assertReachableUrls(ctx: RequestContext, request: WorkflowRequest) {
  const { resolver } = ctx.services;
  if (request.url) {
    await assertPublicUrl(request.url, { resolver }).catch((error: unknown) => {
      if (error instanceof SafeFetchError && error.reason === "unresolvable") return;
      throw rename(error, "url");
    });
  }
  if (request.callbackUrl) await assertCallbackUrl(ctx, request.callbackUrl);
}

/**
 * A callback URL (on a launch or in the studio defaults) is saved now and called later: a literal private
 * or loopback address, a local name or a name resolving inside is refused at once, but a name that does not
 * resolve right now is accepted, since each delivery checks the URL and every hop when it is made
 * (webhooks/deliver.ts through safeFetch).
 */
export async function assertCallbackUrl(ctx: RequestContext, url: string): Promise<void> {
  await assertStorableUrl(url, { resolver: ctx.services.resolver }).catch((error: unknown) => {
    throw rename(error, "callbackUrl");
  });
}

function rename(error: unknown, field: string): unknown {
  if (error instanceof AppError && error.message.startsWith("url ")) return new AppError(error.code, `${field} ${error.message.slice(4)}`);
  return error;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export async function launchWorkflow(
  ctx: RequestContext,
  input: WorkflowRequestInput,
  options: { idempotencyKey?: string | null } = {},
): Promise<LaunchOutcome> {
  const user = requireUser(ctx);
  const request = parseInput(WorkflowRequest, input);
  checkWorkflowOptions(request, ctx.services.providers);
  await assertCanPublish(ctx, request);
  const { services } = ctx;
  const key = options.idempotencyKey?.trim() || null;
  if (key && key.length > 255) throw new AppError("BAD_REQUEST", "Idempotency-Key must be at most 255 characters");

  // The account as read when this request was authenticated; the charge below re-checks the balance itself.
  const account = user;
  if (trialExpired(account)) throw new AppError("PAYMENT_REQUIRED", trialMessage(account));
  if (reserved(account, request.type)) throw new AppError("FORBIDDEN", reservedMessage(account, request.type));
  if (request.brand) {
    await findOwnBrand(ctx, request.brand);
  }
  await assertAuditPage(ctx, request);
  // The job names the project it improves, also when the launch left the choice to us.
  const project = await sourceProjectId(ctx, request);

  await assertReachableUrls(ctx, request);

  const cost = workflowCost(request.type, request.quality);
  const { models, provider } = providerCostOf(ctx, request);
  await checkClipInputs(services, user.id, request);
  checkProviderBudget(request, models, provider, cost, services.config.providerCosts);
  // A repeated Idempotency-Key replays its first answer below, whatever the balance or the page are now.
  const earlier = key
    ? await services.prisma.idempotencyKey.findFirst({
        where: { userId: user.id, key, createdAt: { gte: new Date(Date.now() - 86_400_000) } },
        select: { key: true },
      })
    : null;
  if (!earlier) {
    // The charge re-checks the balance itself; this only spares a page read for a launch it would refuse.
    if (account.creditsBalance < cost) throw new InsufficientCreditsError(cost, account.creditsBalance);
    await assertPageReadable(ctx, request);
  }
  const formats = formatsFor(request);
  const jobId = randomUUID();
  const requestHash = key ? createHash("sha256").update(stableJson(input)).digest("hex") : null;

  const job: NewJob = {
    id: jobId,
    userId: user.id,
    type: request.type,
    name: projectNameFrom(request),
    quality: request.quality,
    input: { ...request, formats, ...(project ? { project } : {}) },
    cost,
    hitl: request.hitl,
    batchId: request.type === "factory" ? jobId : null,
    callbackUrl: request.callbackUrl ?? null,
  };
  const queued = {
    data: { jobId, status: "queued" as const, creditsUsed: cost, ...(job.batchId ? { batchId: job.batchId } : {}) },
    cost,
    message: `Workflow ${request.type} queued; ${cost} credit${cost === 1 ? "" : "s"} charged.`,
  };
  const entryId = randomUUID();
  // Without an Idempotency-Key the launch is one statement; with one, the key's row joins it in a transaction.
  const created =
    key && requestHash
      ? await services.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`DELETE FROM idempotency_keys WHERE user_id = ${user.id} AND key = ${key} AND created_at < now() - interval '24 hours'`;
          const inserted = await tx.$queryRaw<{ key: string }[]>`
            INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES (${user.id}, ${key}, ${requestHash})
            ON CONFLICT DO NOTHING RETURNING key`;
          if (inserted.length === 0) {
            const earlier = await tx.idempotencyKey.findUniqueOrThrow({ where: { userId_key: { userId: user.id, key } } });
            if (earlier.requestHash !== requestHash) {
              throw new AppError("CONFLICT", "This Idempotency-Key was already used with a different request body");
            }
            if (!earlier.response) throw new AppError("CONFLICT", "A request with this Idempotency-Key is still being processed");
            return { kind: "replay" as const, outcome: earlier.response as unknown as Omit<LaunchOutcome, "replayed"> };
          }
          const charge = await chargeAndCreateJob({ tx }, services.events, job, entryId);
          await tx.idempotencyKey.update({
            where: { userId_key: { userId: user.id, key } },
            data: { response: queued as unknown as Prisma.InputJsonValue, status: 200 },
          });
          return { kind: "created" as const, balance: charge.balance, published: charge.published, outcome: queued };
        })
      : {
          kind: "created" as const,
          ...(await chargeAndCreateJob({ sql: services.db.sql }, services.events, job, entryId)),
          outcome: queued,
        };

  if (created.kind === "replay") return { ...created.outcome, replayed: true };
  if (!created.published)
    publishBalance(services, user.id, { balance: created.balance, delta: -cost, reason: LedgerReason.workflowCharge });
  // The admin's revenue page sets this against credits sold; studio-only jobs keep the column's 0 (no write).
  if (provider.costCents > 0) {
    await services.prisma.job.update({ where: { id: jobId }, data: { providerCostCents: provider.costCents } });
  }
  await enqueueJob(services, job);

  if (request.async) return { ...created.outcome, replayed: false };
  // async: false waits for the result, bounded; past the bound it answers the queued shape.
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
  const outcome = { data, cost, message };
  if (key) {
    await services.prisma.idempotencyKey.update({
      where: { userId_key: { userId: user.id, key } },
      data: { response: outcome as unknown as Prisma.InputJsonValue },
    });
  }
  return { ...outcome, replayed: false };
}
