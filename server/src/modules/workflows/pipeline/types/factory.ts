// factory (Multi-Format): several variants of the ad in each requested format, as one batch. Each
// variant opens with a different hook line (the directed opening, then the ad's other lines brought to
// the front); standard makes FACTORY_VARIANTS.standard per format, premium FACTORY_VARIANTS.premium.
// `imagesOnly` makes one PNG per variant (its opening scene) and no video. Variants also take turns through
// layout styles, so a batch is not one template with different first lines.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  type AspectRatio,
  FORMATS,
  type FactoryVariant,
  type OutputAsset,
  type QualityTier,
  renderStepName,
  STEP,
  tierFrameSize,
} from "@adgen/schema";
import { jobMediaKey } from "../../../../media/storage.ts";
import type { Storyboard } from "../../../render/types.ts";
import { FACTORY_STYLES } from "../ad-style.ts";
import { fitWords, HEADLINE_MAX } from "../copy.ts";
import { withLocalImages } from "../imagery.ts";
import type { ArtDirectionOutput, PipelineStep, RenderedFormat } from "../step-types.ts";
import { withGeneratedClips } from "../clip-step.ts";
import type { Hook } from "../hooks.ts";
import { remarkScenes } from "../scene-marks.ts";

/** Variants per format, by quality tier (the pricing document's premium description says so). */
export const FACTORY_VARIANTS: Record<QualityTier, number> = { standard: 2, premium: 3 };

/** One rendered variant, as stored in its format's render step output. */
export interface FactoryVariantOutput {
  /** "A", "B", … */
  id: string;
  hook: string;
  key: string;
  thumbnailKey: string;
  durationSec: number;
}

export type FactoryRendered = RenderedFormat & { factoryVariants: FactoryVariantOutput[] };

const LETTERS = "ABCDEFGHIJ";

/** A version of the ad opening on `hook`. */
export interface HookVariant {
  hook: string;
  storyboard: Storyboard;
  /**
   * The ad's own line the hook was brought forward from (a scene's headline or body); null for the directed
   * opening and for a line naming the product, made when the ad has too few lines of its own.
   */
  from: { scene: number; part: "headline" | "body" } | null;
}

/**
 * `count` versions of the storyboard, each opening on a different line. A line borrowed from a later
 * scene's headline trades places with the opening (nothing is said twice); one borrowed from a body
 * leaves that body out; when the ad has too few lines, the product is named in the opening instead.
 */
export function hookVariants(storyboard: Storyboard, count: number, hooks: readonly Hook[] = []): HookVariant[] {
  const scenes = storyboard.scenes;
  const opening = scenes[0]!.headline;
  const product = storyboard.brand.name;
  type Source = { hook: string; from: { scene: number; part: "headline" | "body" } | null };
  const sources: Source[] = [{ hook: opening, from: null }];
  const seen = new Set([opening.toLowerCase()]);
  const offer = (hook: string | undefined, from: Source["from"]) => {
    if (!hook) return;
    const line = fitWords(hook, HEADLINE_MAX);
    if (seen.has(line.toLowerCase())) return;
    seen.add(line.toLowerCase());
    sources.push({ hook: line, from });
  };
  // Hooks of another kind than the opening's first (a question after a claim, a number, a POV), each a
  // kind once; then the ad's middle scenes (the closing scene keeps the call to action), bodies, plain lines.
  const onScreen = new Set(
    scenes
      .flatMap((s) => [s.headline, s.body])
      .filter(Boolean)
      .map((l) => l!.toLowerCase()),
  );
  const openingKind = hooks.find((h) => h.line === opening)?.kind;
  const kinds = new Set(openingKind ? [openingKind] : []);
  for (const hook of hooks) {
    if (kinds.has(hook.kind) || onScreen.has(hook.line.toLowerCase())) continue;
    kinds.add(hook.kind);
    offer(hook.line, null);
  }
  for (let i = 1; i < scenes.length - 1; i++) offer(scenes[i]!.headline, { scene: i, part: "headline" });
  for (const [i, scene] of scenes.entries()) offer(scene.body, { scene: i, part: "body" });
  for (const line of [`Meet ${product}`, `Why ${product}?`, product, `New: ${product}`, `Discover ${product}`]) offer(line, null);

  return sources.slice(0, count).map(({ hook, from }, v) => {
    if (v === 0) return { hook, storyboard, from };
    const next = scenes.map((scene) => ({ ...scene }));
    if (from?.part === "headline") next[from.scene] = { ...next[from.scene]!, headline: opening };
    if (from?.part === "body") {
      const { body: _body, ...rest } = next[from.scene]!;
      next[from.scene] = rest;
    }
    next[0] = { ...next[0]!, headline: hook };
    // The key word is read again from each scene's headline as it now is (it must be in it, word for word).
    return { hook, storyboard: { ...storyboard, scenes: remarkScenes(next, [product]) }, from };
  });
}

