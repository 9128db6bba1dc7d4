// Public configuration: prices, studio options and capabilities. Capabilities name a category and a
// tier, never a provider.
import {
  AD_PRESETS,
  API_KEY_PLANS,
  CREDIT_PACKS,
  FORMATS,
  FRAMEWORKS,
  PLANS,
  type ModelsStatus,
  type Pricing,
  QUALITY_TIERS,
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
    packs: CREDIT_PACKS.map((p) => ({ ...p })),
    plans: PLANS.map((p) => ({
      ...p,
      currency: "USD",
      apiAccess: apiPlans.includes(p.id),
      reservedWorkflows: reservedPlans.includes(p.id),
    })),
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
      image: [
        { id: "image-standard", tier: "standard" },
        { id: "image-premium", tier: "premium" },
      ],
      video: [
        { id: "video-standard", tier: "standard" },
        { id: "video-premium", tier: "premium" },
      ],
      voice: [{ id: "voice-standard", tier: "standard" }],
    },
    limits: { conceptMaxLength: 2000, hitlTimeoutSeconds: config.hitlTimeoutSeconds },
  };
}

const CAPABILITIES: ModelsStatus["capabilities"] = [
  {
    name: "Studio renderer",
    category: "video",
    tier: "standard",
    status: "active",
    isNew: false,
    features: ["h264", "aac", "all-formats", "brand-colours", "safe-area-text", "transitions"],
  },
  {
    name: "Cinematic video",
    category: "video",
    tier: "premium",
    status: "active",
    isNew: true,
    features: ["text-to-video", "image-to-video", "camera-control"],
  },
  {
    name: "Product imagery",
    category: "image",
    tier: "standard",
    status: "active",
    isNew: false,
    features: ["text-to-image", "brand-colours"],
  },
  {
    name: "Photoreal imagery",
    category: "image",
    tier: "premium",
    status: "active",
    isNew: true,
    features: ["text-to-image", "image-to-image", "upscale"],
  },
  {
    name: "Voice-over",
    category: "voice",
    tier: "standard",
    status: "active",
    isNew: false,
    features: ["text-to-speech", "multi-language"],
  },
  {
    name: "Art direction",
    category: "language",
    tier: "standard",
    status: "active",
    isNew: false,
    features: ["storyboard", "copywriting", "frameworks"],
  },
  { name: "Legacy slideshow", category: "video", tier: "standard", status: "deprecated", isNew: false, features: ["stills-to-video"] },
];

const RECENT_UPGRADES = [
  { name: "Cinematic video", category: "video", date: "2026-10-01", note: "Longer shots and better camera control" },
  { name: "Photoreal imagery", category: "image", date: "2026-09-15", note: "Sharper product detail" },
];

export function getModelsStatus(): ModelsStatus {
  return {
    capabilities: CAPABILITIES,
    recentUpgrades: RECENT_UPGRADES,
    stats: {
      totalCapabilities: CAPABILITIES.length,
      recentlyUpdated: CAPABILITIES.filter((c) => c.isNew).length,
      categories: new Set(CAPABILITIES.map((c) => c.category)).size,
    },
  };
}
