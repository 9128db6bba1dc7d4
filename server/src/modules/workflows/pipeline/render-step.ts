// One format's render: a still (with premium's closing-scene still) or a video (with premium's alternate cut),
// from the storyboard as narrated and with its generated clips.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type AspectRatio, FORMATS, type QualityTier, renderStepName, STEP } from "@adgen/schema";
import { jobMediaKey } from "../../../media/storage.ts";
import type { Storyboard } from "../../render/types.ts";
import type { ArtDirectionOutput, PipelineStep, RenderedFormat } from "./step-types.ts";
import { ALTERNATE_CUT_ID, planAlternateCut, renderCut } from "./premium-variant.ts";
import { narrationFor } from "./voice-step.ts";
import { withLocalImages } from "./imagery.ts";
import { withGeneratedClips } from "./clip-step.ts";

export function renderStep(format: AspectRatio, imagesOnly: boolean, quality: QualityTier): PipelineStep {
  return {
    name: renderStepName(format),
    weight: 70,
    async run({ services, job, outputs, signal, progress }) {
      const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
      // Narrated types render the storyboard retimed to the voice-over, with it and its captions.
      const voiced = await narrationFor(services, outputs);
      const storyboard: Storyboard = await withLocalImages(
        services,
        withGeneratedClips(voiced.storyboard ?? direction.storyboard, outputs, format),
      );
      const stem = `ad-${format.replace(":", "x")}`;
      const dir = await services.media.scratchDir(`${job.id}/${stem}`);
      try {
        const size = FORMATS.find((f) => f.ratio === format)!;
        if (imagesOnly) {
          const file = join(dir, `${stem}.png`);
          await services.renderer.previewFrame(storyboard, 0, format, file);
          const key = jobMediaKey(job.id, `${stem}.png`);
          const stored = await services.media.put(key, file);
          // Premium: one more still, the closing (call-to-action) scene, in the same format.
          const variants: NonNullable<RenderedFormat["variants"]> = [];
          const last = storyboard.scenes.length - 1;
          if (quality === "premium" && last > 0) {
            progress(0.5);
            const variantFile = join(dir, `${stem}-${last + 1}.png`);
            await services.renderer.previewFrame(storyboard, last, format, variantFile);
            const variantKey = jobMediaKey(job.id, `${stem}-${last + 1}.png`);
            await services.media.put(variantKey, variantFile);
            variants.push({ key: variantKey, sceneId: storyboard.scenes[last]!.id });
          }
          progress(1);
          return {
            format,
            kind: "image",
            key,
            thumbnailKey: key,
            width: size.width,
            height: size.height,
            durationSec: 0,
            bytes: stored.bytes,
            ...(variants.length ? { variants } : {}),
          } satisfies RenderedFormat;
        }
        // Premium buys one more cut per format, opening on a second hook (premium-variant.ts); a narrated
        // ad's cut keeps its words and opens on another picture. The step's progress covers both renders.
        const plan =
          quality === "premium" ? planAlternateCut(storyboard, voiced.storyboard !== undefined, voiced.persona !== undefined) : null;
        const cut = plan && "cut" in plan ? plan.cut : null;
        const share = cut ? 0.5 : 1;
        const cutRequest = { format, outputDir: dir, signal, quality, ...(voiced.narration ? { narration: voiced.narration } : {}) };
        const persona = voiced.persona ? { persona: voiced.persona } : {};
        const main = await renderCut(services, job.id, {
          ...cutRequest,
          ...persona,
          storyboard,
          fileStem: stem,
          onProgress: (f) => progress(Math.min(1, f) * share),
        });
        const alternate = cut
          ? await renderCut(services, job.id, {
              ...cutRequest,
              ...persona,
              storyboard: cut.storyboard,
              fileStem: `${stem}-${ALTERNATE_CUT_ID.toLowerCase()}`,
              onProgress: (f) => progress(share + Math.min(1, f) * share),
            })
          : null;
        const variants: NonNullable<RenderedFormat["variants"]> = [];
        if (cut && alternate) {
          variants.push({
            key: alternate.key,
            kind: "video",
            thumbnailKey: alternate.thumbnailKey,
            durationSec: alternate.durationSec,
            variant: ALTERNATE_CUT_ID,
            hook: cut.hook,
          });
        }
        progress(1);
        return {
          format,
          kind: "video",
          key: main.key,
          thumbnailKey: main.thumbnailKey,
          width: main.width,
          height: main.height,
          durationSec: main.durationSec,
          // Every file this format stored, as a factory batch counts them.
          bytes: main.bytes + (alternate?.bytes ?? 0),
          ...(variants.length ? { variants } : {}),
          ...(plan && "warning" in plan ? { variantWarning: plan.warning } : {}),
        } satisfies RenderedFormat;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
