// Prices and catalogue (SPEC 8.2, CONTRACT). The server charges from this table and the SPA shows it.
import type { AspectRatio, PlanId, QualityTier, WorkflowType } from "./enums.ts";

export interface WorkflowInfo {
  type: WorkflowType;
  name: string;
  description: string;
  standard: number;
  premium: number;
  requiresUrl: boolean;
  /**
   * The page the job reads when `url` is not given, if any: `brand-website` (the brand profile's
   * websiteUrl). Such a type shows the url field as optional.
   */
  urlFallback?: "brand-website";
}

export const WORKFLOWS: readonly WorkflowInfo[] = [
  {
    type: "cinematic",
    name: "Director",
    description: "A cinematic ad directed from your concept and brand.",
    standard: 1,
    premium: 2,
    requiresUrl: false,
  },
  {
    type: "avatar",
    name: "Presenter",
    description: "A presenter speaks your message to camera.",
    standard: 2,
    premium: 3,
    requiresUrl: false,
  },
  {
    type: "factory",
    name: "Multi-Format",
    description: "One product page, an ad in every social format.",
    standard: 3,
    premium: 5,
    requiresUrl: true,
  },
  {
    type: "clone",
    name: "Inspiration",
    description: "An ad in the style of a reference you admire.",
    standard: 3,
    premium: 5,
    requiresUrl: true,
  },
  {
    type: "influencer",
    name: "Influencer",
    description: "A creator-style testimonial for your product.",
    standard: 8,
    premium: 15,
    requiresUrl: false,
  },
  {
    type: "brand",
    name: "Brand Clone",
    description: "A full brand film from your brand knowledge.",
    standard: 15,
    premium: 25,
    requiresUrl: false,
    urlFallback: "brand-website",
  },
  { type: "staticad", name: "Static Ad", description: "Still ads for feeds and display.", standard: 1, premium: 1, requiresUrl: false },
  {
    type: "painpoint",
    name: "Pain Point",
    description: "A problem-solution ad around your customer's pain.",
    standard: 1,
    premium: 1,
    requiresUrl: false,
  },
  {
    type: "ad-optimizer",
    name: "Ad Optimizer",
    description: "A new variant of an ad, tuned from its performance.",
    standard: 1,
    premium: 2,
    requiresUrl: false,
  },
  {
    type: "local-audit",
    name: "Local Audit",
    description: "An audit of a local business's presence with an ad to match.",
    standard: 2,
    premium: 3,
    requiresUrl: false,
    urlFallback: "brand-website",
  },
];

export function workflowCost(type: WorkflowType, quality: QualityTier = "standard"): number {
  const info = WORKFLOWS.find((w) => w.type === type);
  if (!info) throw new Error(`unknown workflow type ${type}`);
  return quality === "premium" ? info.premium : info.standard;
}

export const CREDIT_PACKS = [
  { id: "pack_10", credits: 10, price: 9.99, currency: "USD" },
  { id: "pack_25", credits: 25, price: 22.99, currency: "USD" },
  { id: "pack_50", credits: 50, price: 39.99, currency: "USD" },
  { id: "pack_100", credits: 100, price: 69.99, currency: "USD" },
] as const;

export interface PlanInfo {
  id: PlanId;
  name: string;
  monthly: number;
  yearly: number;
  monthlyCredits: number;
  /** Jobs of one account that may run at once; the account's further jobs wait in its own line. */
  concurrentJobs: number;
}

/**
 * Concurrent jobs per account, by plan (credit packs count as pay-as-you-go, like Starter). An account
 * never has more jobs than this on the shared queue, so one account's burst cannot hold up other
 * accounts' jobs.
 */
export const CONCURRENT_JOBS: Readonly<Record<PlanId, number>> = {
  free: 1,
  trial: 1,
  subscription_starter: 2,
  subscription_pro: 2,
  subscription_agency: 4,
  subscription_enterprise: 8,
  pack_10: 2,
  pack_25: 2,
  pack_50: 2,
  pack_100: 2,
};

