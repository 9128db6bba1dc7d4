// The remote providers this instance has keys for (FAL_KEY, REPLICATE_API_TOKEN, ELEVENLABS_API_KEY), and
// which one a job uses: the launch's `models`, then the account's provider preference, then `auto` (a
// configured provider, else the built-in studio). Model ids and names say what a model does, never who
// runs it.
import type { Config } from "../../config/env.ts";
import type { VoiceSynthesizer } from "../voice/types.ts";
import { createElevenLabsVoice } from "./elevenlabs-voice.ts";
import { createFalPictures } from "./fal-pictures.ts";
import type { PictureGenerator, PictureProvider } from "./picture-generator.ts";
import { createReplicatePictures } from "./replicate-pictures.ts";

export interface RemoteProviders {
  /** Picture generators, in the order `auto` tries them. */
  pictures: PictureGenerator[];
  voice: VoiceSynthesizer | null;
}

/** The model ids of the remote kinds (the built-in ones are studio-stills, studio-motion, studio-voice). */
export const GENERATED_PICTURES = "generated-pictures";
export const NATURAL_VOICE = "natural-voice";

export function remoteProvidersFrom(config: Pick<Config, "providers">): RemoteProviders {
  const { falKey, replicateToken, elevenLabsKey } = config.providers;
  const pictures: PictureGenerator[] = [];
  if (falKey) pictures.push(createFalPictures(falKey));
  if (replicateToken) pictures.push(createReplicatePictures(replicateToken));
  return { pictures, voice: elevenLabsKey ? createElevenLabsVoice(elevenLabsKey) : null };
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

/** Whether the account prefers a provider this instance has no key for. */
export function preferenceUnavailable(providers: RemoteProviders, preference: string): boolean {
  return preference !== "auto" && !providers.pictures.some((p) => p.provider === preference);
}
