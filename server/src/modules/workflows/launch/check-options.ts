// Options that change the price or the output must change the output, or the launch refuses them (400)
// before anything is charged: `models.*` must name a model this instance runs, and `publish` needs a
// connected social account (modules/social). Called by launchWorkflow and estimateWorkflow.
// The job later records which models made it, and why it did not follow a provider preference.
import type { Job } from "@adgen/prisma";
import { formatsFor, modelKindsFor, videoModelFits, type WorkflowRequest } from "@adgen/schema";
import { listBrandMedia } from "../../brand/brand-media.ts";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { defaultModel, instanceModels, MODEL_KINDS, type ModelKind } from "../../pricing/pricing.ts";
import { GENERATED_PICTURES, preferenceUnavailable, type RemoteProviders } from "../../providers/remote-providers.ts";
import type { ProviderCostConfig } from "../../../config/env.ts";
import {
  GENERATED_VIDEO_MODEL,
  type ProviderCostEstimate,
  providerBudgetCents,
  TALKING_PRESENTER_MODEL,
} from "../../providers/provider-cost.ts";

export const PROVIDER_NOT_CONFIGURED = "The preferred generation provider is not configured; the built-in studio made this ad";

function badField(field: string, message: string): AppError {
  return new AppError("BAD_REQUEST", message, { fields: [{ field, message }] });
}

/** 400 naming the field for an option this instance cannot honour. Nothing is read or written. */
export function checkWorkflowOptions(request: WorkflowRequest, providers: RemoteProviders): void {
  const models = instanceModels(providers);
  for (const kind of MODEL_KINDS) {
    const wanted = request.models?.[kind];
    if (wanted === undefined) continue;
    const ids = models[kind].map((m) => m.id);
    if (ids.includes(wanted)) continue;
    const field = `models.${kind}`;
    const what = kind === "voice" ? "voice" : `${kind} model`;
    throw badField(
      field,
      ids.length
        ? `The ${what} ${JSON.stringify(wanted)} is not available here: choose one of ${ids.join(", ")} (see GET /api/config/studio)`
        : `No ${what} is available on this instance (see GET /api/config/studio): leave it out`,
    );
  }
  checkLaunchPrompts(request, providers);
}

/**
 * A picture prompt feeds the generated pictures and a clip prompt the generated clips: a prompt the job
 * would not use is refused (400, nothing charged) rather than silently dropped. Without a provider key
 * neither model is offered, so neither prompt is; the brief's direction notes are for the built-in studio.
 */
function checkLaunchPrompts(request: WorkflowRequest, providers: RemoteProviders): void {
  if (!request.prompts) return;
  const models = modelsFor(request, providers);
  const offered = instanceModels(providers);
  for (const feed of PROMPT_FEEDS) {
    if (request.prompts[feed.prompt] === undefined || models[feed.slot] === feed.model) continue;
    const name = feed.prompt === "picture" ? "A picture prompt" : "A clip prompt";
    throw badField(
      `prompts.${feed.prompt}`,
      !offered[feed.slot].some((m) => m.id === feed.model)
        ? `${name} feeds ${feed.makes}, which this instance does not make (no ${feed.service} service is set up): put it in the brief's direction notes instead`
        : models[feed.slot] === undefined
          ? `A ${request.type} launch makes no ${feed.slot === "image" ? "pictures" : "video"}: leave the ${feed.prompt} prompt out`
          : `${name} feeds ${feed.makes}: choose models.${feed.slot} ${feed.model}, or leave the prompt out`,
    );
  }
}

/** Which model each launch prompt feeds. */
const PROMPT_FEEDS = [
  { prompt: "picture", slot: "image", model: GENERATED_PICTURES, makes: "generated pictures", service: "picture" },
  { prompt: "clip", slot: "video", model: GENERATED_VIDEO_MODEL, makes: "generated video", service: "video" },
] as const;

/**
 * A talking presenter speaks the voice-over of a narrated type, from the user's own presenter photo (stored
 * with the person's consent): 400 before charging when the launch cannot have one.
 */
