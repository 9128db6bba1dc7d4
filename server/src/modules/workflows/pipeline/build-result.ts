// A finished job's result from its steps' outputs: one asset per format, premium's variants after them,
// the type's own parts, the narration's files, and every warning said once.
import { formatsFor, type OutputAsset, renderStepName, STEP, type WorkflowRequest, type WorkflowResult } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import type { ArtDirectionOutput, PageFacts, RenderedFormat } from "./step-types.ts";
import { mediaUrl } from "./step-types.ts";
import { typedResultParts } from "./typed-direction.ts";
import { voiceAssets, voicedStoryboard } from "./voice-step.ts";
import { typeResult } from "./types/type-result.ts";
import { PLATFORM_OF_FORMAT } from "./step-types.ts";
import { modelsFor } from "../launch/check-options.ts";

/** The job's result from its finished steps. */
export function buildResult(services: Services, request: WorkflowRequest, outputs: Map<string, unknown>): WorkflowResult {
  const formats = formatsFor(request);
  const rendered = formats.map((f) => outputs.get(renderStepName(f)) as RenderedFormat);
  const assets: OutputAsset[] = rendered.map((r) => ({
    url: mediaUrl(services, r.key),
    type: r.kind,
    format: r.format,
    duration: r.durationSec,
    platform: PLATFORM_OF_FORMAT[r.format],
    width: r.width,
    height: r.height,
    thumbnail: mediaUrl(services, r.thumbnailKey),
  }));
  // Premium's further stills and alternate cuts follow the one-per-format assets, so assets[i] stays format i.
  for (const r of rendered) {
    for (const variant of r.variants ?? []) {
      assets.push({
        url: mediaUrl(services, variant.key),
        type: variant.kind ?? "image",
        format: r.format,
        duration: variant.durationSec ?? 0,
        platform: PLATFORM_OF_FORMAT[r.format],
        width: r.width,
        height: r.height,
        thumbnail: mediaUrl(services, variant.thumbnailKey ?? variant.key),
        ...(variant.variant ? { variant: variant.variant } : {}),
        ...(variant.hook ? { headline: variant.hook } : {}),
      });
    }
  }
  const page = outputs.get(STEP.readPage) as PageFacts | undefined;
  const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
  const first = rendered[0];
  const generation = direction.generation ?? { models: modelsFor(request, services.providers), warnings: [] };
  // Type-specific parts: a static ad's variants, a local audit's report and PDF.
  const own = typeResult(request, outputs, rendered, assets, (key) => mediaUrl(services, key));
  const storyboard = voicedStoryboard(outputs) ?? direction.storyboard;
  // A cinematic ad's shot list, a clone's analysis, an optimizer's changes.
  const { warnings: typeWarnings, ...typed } = typedResultParts(outputs, storyboard);
  return {
    finalVideo: first?.kind === "video" ? mediaUrl(services, first.key) : null,
    thumbnail: first ? mediaUrl(services, first.thumbnailKey) : null,
    // A narrated ad's captions and voice-over follow the formats' assets.
    assets: [...own.assets, ...voiceAssets(outputs, (key) => mediaUrl(services, key))],
    ...(own.audit ? { audit: own.audit } : {}),
    ...(own.variants ? { variants: own.variants } : {}),
    ...(own.brandKit ? { brandKit: own.brandKit } : {}),
    ...typed,
    storyboard,
    ...(direction.creativeScore ? { creativeScore: direction.creativeScore } : {}),
    ...(direction.sources?.length ? { sources: direction.sources } : {}),
    warnings: [
      ...(page?.warnings ?? []),
      ...generation.warnings,
      ...typeWarnings,
      // A premium video without its alternate cut says why (once, however many formats).
      ...new Set(rendered.flatMap((r) => (r.variantWarning ? [r.variantWarning] : []))),
    ],
    models: generation.models,
    quality: request.quality ?? "standard",
  };
}
