// The voice step of narrated types (avatar: a presenter to camera; influencer: a creator in the first person):
// the narration from the storyboard's copy, spoken by `services.voice`, each scene retimed to its line, the
// voice-over WAV and WebVTT captions stored with the job's media. Its output is stored like every step's, so a
// retried job renders from it without speaking again.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type OutputAsset, STEP } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import type { Persona, RenderNarration, Storyboard } from "../../render/types.ts";
import { narrate, narrationStyleFor, toWebVtt } from "../../voice/index.ts";
import { withLocalPersona } from "./imagery.ts";
import { generatedPresenterKey } from "./clip-step.ts";
import type { ArtDirectionOutput, PipelineStep, VoiceOutput } from "./step-types.ts";
import { NATURAL_VOICE } from "../../providers/remote-providers.ts";
import { ProviderError } from "../../providers/provider-error.ts";
import { PermanentJobError } from "./job-errors.ts";
import { personaFor } from "./persona-name.ts";

export const voiceStep: PipelineStep = {
  name: STEP.voice,
  weight: 10,
  async run({ services, job, request, outputs, signal, progress }) {
    const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
    const style = narrationStyleFor(request.type) ?? "presenter";
    const dir = await services.media.scratchDir(`${job.id}/voice`);
    // The natural voice when the job's models name it (its default when a key configures one), else the studio's.
    const natural = direction.generation?.models.voice === NATURAL_VOICE ? services.providers.voice : null;
    try {
      const narration = await narrate(direction.storyboard, natural ?? services.voice, {
        style,
        maxAdSeconds: services.config.maxAdSeconds,
        workDir: dir,
        signal,
      }).catch((error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        // Refused text will be refused again; anything else is worth the runner's retry.
        const message = `The voice-over could not be spoken: ${error.message}`;
        throw error.kind === "refused" ? new PermanentJobError(message) : new Error(message);
      });
      progress(0.8);
      let wavKey: string | null = null;
      if (narration.wavPath) {
        wavKey = jobMediaKey(job.id, "narration.wav");
        await services.media.put(wavKey, narration.wavPath);
      }
      const vtt = join(dir, "captions.vtt");
      await writeFile(vtt, toWebVtt(narration.cues));
      const captionsKey = jobMediaKey(job.id, "captions.vtt");
      await services.media.put(captionsKey, vtt);
      const brand = direction.storyboard.brand.name;
      // The user's own presenter (a clip, else a photo) fills the presenter slot; without one there is no slot.
      const person = direction.presenter
        ? direction.presenter.kind === "video"
          ? { videoKey: direction.presenter.key }
          : { photoKey: direction.presenter.key }
        : {};
      const persona = personaFor(style, brand, direction.presenter?.name, person);
      return {
        style,
        voice: narration.voice,
        storyboard: narration.storyboard,
        lines: narration.lines,
        cues: narration.cues,
        durationSec: narration.durationSec,
        wavKey,
        captionsKey,
        persona,
      } satisfies VoiceOutput;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** What a render adds for a narrated job: the retimed storyboard, the voice-over (as a local file) and captions, the persona. */
export async function narrationFor(
  services: Services,
  outputs: Map<string, unknown>,
): Promise<{ storyboard?: Storyboard; narration?: RenderNarration; persona?: Persona }> {
  const voice = outputs.get(STEP.voice) as VoiceOutput | undefined;
  if (!voice) return {};
  // A generated talking presenter speaks the voice-over in the presenter's slot, in place of their photo.
  const talking = generatedPresenterKey(outputs);
  const { photoKey: _photo, ...withoutPhoto } = voice.persona;
  const persona: Persona = talking ? { ...withoutPhoto, videoKey: talking } : voice.persona;
  return {
    storyboard: voice.storyboard,
    persona: await withLocalPersona(services, persona),
    ...(voice.wavKey ? { narration: { wavPath: await services.media.localFile(voice.wavKey), cues: voice.cues } } : {}),
  };
}

/** A narrated job's storyboard, retimed to its voice-over (undefined: not narrated). */
export function voicedStoryboard(outputs: Map<string, unknown>): Storyboard | undefined {
  return (outputs.get(STEP.voice) as VoiceOutput | undefined)?.storyboard;
}

/** The voice-over's assets for the result: the captions (WebVTT) and the voice-over itself. */
export function voiceAssets(outputs: Map<string, unknown>, url: (key: string) => string): OutputAsset[] {
  const voice = outputs.get(STEP.voice) as VoiceOutput | undefined;
  if (!voice) return [];
  const assets: OutputAsset[] = [
    { url: url(voice.captionsKey), type: "captions", format: "vtt", duration: voice.durationSec, platform: "all" },
  ];
  if (voice.wavKey) assets.push({ url: url(voice.wavKey), type: "audio", format: "wav", duration: voice.durationSec, platform: "all" });
  return assets;
}
