// Public configuration ("pricing", not to be confused with the operation catalogue): prices, studio
// options and capabilities. Capabilities name a category and a tier, never a provider.
import {
  AD_PRESETS,
  BILLING_INTERVALS,
  PAID_PLAN_IDS,
  API_KEY_PLANS,
  CREDIT_PACKS,
  concurrentJobsFor,
  FORMATS,
  FRAMEWORKS,
  PLANS,
  type Capability,
  type ModelsStatus,
  type Pricing,
  QUALITY_TIERS,
  type QualityTier,
  RESERVED_WORKFLOW_PLANS,
  RESERVED_WORKFLOW_TYPES,
  SEASONALS,
  type StudioConfig,
  TIER_BUYS,
  TIER_VIDEO,
  tierFrameSize,
  WORKFLOWS,
} from "@adgen/schema";
import type { Config } from "../../config/env.ts";
import type { Services } from "../../request-context.ts";
import {
  canMakeClips,
  GENERATED_PICTURES,
  GENERATED_VIDEO,
  NATURAL_VOICE,
  type RemoteProviders,
  TALKING_PRESENTER,
} from "../providers/remote-providers.ts";
import { checkoutMode } from "../billing/checkout-mode.ts";

const reservedPlans: readonly string[] = RESERVED_WORKFLOW_PLANS;
const reservedTypes: readonly string[] = RESERVED_WORKFLOW_TYPES;
const apiPlans: readonly string[] = API_KEY_PLANS;

export interface StudioModelInfo {
  id: string;
  name: string;
  tiers: readonly QualityTier[];
  default: boolean;
}

/** The built-in studio's models, by kind: on every instance. */
export const STUDIO_MODELS: Readonly<Record<ModelKind, readonly StudioModelInfo[]>> = {
  image: [{ id: "studio-stills", name: "Studio stills", tiers: QUALITY_TIERS, default: true }],
  video: [{ id: "studio-motion", name: "Studio motion", tiers: QUALITY_TIERS, default: true }],
  // The offline voice (modules/voice) speaks the narrated types' voice-over (pipeline step `voice`).
  voice: [{ id: "studio-voice", name: "Studio voice", tiers: QUALITY_TIERS, default: true }],
};

export type ModelKind = "image" | "video" | "voice";
export const MODEL_KINDS: readonly ModelKind[] = ["image", "video", "voice"];

/**
 * The models this instance can run, by kind: the studio's own, and a remote one for each kind a provider
 * key configures, which is then the default (`auto`). A launch's `models.image|video|voice` must name one
 * of these. Names say what a model does, never who runs it.
 */
export function instanceModels(providers: RemoteProviders): Readonly<Record<ModelKind, readonly StudioModelInfo[]>> {
  const remote = (id: string, name: string): StudioModelInfo => ({ id, name, tiers: QUALITY_TIERS, default: true });
  const studio = (kind: ModelKind, hasRemote: boolean) => STUDIO_MODELS[kind].map((m) => ({ ...m, default: m.default && !hasRemote }));
  const pictures = providers.pictures.length > 0;
  const voice = providers.voice !== null;
  // Generated clips cost real money per second: never the default, a launch names them in models.video.
  const clips = [
    ...(canMakeClips(providers, GENERATED_VIDEO) ? [{ ...remote(GENERATED_VIDEO, "Generated video"), default: false }] : []),
    ...(canMakeClips(providers, TALKING_PRESENTER) ? [{ ...remote(TALKING_PRESENTER, "Talking presenter"), default: false }] : []),
  ];
  return {
    image: [...(pictures ? [remote(GENERATED_PICTURES, "Generated pictures")] : []), ...studio("image", pictures)],
    video: [...studio("video", false), ...clips],
    voice: [...(voice ? [remote(NATURAL_VOICE, "Natural voice")] : []), ...studio("voice", voice)],
  };
}

/** The model a job of this kind uses when the launch names none (undefined: none on this instance). */
export function defaultModel(kind: ModelKind, providers: RemoteProviders): string | undefined {
  return instanceModels(providers)[kind].find((m) => m.default)?.id;
}

