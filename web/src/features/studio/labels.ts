// Words the studio shows for the catalogue's ids: frameworks, seasons, platforms, and what the URL field
// asks for in each role (schema's `urlRole`).
import type { UrlRole, WorkflowType } from "@adgen/schema";

export const FRAMEWORK_LABELS: Record<string, string> = {
  pas: "PAS: problem, agitate, solve",
  aida: "AIDA: attention, interest, desire, action",
  sb7: "StoryBrand (SB7)",
  cialdini: "Cialdini: persuasion principles",
  uvp: "Unique value proposition",
  bant: "BANT: budget, authority, need, timing",
};

export const SEASONAL_LABELS: Record<string, string> = { ramadan: "Ramadan", eid: "Eid" };

export const CONCEPT_PLACEHOLDER: Partial<Record<WorkflowType, string>> = {
  cinematic: "A sunrise run through the city; our trainers glow with every step. End on the tagline “Own the morning”.",
  avatar: "What the presenter says: the problem, your answer, and the call to action.",
  influencer: "What a happy customer would tell their followers about it.",
  factory: "Optional: the angle to take, e.g. “free shipping this week”.",
  clone: "Optional: what to keep from the reference and what to change.",
  brand: "Optional: the story of the brand in a few lines.",
  staticad: "The offer and the headline, e.g. “20% off all plants this weekend”.",
  painpoint: "The pain your customer feels, and how you end it.",
  "ad-optimizer": "Optional: what to improve, e.g. “a stronger hook” or “a clearer offer”.",
  "local-audit": "Optional: what the short ad should promote.",
};

const PLATFORM_NAMES: Record<string, string> = {
  youtube: "YouTube",
  linkedin: "LinkedIn",
  x: "X",
  tiktok: "TikTok",
  "instagram-reels": "Reels",
  "youtube-shorts": "Shorts",
  snapchat: "Snapchat",
  "instagram-feed": "Instagram feed",
  "facebook-feed": "Facebook feed",
};

export function platformName(id: string): string {
  return PLATFORM_NAMES[id] ?? id;
}

export const MODEL_KIND_LABELS = { image: "Image model", video: "Video model", voice: "Voice model" } as const;

interface UrlCopy {
  label: string;
  placeholder: string;
  /** What the page is read for. */
  reads: string;
}

export const URL_COPY: Record<UrlRole, UrlCopy> = {
  reference: {
    label: "Reference ad URL",
    placeholder: "https://example.com/ad-you-admire",
    reads: "The ad to take after: we read its hook, beats, pacing, on-screen text and call to action.",
  },
  product: {
    label: "Product page URL",
    placeholder: "https://example.com/product",
    reads: "We read its title, description, images and colours.",
  },
  business: {
    label: "Business page URL",
    placeholder: "https://example-bakery.com",
    reads: "The page we audit: offer, call to action on mobile, contact details, trust signals and speed.",
  },
  "brand-site": {
    label: "Brand website URL",
    placeholder: "https://example.com",
    reads: "We read its colours, logo, fonts, tone and claims, and save them to your brand profile as a brand kit.",
  },
};

export function plural(n: number, word: string): string {
  return `${new Intl.NumberFormat().format(n)} ${n === 1 ? word : `${word}s`}`;
}

/** "+1 credit", or "same price" when premium costs nothing more. */
export function extraCost(standard: number, premium: number): string {
  const extra = premium - standard;
  return extra > 0 ? `+${plural(extra, "credit")}` : "same price";
}

/** Step 2's heading: the type's own noun, never "… Ad ad". */
export function describeHeading(type: WorkflowType, name: string): string {
  if (type === "ad-optimizer") return "Choose the ad to improve";
  if (type === "local-audit") return "Describe the business to audit";
  return /\bad$/i.test(name) ? `Describe your ${name}` : `Describe your ${name} ad`;
}

/**
 * What premium buys for this type, in one sentence (the price list's description speaks of every type at
 * once). The figures are the price list's: full resolution, twice the frames, 192 kbps audio, a second
 * cut opening on another hook, a second still for image-only ads, three hook variants in a factory batch.
 */
export function premiumBuys(type: WorkflowType, imagesOnly: boolean): string {
  if (imagesOnly) return "Premium adds a second still per format: the closing call-to-action scene.";
  const video = "full resolution and twice the frames (smoother motion and type), 192 kbps audio and a sharper thumbnail";
  if (type === "factory") return `Premium gives each format ${video}, and three hook variants per format instead of two.`;
  if (type === "ad-optimizer") return `Premium gives the improved ad ${video}, and a second cut that opens on another hook.`;
  if (type === "local-audit") return `Premium gives the audit's ad ${video}, and a second cut that opens on another hook.`;
  return `Premium gives this ad ${video}, and a second cut per format that opens on another hook, at no extra charge.`;
}
