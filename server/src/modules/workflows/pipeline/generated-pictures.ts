// Pictures for the scenes from a remote text-to-image model, when the job's `models.image` is
// `generated-pictures`: one per scene that shows a picture (the closing scene carries the logo), each from
// the launch's picture prompt (prompts.picture), else the scene's shot prompt (cinematic) or its words and the preset's look, checked by its bytes and stored
// among the job's media like any other picture. A provider that keeps failing fails the job (the runner
// retries it, then refunds it); refused content fails it at once. No message names a provider.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Job } from "@adgen/prisma";
import type { AspectRatio } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import type { PictureGenerator } from "../../providers/picture-generator.ts";
import { ProviderError } from "../../providers/provider-error.ts";
import { imageSizeFromBytes } from "../../render/image-size.ts";
import type { Storyboard } from "../../render/types.ts";
import { imageKind, MAX_PICTURES, type Picture } from "./imagery.ts";
import { PermanentJobError } from "./job-errors.ts";

const LOOK_WORDS: Record<string, string> = {
  bold: "bold saturated colours, dynamic angle, high contrast",
  minimal: "clean minimal set, soft daylight, lots of negative space",
  luxury: "luxurious dark backdrop, warm rim light, shallow depth of field",
  playful: "playful bright pastel colours, fun props",
  documentary: "natural documentary photograph, real setting, available light",
};

/**
 * The prompt of one scene's picture: the launch's picture prompt (prompts.picture, from the prompt builder or
 * the caller) with the scene's moment, else the scene's shot, else what the scene says as a photograph;
 * always with no lettering.
 */
export function scenePrompt(storyboard: Storyboard, index: number, preset: string, shotPrompt?: string, launchPrompt?: string): string {
  const scene = storyboard.scenes[index]!;
  if (launchPrompt) return `${launchPrompt.replace(/[.\s]+$/, "")}. The moment: ${scene.headline}. No text or lettering in the picture.`;
  if (shotPrompt) return `${shotPrompt}. No text or lettering in the picture.`;
  const words = [scene.headline, scene.body].filter(Boolean).join(". ");
  return `Advertising photograph of ${storyboard.brand.name}: ${words}. ${LOOK_WORDS[preset] ?? LOOK_WORDS.minimal}. No text or lettering in the picture.`;
}

export async function generatePictures(
  services: Services,
  job: Job,
  generator: PictureGenerator,
  input: { storyboard: Storyboard; aspect: AspectRatio; preset: string; shotPrompts?: string[]; launchPrompt?: string },
  signal?: AbortSignal,
): Promise<Picture[]> {
  const { storyboard, aspect, preset, shotPrompts, launchPrompt } = input;
  const count = Math.min(MAX_PICTURES, Math.max(1, storyboard.scenes.length - 1));
  const dir = await services.media.scratchDir(`${job.id}/generated`);
  const pictures: Picture[] = [];
  for (let i = 0; i < count; i++) {
    const prompt = scenePrompt(storyboard, i, preset, shotPrompts?.[i], launchPrompt);
    let bytes: Buffer;
    try {
      bytes = await generator.generate({ prompt, aspect, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const message = `Scene ${i + 1}'s picture could not be made: ${error.message}`;
      // Refused content will be refused again; anything else is worth the runner's retry.
      throw error.kind === "refused" ? new PermanentJobError(message) : new Error(message);
    }
    const kind = imageKind(bytes);
    const size = imageSizeFromBytes(bytes);
    if (!kind || !size || size.width === 0 || size.height === 0) {
      throw new Error(`Scene ${i + 1}'s picture could not be made: the picture service answered a file that is not a picture`);
    }
    const file = `generated-${i + 1}.${kind}`;
    await writeFile(join(dir, file), bytes);
    const key = jobMediaKey(job.id, file);
    await services.media.put(key, join(dir, file));
    pictures.push({ key, width: size.width, height: size.height, source: "generated" });
  }
  return pictures;
}
