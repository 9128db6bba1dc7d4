// Whether a launch may go ahead, and what it would cost: the one admission check that both the launch and
// the estimate run, so they cannot disagree. Order of its answers: options this instance cannot honour or a
// publish it cannot make 400 → (launch) trial expired 402, reserved workflow 403 → brand or optimizer project
// 404 (a project not completed, or none: 400) → a page-made type with no page 400 → (launch) an unsafe url or
// callback url 400 → a talking presenter without a photo 400 → the provider budget 400. The estimate answers
// the account's refusals (trial, reserved workflow, credits) as `blockedBy` instead of refusing.
import type { User } from "@adgen/prisma";
import {
  type CostEstimate,
  NO_BRAND,
  RESERVED_WORKFLOW_PLANS,
  RESERVED_WORKFLOW_TYPES,
  type WorkflowRequest,
  WORKFLOWS,
  workflowCost,
  workflowName,
} from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { loadBrandForJob } from "../../brand/brand-profile.ts";
import { InsufficientCreditsError } from "../../credits/ledger.ts";
import { assertPublicUrl, SafeFetchError } from "../../net/safe-fetch.ts";
import { findSourceProject } from "../../projects/source-project.ts";
import { estimateProviderCost, type ProviderCostEstimate } from "../../providers/provider-cost.ts";
import { assertCanPublish } from "../../social/social-accounts.ts";
import { assertCallbackUrl, renameUrlField } from "../../webhooks/callback-url.ts";
import { checkPersonAd } from "./person-check.ts";
import { checkClipInputs, checkProviderBudget, checkWorkflowOptions, modelsFor } from "./check-options.ts";

/** The account as read when the request was authenticated: whose launch it is, its plan and balance. */
export type LaunchAccount = Pick<User, "id" | "currentPlanId" | "trialEndsAt" | "creditsBalance">;

/** Why the account may not launch this now (the estimate's `blockedBy`), with the error a launch answers. */
export interface Refusal {
  blockedBy: NonNullable<CostEstimate["blockedBy"]>;
  error: AppError;
}

export interface Admission {
  /** Credits the launch charges. */
  cost: number;
  provider: ProviderCostEstimate;
  /** ad-optimizer: the project it improves (the one named, else the account's latest completed one). */
  project: string | undefined;
}

const reservedPlans: readonly string[] = RESERVED_WORKFLOW_PLANS;
const reservedTypes: readonly string[] = RESERVED_WORKFLOW_TYPES;

/** A trial that has ended, or a workflow the account's plan does not include; null when neither. */
function planRefusal(account: LaunchAccount, type: string): Refusal | null {
  const trialOver = account.currentPlanId === "trial" && account.trialEndsAt !== null && account.trialEndsAt.getTime() <= Date.now();
  if (trialOver) {
    const message = `Your trial ended on ${account.trialEndsAt?.toISOString().slice(0, 10)}. Choose a plan or buy credits to keep launching workflows.`;
    return { blockedBy: "trial_expired", error: new AppError("PAYMENT_REQUIRED", message) };
  }
  if (reservedPlans.includes(account.currentPlanId) && reservedTypes.includes(type)) {
    const name = WORKFLOWS.find((w) => w.type === type)?.name ?? type;
    const message = `The ${name} workflow (${type}) is not available on the ${account.currentPlanId} plan. Upgrade to a paid plan to use it; nothing was charged.`;
    return { blockedBy: "reserved_workflow", error: new AppError("FORBIDDEN", message) };
  }
  return null;
}

/** What stops the account launching this now: its plan, else its balance (the charge re-checks it). */
export function accountRefusal(account: LaunchAccount, type: string, cost: number): Refusal | null {
  const refusal = planRefusal(account, type);
  if (refusal) return refusal;
  if (account.creditsBalance < cost)
    return { blockedBy: "insufficient_credits", error: new InsufficientCreditsError(cost, account.creditsBalance) };
  return null;
}

/** The account's own brand, or 404 (another account's brand is not found). */
async function assertOwnBrand(services: Services, userId: string, brandId: string): Promise<void> {
  const brand = await services.prisma.brandProfile.findFirst({ where: { id: brandId, userId }, select: { id: true } });
  if (!brand) throw new AppError("NOT_FOUND", "Brand not found");
}

/**
 * A local audit reads the business's page, a brand film the brand's site: the request's `url`, else the
 * brand profile's `websiteUrl`. Without either it is refused before anything is charged.
 */
async function assertAuditPage(services: Services, userId: string, request: WorkflowRequest): Promise<void> {
  if ((request.type !== "local-audit" && request.type !== "brand") || request.url) return;
  const brand = await loadBrandForJob(services.prisma, userId, request.brand);
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
async function sourceProjectId(services: Services, userId: string, request: WorkflowRequest): Promise<string | undefined> {
  if (request.type !== "ad-optimizer") return undefined;
  const source = await findSourceProject(services.prisma, userId, request.project);
  return source.job.id;
}

/**
 * A `url` that points at a private or local address is the caller's mistake (400). A page that merely
 * cannot be resolved now is not: the job goes on from the concept and records a warning. A callback
 * URL follows the rule of every address saved now and called later (assertCallbackUrl).
 */
async function assertReachableUrls(services: Services, request: WorkflowRequest): Promise<void> {
  const { resolver } = services;
  if (request.url) {
    await assertPublicUrl(request.url, { resolver }).catch((error: unknown) => {
      if (error instanceof SafeFetchError && error.reason === "unresolvable") return;
      throw renameUrlField(error, "url");
    });
  }
  if (request.callbackUrl) await assertCallbackUrl(resolver, request.callbackUrl);
}

/**
 * The admission check (see the header). A launch (`mode.launch`) is refused by the account's plan in its
 * place and has its addresses checked; the estimate reads the plan's refusal from `accountRefusal` after.
 */
export async function admitLaunch(
  services: Services,
  account: LaunchAccount,
  request: WorkflowRequest,
  mode: { launch: boolean },
): Promise<Admission> {
  checkWorkflowOptions(request, services.providers);
  await assertCanPublish(services, account.id, request);
  if (mode.launch) {
    const refusal = planRefusal(account, request.type);
    if (refusal) throw refusal.error;
  }
  if (request.brand && request.brand !== NO_BRAND) await assertOwnBrand(services, account.id, request.brand);
  await assertAuditPage(services, account.id, request);
  // The job names the project it improves, also when the launch left the choice to us.
  const project = await sourceProjectId(services, account.id, request);
  if (mode.launch) await assertReachableUrls(services, request);
  const cost = workflowCost(request.type, request.quality);
  const { config, providers } = services;
  const models = modelsFor(request, providers);
  const provider = estimateProviderCost({ ...request, models, maxAdSeconds: config.maxAdSeconds }, config.providerCosts);
  await checkClipInputs(services, account.id, request);
  // A launch's plan refusal came first (above); an estimate reports it as blockedBy rather than this 400.
  if (mode.launch || !planRefusal(account, request.type)) await checkPersonAd(services, account.id, request);
  checkProviderBudget(request, models, provider, cost, config.providerCosts);
  return { cost, provider, project };
}