/** A tier's video sizes by format, e.g. "9:16 720×1280, 16:9 1280×720, …". */
const tierSizes = (quality: QualityTier) =>
  FORMATS.map((f) => {
    const { width, height } = tierFrameSize(f.ratio, quality);
    return `${f.ratio} ${width}×${height}`;
  }).join(", ");

/** What each quality tier buys. Premium changes the files a job produces; it is never a price alone. */
export const QUALITY_TIER_INFO: readonly { id: QualityTier; name: string; description: string; summary: string; imageSummary: string }[] = [
  {
    id: "standard",
    name: "Standard",
    description: `Cost-optimised: H.264 video at ${TIER_VIDEO.standard.label} (${tierSizes("standard")}), 128 kbps audio, one cut per format; one still per format for image-only ads; two hook variants per format in a Multi-Format (factory) batch. Every ad's sound is at -14 LUFS.`,
    summary: TIER_BUYS.standard.video,
    imageSummary: TIER_BUYS.standard.image,
  },
  {
    id: "premium",
    name: "Premium",
    description: `Quality-maximised: H.264 video at ${TIER_VIDEO.premium.label} (${tierSizes("premium")}): full resolution and twice the frames for smoother transitions, camera moves and type, at a higher bitrate, with 192 kbps audio and a sharper thumbnail; one more cut per format, the same ad opening on a second hook from its own lines (a narrated ad keeps its words and opens on another picture, when it has one), at no extra charge; image-only ads get a second still per format, the closing call-to-action scene; Multi-Format (factory) batches get three hook variants per format instead of two.`,
    summary: TIER_BUYS.premium.video,
    imageSummary: TIER_BUYS.premium.image,
  },
];

/** The price list; `trial` states what a new account gets now (the admin settings, else the environment). */
export function getPricing(
  config: Config,
  trial: { days: number; credits: number } = { days: config.trialDays, credits: config.signupCredits },
): Pricing {
  return {
    currency: "USD",
    workflows: WORKFLOWS.map((w) => ({
      type: w.type,
      name: w.name,
      standard: w.standard,
      premium: w.premium,
      reservedOnPlans: reservedTypes.includes(w.type) ? [...RESERVED_WORKFLOW_PLANS] : [],
    })),
    packs: CREDIT_PACKS.map((p) => ({ ...p, concurrentJobs: concurrentJobsFor(p.id) })),
    plans: PLANS.map((p) => ({
      ...p,
      currency: "USD",
      apiAccess: apiPlans.includes(p.id),
      reservedWorkflows: reservedPlans.includes(p.id),
    })),
    qualityTiers: QUALITY_TIER_INFO.map((t) => ({ ...t })),
    trial,
    reservedWorkflows: {
      types: [...RESERVED_WORKFLOW_TYPES],
      plans: [...RESERVED_WORKFLOW_PLANS],
      rule: "On the free and trial plans, brand and influencer workflows answer 403 and nothing is charged; every other plan may launch every type.",
    },
    checkout: { mode: checkoutMode(config), intervals: [...BILLING_INTERVALS], plans: [...PAID_PLAN_IDS] },
  };
}

export function getStudioConfig(config: Config, providers: RemoteProviders): StudioConfig {
  const models = instanceModels(providers);
  return {
    workflowTypes: WORKFLOWS.map((w) => ({ type: w.type, name: w.name, description: w.description, requiresUrl: w.requiresUrl })),
    formats: FORMATS.map((f) => ({ ...f, platforms: [...f.platforms] })),
    qualityTiers: [...QUALITY_TIERS],
    frameworks: [...FRAMEWORKS],
    seasonal: [...SEASONALS],
    adPresets: AD_PRESETS.map((p) => ({ ...p })),
    models: {
      image: models.image.map((m) => ({ ...m, tiers: [...m.tiers] })),
      video: models.video.map((m) => ({ ...m, tiers: [...m.tiers] })),
      voice: models.voice.map((m) => ({ ...m, tiers: [...m.tiers] })),
    },
    limits: { conceptMaxLength: 2000, hitlTimeoutSeconds: config.hitlTimeoutSeconds },
  };
}

