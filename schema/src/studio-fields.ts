// Which request fields each workflow type uses. The studio shows a type's form from this (a field a type
// ignores is neither shown nor sent), and a server may read it to say which fields a job ignored. It
// follows what the pipelines read: narrated types speak (voice model), a static ad has no video,
// only a factory run can be images-only, only the optimizer improves an earlier project (and keeps its
// look), an inspiration ad follows its reference's structure rather than a framework.
import { WORKFLOWS } from "./catalog.ts";
import type { WorkflowType } from "./enums.ts";
import { NARRATED_TYPES } from "./pipeline.ts";

/** The request fields a studio form can show (`models.*` one per model kind). */
export const STUDIO_FIELDS = [
  "url",
  "concept",
  "project",
  "brand",
  "formats",
  "imagesOnly",
  "quality",
  "framework",
  "seasonal",
  "adPreset",
  "models.image",
  "models.video",
  "models.voice",
  "hitl",
] as const;
export type StudioField = (typeof STUDIO_FIELDS)[number];

/**
 * How much a type needs a field it uses: `required` (the launch is refused without it), `recommended`
 * (the ad is made without it, but from less), `optional`.
 */
export type FieldNeed = "required" | "recommended" | "optional";

/** The fields a type uses, each with its need; a field absent from the map is one the type ignores. */
export type StudioFields = Partial<Record<StudioField, FieldNeed>>;

/** What the page at `url` is to a type: an ad to take after, a product, a business to audit, the brand's site. */
export type UrlRole = "reference" | "product" | "business" | "brand-site";

/** The kinds of model a request can choose (`models.image|video|voice`), in the order forms show them. */
export const STUDIO_MODEL_KINDS = ["image", "video", "voice"] as const;
export type ModelKind = (typeof STUDIO_MODEL_KINDS)[number];

/** Per type: what its url is and which optional fields it does not use, and why (the rest it uses). */
interface TypeFieldRule {
  url: UrlRole | null;
  concept: FieldNeed;
  /** Fields this type ignores, beyond what every type's defaults say. */
  ignores: readonly StudioField[];
}

const TYPE_RULES: Readonly<Record<WorkflowType, TypeFieldRule>> = {
  cinematic: { url: "product", concept: "recommended", ignores: [] },
  avatar: { url: "product", concept: "recommended", ignores: [] },
  factory: { url: "product", concept: "optional", ignores: [] },
  // The reference's own beats give the structure, so a copy framework has nothing to change.
  clone: { url: "reference", concept: "optional", ignores: ["framework"] },
  influencer: { url: "product", concept: "recommended", ignores: [] },
  brand: { url: "brand-site", concept: "optional", ignores: [] },
  staticad: { url: "product", concept: "recommended", ignores: [] },
  // Problem, agitate, solve is what this type is: it has no other framework.
  painpoint: { url: "product", concept: "recommended", ignores: ["framework"] },
  // It works from the chosen project (whose page was read when it was made) and keeps that ad's
  // structure and look, fixing what held it back: framework, preset and season come from it.
  "ad-optimizer": { url: null, concept: "optional", ignores: ["framework", "adPreset", "seasonal"] },
  "local-audit": { url: "business", concept: "optional", ignores: [] },
};

/** Types whose `url`, when left out, falls back to the brand profile's `websiteUrl` (the price table says). */
const BRAND_WEBSITE_FALLBACK: readonly WorkflowType[] = WORKFLOWS.filter((w) => w.urlFallback === "brand-website").map((w) => w.type);

/**
 * Of those, the types that cannot work without a page: an audit has nothing to score (the launch is
 * refused), while a brand film can still be made from the brand profile alone.
 */
const NEEDS_A_PAGE: readonly WorkflowType[] = ["local-audit"];

function isWorkflowType(type: string): type is WorkflowType {
  return Object.hasOwn(TYPE_RULES, type);
}

/** What the page at `url` is to this type, or null when the type reads no page. */
export function urlRole(type: WorkflowType): UrlRole | null {
  return TYPE_RULES[type].url;
}

/** Whether a type, given no `url`, reads the brand profile's website instead. */
export function urlFallsBackToBrandWebsite(type: WorkflowType): boolean {
  return BRAND_WEBSITE_FALLBACK.includes(type);
}

/**
 * Whether a request of this type has no video at all: a static ad, or any request with `imagesOnly`
 * (the API honours it for every type; the studio offers it where it is a product of its own, the factory).
 */
export function makesImagesOnly(type: string, imagesOnly = false): boolean {
  return type === "staticad" || imagesOnly;
}

/**
 * The model kinds a request uses: stills always; video unless it makes images only; a voice for the
 * narrated types' videos.
 */
export function modelKindsFor(type: string, imagesOnly = false): ModelKind[] {
  if (makesImagesOnly(type, imagesOnly)) return ["image"];
  const narrated = (NARRATED_TYPES as readonly string[]).includes(type);
  return narrated ? ["image", "video", "voice"] : ["image", "video"];
}

export interface StudioFieldOptions {
  /** The request's choice (factory): with it, the video and voice models are not used. */
  imagesOnly?: boolean;
  /**
   * Whether the caller's brand profile has a website. A type that falls back to it and cannot work
   * without a page needs a `url` when it has none (left out, the fallback is unknown: the url stays
   * optional).
   */
  brandHasWebsite?: boolean;
}

/** The fields a type's form shows, each with its need. */
export function studioFields(type: WorkflowType, options: StudioFieldOptions = {}): StudioFields {
  const rule = TYPE_RULES[type];
  const requiresUrl = WORKFLOWS.some((w) => w.type === type && w.requiresUrl);
  const fields: StudioFields = {
    concept: rule.concept,
    brand: "optional",
    formats: "optional",
    quality: "optional",
    framework: "optional",
    seasonal: "optional",
    adPreset: "optional",
    hitl: "optional",
  };
  const noFallback = NEEDS_A_PAGE.includes(type) && options.brandHasWebsite === false;
  if (rule.url) fields.url = requiresUrl || noFallback ? "required" : "optional";
  if (type === "factory") fields.imagesOnly = "optional";
  // Left out, the optimizer takes the caller's latest completed project.
  if (type === "ad-optimizer") fields.project = "optional";
  // The form offers images-only to the factory alone, so a choice left over from it counts for no other type.
  for (const kind of modelKindsFor(type, type === "factory" && options.imagesOnly)) fields[`models.${kind}`] = "optional";
  for (const ignored of rule.ignores) delete fields[ignored];
  return fields;
}

/** Whether a type uses a field (for an unknown type: no field). */
export function usesField(type: string, field: StudioField, options: StudioFieldOptions = {}): boolean {
  return isWorkflowType(type) && studioFields(type, options)[field] !== undefined;
}
