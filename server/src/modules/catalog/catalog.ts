// Public configuration: prices, studio options and capabilities. Capabilities name a category and a
// tier, never a provider.
import {
  AD_PRESETS,
  API_KEY_PLANS,
  CREDIT_PACKS,
  concurrentJobsFor,
  FORMATS,
  FRAMEWORKS,
  PLANS,
  type ModelsStatus,
  type Pricing,
  QUALITY_TIERS,
  type QualityTier,
  RESERVED_WORKFLOW_PLANS,
  RESERVED_WORKFLOW_TYPES,
  SEASONALS,
  type StudioConfig,
  WORKFLOWS,
} from "@adgen/schema";
import type { Config } from "../../config/env.ts";

const reservedPlans: readonly string[] = RESERVED_WORKFLOW_PLANS;
const reservedTypes: readonly string[] = RESERVED_WORKFLOW_TYPES;
const apiPlans: readonly string[] = API_KEY_PLANS;

export interface StudioModelInfo {
  id: string;
  name: string;
  tiers: readonly QualityTier[];
  default: boolean;
}

/**
 * The models this instance can run, by kind: only the built-in studio's own (remote models come with
 * the generation providers). A launch's `models.image|video|voice` must name one of these. A kind
 * with no model here is one no job can use (GET /models/status then lists it as unavailable).
 */
export const STUDIO_MODELS: Readonly<Record<ModelKind, readonly StudioModelInfo[]>> = {
  image: [{ id: "studio-stills", name: "Studio stills", tiers: QUALITY_TIERS, default: true }],
  video: [{ id: "studio-motion", name: "Studio motion", tiers: QUALITY_TIERS, default: true }],
  // The offline voice (modules/voice) speaks the narrated types' voice-over (pipeline step `voice`).
  voice: [{ id: "studio-voice", name: "Studio voice", tiers: QUALITY_TIERS, default: true }],
};

export type ModelKind = "image" | "video" | "voice";
export const MODEL_KINDS: readonly ModelKind[] = ["image", "video", "voice"];

/** The model a job of this kind uses when the launch names none (undefined: none on this instance). */
export function defaultModel(kind: ModelKind): string | undefined {
  return STUDIO_MODELS[kind].find((m) => m.default)?.id;
}

/** What each quality tier buys. Premium changes the files a job produces; it is never a price alone. */
export const QUALITY_TIER_INFO: readonly { id: QualityTier; name: string; description: string }[] = [
  {
    id: "standard",
    name: "Standard",
    description:
      "Cost-optimised: H.264 video at the studio's standard quality (128 kbps audio budget); one still per format for image-only ads; two hook variants per format in a Multi-Format (factory) batch.",
  },
  {
    id: "premium",
    name: "Premium",
    description:
      "Quality-maximised: every video is encoded at a higher bitrate (about one and a half times standard: cleaner gradients, images and small text) with a 192 kbps audio budget and a sharper thumbnail; image-only ads get a second still per format, the closing call-to-action scene; Multi-Format (factory) batches get three hook variants per format instead of two.",
  },
];

export function getPricing(config: Config): Pricing {
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
    trial: { days: config.trialDays, credits: config.signupCredits },
    reservedWorkflows: {
      types: [...RESERVED_WORKFLOW_TYPES],
      plans: [...RESERVED_WORKFLOW_PLANS],
      rule: "On the free and trial plans, brand and influencer workflows answer 403 and nothing is charged; every other plan may launch every type.",
    },
  };
}

export function getStudioConfig(config: Config): StudioConfig {
  return {
    workflowTypes: WORKFLOWS.map((w) => ({ type: w.type, name: w.name, description: w.description, requiresUrl: w.requiresUrl })),
    formats: FORMATS.map((f) => ({ ...f, platforms: [...f.platforms] })),
    qualityTiers: [...QUALITY_TIERS],
    frameworks: [...FRAMEWORKS],
    seasonal: [...SEASONALS],
    adPresets: AD_PRESETS.map((p) => ({ ...p })),
    models: {
      image: STUDIO_MODELS.image.map((m) => ({ ...m, tiers: [...m.tiers] })),
      video: STUDIO_MODELS.video.map((m) => ({ ...m, tiers: [...m.tiers] })),
      voice: STUDIO_MODELS.voice.map((m) => ({ ...m, tiers: [...m.tiers] })),
    },
    limits: { conceptMaxLength: 2000, hitlTimeoutSeconds: config.hitlTimeoutSeconds },
  };
}

/**
 * What this instance does for each capability, derived from what a job can use now: the built-in studio
 * renders video and stills (both tiers), writes the art direction and (with its offline voice, when
 * STUDIO_MODELS.voice lists it) speaks the narrated types' voice-over. There is no remote generation or
 * upscaling, so those are `unavailable`. Categories and tiers only, never a provider.
 */
function capabilities(): ModelsStatus["capabilities"] {
  const voice = STUDIO_MODELS.voice.length > 0;
  return [
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
      name: "Art direction",
      category: "language",
      tier: "standard",
      status: "active",
      isNew: false,
      features: ["storyboard", "copywriting", "frameworks"],
    },
    {
      name: "Voice-over",
      category: "voice",
      tier: "standard",
      status: voice ? "active" : "unavailable",
      isNew: false,
      features: ["text-to-speech", "captions"],
    },
    { name: "Generated video", category: "video", tier: "premium", status: "unavailable", isNew: false, features: ["text-to-video"] },
    { name: "Upscaling", category: "image", tier: "premium", status: "unavailable", isNew: false, features: ["upscale"] },
  ];
}

const RECENT_UPGRADES: ModelsStatus["recentUpgrades"] = [
  {
    name: "Studio video, premium",
    category: "video",
    date: "2026-11-22",
    note: "Premium renders at a higher bitrate with better audio and a sharper thumbnail",
  },
];

export function getModelsStatus(): ModelsStatus {
  const list = capabilities();
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