/**
 * What this instance does for each capability, derived from what a job can use now: the built-in studio
 * renders video and stills (both tiers), writes the art direction and speaks the narrated types'
 * voice-over; a configured provider adds generated pictures or a natural voice, a configured language
 * model writes the copy, a configured video service adds generated clips and talking presenters. A
 * capability this instance cannot use now is left out (SPEC 2.7 allows only `active` and `deprecated`).
 * Categories and tiers only, never a provider.
 */
function capabilities(services: Pick<Services, "providers" | "languageModel">): ModelsStatus["capabilities"] {
  const models = instanceModels(services.providers);
  const has = (kind: ModelKind, id: string) => models[kind].some((m) => m.id === id);
  const status = (on: boolean) => (on ? ("active" as const) : null);
  const all: (Omit<Capability, "status"> & { status: Capability["status"] | null })[] = [
    {
      name: "Studio video",
      category: "video",
      tier: "standard",
      status: "active",
      isNew: false,
      features: ["h264", "aac", "all-formats", "brand-colours", "safe-area-text", "transitions", "music-bed"],
    },
    {
      name: "Studio video, premium",
      category: "video",
      tier: "premium",
      status: "active",
      isNew: true,
      features: ["high-bitrate", "high-quality-audio", "high-quality-thumbnail"],
    },
    {
      name: "Studio stills",
      category: "image",
      tier: "standard",
      status: "active",
      isNew: false,
      features: ["png", "all-formats", "brand-colours", "safe-area-text"],
    },
    {
      name: "Studio stills, premium",
      category: "image",
      tier: "premium",
      status: "active",
      isNew: true,
      features: ["closing-scene-variant"],
    },
    {
      name: "Generated pictures",
      category: "image",
      tier: "standard",
      status: status(has("image", GENERATED_PICTURES)),
      isNew: has("image", GENERATED_PICTURES),
      features: ["text-to-image", "one-picture-per-scene"],
    },
    {
      name: "Generated video",
      category: "video",
      tier: "standard",
      status: status(has("video", GENERATED_VIDEO)),
      isNew: has("video", GENERATED_VIDEO),
      features: ["image-to-video", "text-to-video", "camera-direction", "all-formats"],
    },
    {
      name: "Talking presenter",
      category: "video",
      tier: "standard",
      status: status(has("video", TALKING_PRESENTER)),
      isNew: has("video", TALKING_PRESENTER),
      features: ["lip-sync", "presenter-photo", "voice-over"],
    },
    {
      name: "Art direction",
      category: "language",
      tier: "standard",
      status: "active",
      isNew: false,
      features: ["storyboard", "copywriting", "frameworks"],
    },
    {
      name: "Model-written copy",
      category: "language",
      tier: "standard",
      status: status(services.languageModel !== null),
      isNew: services.languageModel !== null,
      features: ["copywriting", "structured-output"],
    },
    {
      name: "Voice-over",
      category: "voice",
      tier: "standard",
      status: status(has("voice", "studio-voice")),
      isNew: false,
      features: ["text-to-speech", "captions"],
    },
    {
      name: "Natural voice",
      category: "voice",
      tier: "standard",
      status: status(has("voice", NATURAL_VOICE)),
      isNew: has("voice", NATURAL_VOICE),
      features: ["text-to-speech", "captions", "word-timings"],
    },
  ];
  return all.filter((c): c is Capability => c.status !== null);
}

const RECENT_UPGRADES: ModelsStatus["recentUpgrades"] = [
  {
    name: "Studio video, premium",
    category: "video",
    date: "2026-11-22",
    note: "Premium renders at a higher bitrate with better audio and a sharper thumbnail",
  },
];

export function getModelsStatus(services: Pick<Services, "providers" | "languageModel">): ModelsStatus {
  const list = capabilities(services);
  return {
    capabilities: list,
    recentUpgrades: RECENT_UPGRADES.map((u) => ({ ...u })),
    stats: {
      totalCapabilities: list.length,
      recentlyUpdated: list.filter((c) => c.isNew).length,
      categories: new Set(list.map((c) => c.category)).size,
    },
  };
}
