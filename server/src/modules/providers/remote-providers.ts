// The remote providers this instance has keys for (FAL_KEY, REPLICATE_API_TOKEN, ELEVENLABS_API_KEY), and
// which one a job uses: the launch's `models`, then the account's provider preference, then `auto` (a
// configured provider, else the built-in studio). Model ids and names say what a model does, never who
// runs it.
import type { Config } from "../../config/env.ts";
import type { VoiceSynthesizer } from "../voice/types.ts";
import type { ClipGenerator, ClipKind } from "./clip-generator.ts";
import { createElevenLabsVoice } from "./elevenlabs-voice.ts";
import { createFalClips } from "./fal-clips.ts";
import { createFalPictures } from "./fal-pictures.ts";
import type { PictureGenerator, PictureProvider } from "./picture-generator.ts";
import { createReplicateClips } from "./replicate-clips.ts";
import { createReplicatePictures } from "./replicate-pictures.ts";

export interface RemoteProviders {
  /** Picture generators, in the order `auto` tries them. */
  pictures: PictureGenerator[];
  /** Clip generators (image-to-video, text-to-video, talking presenters), in the order `auto` tries them. */
  clips: ClipGenerator[];
  voice: VoiceSynthesizer | null;
}

/** The model ids of the remote kinds (the built-in ones are studio-stills, studio-motion, studio-voice). */
export const GENERATED_PICTURES = "generated-pictures";
export const NATURAL_VOICE = "natural-voice";
/** Generated clips: a picture animated, or a scene made from its direction alone. */
export const GENERATED_VIDEO = "generated-video";
/** A person speaking the voice-over, lip-synced, from a photo. */
export const TALKING_PRESENTER = "talking-presenter";

/** The clip kinds each clip model id needs. */
const CLIP_KINDS: Record<string, readonly ClipKind[]> = {
  [GENERATED_VIDEO]: ["image-to-video", "text-to-video"],
  [TALKING_PRESENTER]: ["talking-presenter"],
};

export function remoteProvidersFrom(config: {
  providers: Pick<Config["providers"], "falKey" | "replicateToken" | "elevenLabsKey">;
}): RemoteProviders {
  const { falKey, replicateToken, elevenLabsKey } = config.providers;
  const pictures: PictureGenerator[] = [];
  if (falKey) pictures.push(createFalPictures(falKey));
  if (replicateToken) pictures.push(createReplicatePictures(replicateToken));
  const clips: ClipGenerator[] = [];
  if (falKey) clips.push(createFalClips(falKey));
  if (replicateToken) clips.push(createReplicateClips(replicateToken));
  return { pictures, clips, voice: elevenLabsKey ? createElevenLabsVoice(elevenLabsKey) : null };
}

/**
 * The picture generator for a job, or null for the built-in studio's stills. `model` is the launch's
 * `models.image` (already checked against this instance's models); `preference` the account's.
 */
export function choosePictures(providers: RemoteProviders, model: string | undefined, preference: string): PictureGenerator | null {
  if (model && model !== GENERATED_PICTURES) return null;
  const preferred = providers.pictures.find((p) => p.provider === (preference as PictureProvider));
  return preferred ?? providers.pictures[0] ?? null;
}

/**
 * The clip generator for a job's `generated-video` or `talking-presenter` model, or null when the model is
 * another (a built-in one) or no configured provider makes those clips. `preference` is the account's.
 */
export function chooseClips(
  providers: RemoteProviders,
  model: string | undefined,
  preference: string,
  /** A talking presenter with no photo: only a provider with stock presenters will do. */
  needs: { stockAvatars?: boolean } = {},
): ClipGenerator | null {
  const kinds = model && Object.hasOwn(CLIP_KINDS, model) ? CLIP_KINDS[model] : undefined;
  if (!kinds) return null;
  const able = providers.clips.filter(
    (clips) => kinds.every((kind) => clips.kinds.includes(kind)) && (!needs.stockAvatars || clips.stockAvatars),
  );
  return able.find((clips) => clips.provider === (preference as PictureProvider)) ?? able[0] ?? null;
}

/** Whether a configured provider makes the clips a clip model id needs. */
export function canMakeClips(providers: RemoteProviders, model: string): boolean {
  const kinds = Object.hasOwn(CLIP_KINDS, model) ? CLIP_KINDS[model]! : null;
  return !!kinds && providers.clips.some((clips) => kinds.every((kind) => clips.kinds.includes(kind)));
}

/** Whether the account prefers a provider this instance has no key for. */
export function preferenceUnavailable(providers: RemoteProviders, preference: string): boolean {
  return preference !== "auto" && !providers.pictures.some((p) => p.provider === preference);
}