/** factory: the format's render step: every variant of the batch in this format. */
export function factoryRenderStep(format: AspectRatio, imagesOnly: boolean, quality: QualityTier): PipelineStep {
  return {
    name: renderStepName(format),
    weight: 70,
    async run({ services, job, outputs, signal, progress }) {
      const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
      const stem = `ad-${format.replace(":", "x")}`;
      const dir = await services.media.scratchDir(`${job.id}/${stem}`);
      // Stills are drawn at the format's full size; a video at its tier's (standard 720p, premium 1080p).
      const size = imagesOnly ? FORMATS.find((f) => f.ratio === format)! : tierFrameSize(format, quality);
      const variants = hookVariants(
        await withLocalImages(services, withGeneratedClips(direction.storyboard, outputs, format)),
        FACTORY_VARIANTS[quality],
        direction.hooks,
      );
      const made: FactoryVariantOutput[] = [];
      let bytes = 0;
      try {
        for (const [i, variant] of variants.entries()) {
          const id = LETTERS[i]!;
          const fileStem = `${stem}-${id.toLowerCase()}`;
          const share = (f: number) => progress((i + Math.min(1, Math.max(0, f))) / variants.length);
          // Each variant differs in its layout as well as its hook (split, bold, panel, cinematic in turn).
          const storyboard: Storyboard = { ...variant.storyboard, style: FACTORY_STYLES[i % FACTORY_STYLES.length]! };
          if (imagesOnly) {
            const file = join(dir, `${fileStem}.png`);
            await services.renderer.previewFrame(storyboard, 0, format, file);
            const key = jobMediaKey(job.id, `${fileStem}.png`);
            bytes += (await services.media.put(key, file)).bytes;
            made.push({ id, hook: variant.hook, key, thumbnailKey: key, durationSec: 0 });
          } else {
            const result = await services.renderer.render({
              storyboard,
              format,
              outputDir: dir,
              fileStem,
              signal,
              onProgress: share,
              quality,
              segmentOwner: { jobId: job.id },
            });
            const key = jobMediaKey(job.id, `${fileStem}.mp4`);
            const thumbnailKey = jobMediaKey(job.id, `${fileStem}.jpg`);
            await services.media.put(thumbnailKey, result.thumbnailPath);
            bytes += (await services.media.put(key, result.videoPath)).bytes;
            made.push({ id, hook: variant.hook, key, thumbnailKey, durationSec: result.durationSec });
          }
          share(1);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const first = made[0]!;
      return {
        format,
        kind: imagesOnly ? "image" : "video",
        key: first.key,
        thumbnailKey: first.thumbnailKey,
        width: size.width,
        height: size.height,
        durationSec: first.durationSec,
        bytes,
        factoryVariants: made,
      } satisfies FactoryRendered;
    },
  };
}

/**
 * factory's assets and batch: assets[i] stays format i's first variant; the other variants follow all of
 * those, format by format. `variants` lists every variant of every format.
 */
export function factoryResult(
  rendered: RenderedFormat[],
  assets: OutputAsset[],
  url: (key: string) => string,
): { assets: OutputAsset[]; variants: FactoryVariant[] } {
  const batches = rendered.map((r, i) => ({ r, base: assets[i]!, made: (r as Partial<FactoryRendered>).factoryVariants ?? [] }));
  const asset = (base: OutputAsset, v: FactoryVariantOutput): OutputAsset => ({
    ...base,
    url: url(v.key),
    duration: v.durationSec,
    thumbnail: url(v.thumbnailKey),
    variant: v.id,
    headline: v.hook,
  });
  const firsts = batches.map(({ base, made }) => (made[0] ? asset(base, made[0]) : base));
  const rest = batches.flatMap(({ base, made }) => made.slice(1).map((v) => asset(base, v)));
  const variants = batches.flatMap(({ r, made }) =>
    made.map((v) => ({ variant: v.id, format: r.format, hook: v.hook, url: url(v.key), type: r.kind })),
  );
  return { assets: [...firsts, ...rest], variants };
}
