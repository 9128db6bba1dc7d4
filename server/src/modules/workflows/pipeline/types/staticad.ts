// staticad: each format's render step draws several still variants (headline × layout × colours), no
// video; the result lists every variant, the first of each format as its one-per-format asset.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type AspectRatio, FORMATS, type OutputAsset, renderStepName, STEP } from "@adgen/schema";
import { jobMediaKey } from "../../../../media/storage.ts";
import { drawStaticAd } from "../../../render/render-thread.ts";
import { staticVariants } from "../../../render/static-ad.ts";
import { withLocalImages } from "../imagery.ts";
import { PLATFORM_OF_FORMAT } from "../step-types.ts";
import type { ArtDirectionOutput, PipelineStep, RenderedFormat } from "../step-types.ts";

/** Still variants per format of a static ad. */
export const STATIC_VARIANTS = 3;

/** One drawn static-ad variant, as stored in its render step's output. */
export interface StaticDesign {
  id: string;
  layout: string;
  headline: string;
  key: string;
  bytes: number;
}

/** staticad: the format's render step, drawing STATIC_VARIANTS PNG variants at the format's size. */
export function staticAdStep(format: AspectRatio): PipelineStep {
  return {
    name: renderStepName(format),
    weight: 40,
    async run({ services, job, outputs, progress }) {
      const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
      const stem = `ad-${format.replace(":", "x")}`;
      const dir = await services.media.scratchDir(`${job.id}/${stem}`);
      const size = FORMATS.find((f) => f.ratio === format)!;
      try {
        // The pictures and logo as local files: each variant shows its own picture.
        const storyboard = await withLocalImages(services, direction.storyboard);
        const variants = staticVariants(storyboard, STATIC_VARIANTS);
        const designs: StaticDesign[] = [];
        for (const [i, variant] of variants.entries()) {
          const file = `${stem}-${variant.id.toLowerCase()}.png`;
          // On a render thread: the drawing never holds the service's event loop.
          const drawn = await drawStaticAd(storyboard, variant, format, join(dir, file));
          const key = jobMediaKey(job.id, file);
          const stored = await services.media.put(key, drawn.path);
          designs.push({ id: variant.id, layout: variant.layout, headline: variant.headline, key, bytes: stored.bytes });
          progress((i + 1) / variants.length);
        }
        const first = designs[0]!;
        return {
          format,
          kind: "image",
          key: first.key,
          thumbnailKey: first.key,
          width: size.width,
          height: size.height,
          durationSec: 0,
          bytes: designs.reduce((sum, d) => sum + d.bytes, 0),
          designs,
        } satisfies RenderedFormat & { designs: StaticDesign[] };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

type MediaUrl = (key: string) => string;

/** A static ad's assets: the first variant of each format in its place (assets[i] stays format i), then the others. */
export function staticAdResult(rendered: RenderedFormat[], assets: OutputAsset[], url: MediaUrl): { assets: OutputAsset[] } {
  const designed = rendered.map((r) => ({ r, designs: (r as RenderedFormat & { designs?: StaticDesign[] }).designs ?? [] }));
  if (!designed.some((d) => d.designs.length)) return { assets };
  const asset = (r: RenderedFormat, d: StaticDesign): OutputAsset => ({
    url: url(d.key),
    type: "image",
    format: r.format,
    duration: 0,
    platform: PLATFORM_OF_FORMAT[r.format],
    width: r.width,
    height: r.height,
    thumbnail: url(d.key),
    variant: d.id,
    headline: d.headline,
    layout: d.layout,
  });
  const firsts = designed.map(({ r, designs }, i) => (designs[0] ? asset(r, designs[0]) : assets[i]!));
  const rest = designed.flatMap(({ r, designs }) => designs.slice(1).map((d) => asset(r, d)));
  return { assets: [...firsts, ...rest] };
}