/** The concurrent-job limit of a plan (1 for an unknown plan). */
export function concurrentJobsFor(plan: string): number {
  return (CONCURRENT_JOBS as Record<string, number>)[plan] ?? 1;
}

export const PLANS: readonly PlanInfo[] = [
  { id: "free", name: "Free", monthly: 0, yearly: 0, monthlyCredits: 0, concurrentJobs: CONCURRENT_JOBS.free },
  { id: "trial", name: "Trial", monthly: 0, yearly: 0, monthlyCredits: 0, concurrentJobs: CONCURRENT_JOBS.trial },
  {
    id: "subscription_starter",
    name: "Starter",
    monthly: 29,
    yearly: 290,
    monthlyCredits: 30,
    concurrentJobs: CONCURRENT_JOBS.subscription_starter,
  },
  { id: "subscription_pro", name: "Pro", monthly: 79, yearly: 790, monthlyCredits: 100, concurrentJobs: CONCURRENT_JOBS.subscription_pro },
  {
    id: "subscription_agency",
    name: "Agency",
    monthly: 199,
    yearly: 1990,
    monthlyCredits: 300,
    concurrentJobs: CONCURRENT_JOBS.subscription_agency,
  },
  {
    id: "subscription_enterprise",
    name: "Enterprise",
    monthly: 499,
    yearly: 4990,
    monthlyCredits: 1000,
    concurrentJobs: CONCURRENT_JOBS.subscription_enterprise,
  },
];

export const FORMATS: readonly { ratio: AspectRatio; width: number; height: number; platforms: string[] }[] = [
  { ratio: "16:9", width: 1920, height: 1080, platforms: ["youtube", "linkedin", "x"] },
  { ratio: "9:16", width: 1080, height: 1920, platforms: ["tiktok", "instagram-reels", "youtube-shorts", "snapchat"] },
  { ratio: "1:1", width: 1080, height: 1080, platforms: ["instagram-feed", "facebook-feed", "linkedin"] },
  { ratio: "4:5", width: 1080, height: 1350, platforms: ["instagram-feed", "facebook-feed"] },
];

/**
 * What each quality tier renders a video at. The format list above gives the full size (premium); standard is
 * cost-optimised at two thirds of it (720p: 720×1280, 1280×720, 720×720, 720×900) and 30 fps, premium is
 * 1080p at 60 fps (twice the frames: smoother transitions, camera moves and type).
 */
export const TIER_VIDEO: Record<QualityTier, { fps: number; scale: number; label: string }> = {
  standard: { fps: 30, scale: 2 / 3, label: "720p at 30 fps" },
  premium: { fps: 60, scale: 1, label: "1080p at 60 fps" },
};

/**
 * What each tier buys, in the words the pricing and the launch form show beside the tier: for a video job
 * and for an image-only job. Premium's one more cut is the same ad opening on a second hook (a narrated ad:
 * the same words over a different opening picture, when it has one); it costs nothing beyond the premium price.
 */
export const TIER_BUYS: Record<QualityTier, { video: string; image: string }> = {
  standard: { video: `${TIER_VIDEO.standard.label}, one cut per format`, image: "one still per format" },
  premium: {
    video: `${TIER_VIDEO.premium.label}, smoother motion, and one more cut per format (a second hook)`,
    image: "one more still per format (the closing call to action)",
  },
};

/** A video's frame size in `format` at `quality` (even numbers, as H.264 in 4:2:0 needs). */
export function tierFrameSize(format: AspectRatio, quality: QualityTier): { width: number; height: number } {
  const spec = FORMATS.find((f) => f.ratio === format);
  if (!spec) throw new Error(`Unknown format ${JSON.stringify(format)}`);
  const scale = TIER_VIDEO[quality]?.scale ?? 1;
  const even = (n: number) => 2 * Math.round((n * scale) / 2);
  return { width: even(spec.width), height: even(spec.height) };
}

export const AD_PRESETS = [
  { id: "bold", name: "Bold" },
  { id: "minimal", name: "Minimal" },
  { id: "luxury", name: "Luxury" },
  { id: "playful", name: "Playful" },
  { id: "documentary", name: "Documentary" },
] as const;