export async function checkClipInputs(services: Services, userId: string, request: WorkflowRequest): Promise<void> {
  if (request.models?.video !== TALKING_PRESENTER_MODEL) return;
  if (!videoModelFits(request.models.video, request.type)) {
    throw badField(
      "models.video",
      "A talking presenter speaks a voice-over: choose it for the avatar (Presenter) or influencer type, or use generated-video",
    );
  }
  const library = await listBrandMedia(services.prisma, userId);
  // Without a photo, the operator's stock presenter speaks, where the video service has stock presenters.
  const stock = !!services.config.providers.stockAvatar && services.providers.clips.some((clips) => clips.stockAvatars);
  if (!stock && !library.some((item) => item.role === "presenter" && item.kind === "image")) {
    throw badField(
      "models.video",
      "A talking presenter starts from a photo of the person: upload one to your media library as a presenter (with their consent), then launch again",
    );
  }
}

/**
 * The cost guard, so that no job costs more at the providers than it brings in: 400 before charging when
 * the remote models' estimated cost is more than the job's credits bring in, less the operator's margin
 * (PROVIDER_MARGIN). The message says what to change.
 */
export function checkProviderBudget(
  request: WorkflowRequest,
  models: Generation["models"],
  provider: ProviderCostEstimate,
  credits: number,
  rates: ProviderCostConfig,
): void {
  const budget = providerBudgetCents(credits, rates);
  if (provider.costCents <= budget) return;
  const changes: string[] = [];
  if (formatsFor(request).length > 1) changes.push("ask for fewer formats");
  const clips = models.video === GENERATED_VIDEO_MODEL || models.video === TALKING_PRESENTER_MODEL;
  if (clips && request.quality === "premium") changes.push("choose the standard tier");
  changes.push("use the studio's own models (models.image studio-stills, models.video studio-motion, models.voice studio-voice)");
  throw new AppError(
    "BAD_REQUEST",
    `This launch would use more generation than its ${credits} credit${credits === 1 ? "" : "s"} cover (about ${provider.costCents.toFixed(2)} US cents of generated models, at most ${budget.toFixed(2)}); nothing was charged: ${changes.join(", or ")}`,
  );
}

export interface Generation {
  /** The model used for each kind this job produces (ids from GET /config/studio). */
  models: Partial<Record<ModelKind, string>>;
  /** The account's provider preference when the job was directed (absent in outputs stored by older versions). */
  preference?: string;
  warnings: string[];
}

/** Whether the job speaks a voice-over: the narrated types' videos. */
function narrated(request: WorkflowRequest): boolean {
  return modelKindsFor(request.type, request.imagesOnly).includes("voice");
}

/** The models a job uses: the launch's choice (already checked), else the instance's default, for what the job makes. */
export function modelsFor(request: WorkflowRequest, providers: RemoteProviders): Generation["models"] {
  const models: Generation["models"] = {};
  for (const kind of modelKindsFor(request.type, request.imagesOnly)) {
    const id = request.models?.[kind] ?? defaultModel(kind, providers);
    if (id) models[kind] = id;
  }
  return models;
}

/**
 * What makes this job: its models, and a warning when the account prefers a remote generation provider.
 * No remote provider is wired on this instance, so the built-in studio makes every ad.
 */
export async function resolveGeneration(services: Services, job: Job, request: WorkflowRequest): Promise<Generation> {
  const user = await services.prisma.user.findUnique({ where: { id: job.userId }, select: { providerPreference: true } });
  const preference = user?.providerPreference ?? "auto";
  const warnings = preferenceUnavailable(services.providers, preference) ? [PROVIDER_NOT_CONFIGURED] : [];
  if (request.models?.voice && !narrated(request)) {
    warnings.push(`models.voice was not used: ${request.type} ${request.imagesOnly ? "image " : ""}ads have no voice-over`);
  }
  return { models: modelsFor(request, services.providers), preference, warnings };
}
