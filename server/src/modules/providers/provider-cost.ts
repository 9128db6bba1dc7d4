// What a launch will spend at the remote providers, estimated before anything is charged: seconds of
// generated clip, generated pictures and characters of natural voice, and their cost in US cents at the
// configured rates (config PROVIDER_COST_*). The built-in studio's models cost nothing. Pure: no I/O.
// Names say what a model does, never who runs it.
import { type AspectRatio, formatsFor, type QualityTier } from "@adgen/schema";
import type { ProviderCostConfig } from "../../config/env.ts";
import { fiveOrTen, videoAspect } from "./clip-inputs.ts";
import { GENERATED_PICTURES, NATURAL_VOICE } from "./remote-providers.ts";

/** The clip models' ids (remote-providers.ts exports the same ids once clips are wired there). */
export const GENERATED_VIDEO_MODEL = "generated-video";
export const TALKING_PRESENTER_MODEL = "talking-presenter";

/** A scene (one beat of the ad) lasts about this long; the art direction fits its beats to the ad's length. */
const SECONDS_PER_SCENE = 3;
/** The most scenes an ad has: a framework's four beats, and a seasonal greeting (the clip estimate's bound). */
export const MOST_SCENES = 5;
/** Spoken English runs at about 2.5 words a second, some 15 characters with their spaces. */
const VOICE_CHARACTERS_PER_SECOND = 15;

export interface ProviderCostInput {
  type: string;
  quality: QualityTier;
  formats?: readonly AspectRatio[] | null;
  /** The models the job will use, by kind (ids of GET /config/studio: the launch's, else the defaults). */
  models: Partial<Record<"image" | "video" | "voice", string>>;
  /** The longest ad made (config STUDIO_MAX_AD_SECONDS). */
  maxAdSeconds: number;
}

export interface ProviderCostEstimate {
  /** Seconds of generated clip: a clip per scene per frame shape, or one talking presenter for the whole ad. */
  seconds: number;
  pictures: number;
  /** Characters of natural voice. */
  characters: number;
  /** US cents, rounded to a hundredth. */
  costCents: number;
}

export function estimateProviderCost(input: ProviderCostInput, rates: ProviderCostConfig): ProviderCostEstimate {
  const formats = formatsFor({ type: input.type, formats: input.formats });
  const scenes = Math.max(1, Math.round(input.maxAdSeconds / SECONDS_PER_SCENE));
  const { image, video, voice } = input.models;
  // One generated picture per scene, shown in every format.
  const pictures = image === GENERATED_PICTURES ? scenes : 0;
  // Generated video: every scene gets a clip (the shortest a model makes) in each frame shape the formats
  // need (4:5 is cut from the square); a talking presenter is one clip of the whole ad, in every format.
  const shapes = new Set(formats.map(videoAspect)).size;
  const clipSeconds =
    video === GENERATED_VIDEO_MODEL
      ? MOST_SCENES * fiveOrTen(SECONDS_PER_SCENE) * shapes
      : video === TALKING_PRESENTER_MODEL
        ? input.maxAdSeconds
        : 0;
  const characters = voice === NATURAL_VOICE ? input.maxAdSeconds * VOICE_CHARACTERS_PER_SECOND : 0;
  const perSecond =
    video === TALKING_PRESENTER_MODEL
      ? rates.presenterCentsPerSecond
      : video === GENERATED_VIDEO_MODEL
        ? rates.videoCentsPerSecond[input.quality]
        : 0;
  const cents = clipSeconds * perSecond + pictures * rates.pictureCents + (characters / 1000) * rates.voiceCentsPer1000Characters;
  return { seconds: clipSeconds, pictures, characters, costCents: Math.round(cents * 100) / 100 };
}

/** The most a job charged `credits` may spend at the providers: its credit value less the margin. */
export function providerBudgetCents(credits: number, rates: ProviderCostConfig): number {
  return Math.round(credits * rates.creditValueCents * (1 - rates.margin) * 100) / 100;
}
