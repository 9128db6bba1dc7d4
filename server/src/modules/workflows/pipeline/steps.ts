// The pipeline: a list of named steps. Each finished step's output is stored (job_steps), so a job
// retried after a crash resumes after its last finished step instead of starting over.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  type AspectRatio,
  FORMATS,
  formatsFor,
  type OutputAsset,
  pipelineSteps,
  type QualityTier,
  renderStepName,
  STEP,
  type WorkflowRequest,
  type WorkflowResult,
  usesGeneratedClips,
} from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import { loadBrandForJob } from "../../brand/brand-profile.ts";
import { readPageMeta } from "../../net/page-meta.ts";
import type { Storyboard } from "../../render/types.ts";
import type { ArtDirectionOutput, PageFacts, PipelineStep, RenderedFormat } from "./step-types.ts";
import { mediaUrl } from "./step-types.ts";
import { factoryRenderStep } from "./types/factory.ts";
import { ALTERNATE_CUT_ID, planAlternateCut, renderCut } from "./premium-variant.ts";
import { referenceAnalysisStep, wantsPageOutline } from "./types/clone.ts";
import { directWithWriter, typedResultParts } from "./typed-direction.ts";
import { narrationFor, voiceAssets, voicedStoryboard, voiceStep } from "./voice-step.ts";
import { gatherImagery, withLocalImages } from "./imagery.ts";
import { clipStep, withGeneratedClips } from "./clip-step.ts";
import { generatePictures } from "./generated-pictures.ts";
import { choosePictures, GENERATED_PICTURES } from "../../providers/remote-providers.ts";
import { applyLook, presetFor } from "./look.ts";
import { listBrandMedia } from "../../brand/brand-media.ts";
import { knowledgeForBrief } from "../../knowledge/retrieve.ts";
import { assertPageRead } from "./page-read.ts";
import { scoreStoryboard } from "./creative-score.ts";
import { pageUrlFor, staticAdStep, TYPE_STEPS, typeResult, wantsPageSignals } from "./types/staticad.ts";
import { modelsFor, resolveGeneration } from "../launch/check-options.ts";

const PLATFORM: Record<AspectRatio, string> = { "16:9": "youtube", "9:16": "tiktok", "1:1": "instagram", "4:5": "instagram" };

const readPage: PipelineStep = {
  name: STEP.readPage,
  weight: 10,
  async run({ services, job, request }) {
    const url = await pageUrlFor(services, job, request);
    const meta = await readPageMeta(url, {
      resolver: services.resolver,
      timeoutMs: 10_000,
      signals: wantsPageSignals(request),
      outline: wantsPageOutline(request),
    });
    const facts: PageFacts = {
      url,
      title: meta.title,
      description: meta.description,
      images: meta.images,
      colors: meta.colors,
      warnings: meta.warnings,
      ...(meta.signals ? { signals: meta.signals } : {}),
      ...(meta.outline ? { outline: meta.outline } : {}),
    };
    assertPageRead(facts, request);
    return facts;
  },
};

const artDirection: PipelineStep = {
  name: STEP.artDirection,
  weight: 15,
  async run({ services, job, request, outputs, signal, progress }) {
    const brand = await loadBrandForJob(services.prisma, job.userId, request.brand);
    const page = (outputs.get(STEP.readPage) as PageFacts | undefined) ?? null;
    // The knowledge base's passages that best match the brief: their facts may become lines of the ad.
    const knowledge = await knowledgeForBrief(services.prisma, job.userId, { concept: request.concept, brand });
    const direction = await directWithWriter(
      { services, job, request, outputs, signal },
      { request, brand, page, maxAdSeconds: services.config.maxAdSeconds, knowledge: knowledge.claims },
    );
    // Pictures (the user's library, the page's images), the logo, and the preset's motion, type and music.
    const imagery = await gatherImagery(
      services,
      job,
      {
        // A clone's page is someone else's ad: its pictures are not the user's to show.
        pageImages: request.type === "clone" ? [] : (page?.images ?? []),
        logoUrl: brand?.logoUrl ?? brand?.brandKit?.logoUrl ?? null,
        library: await listBrandMedia(services.prisma, job.userId),
      },
      signal,
    );
    const resolved = await resolveGeneration(services, job, request);
    // A generated picture per scene, after the user's own photos and before the page's.
    const generator =
      resolved.models.image === GENERATED_PICTURES
        ? choosePictures(services.providers, request.models?.image, resolved.preference ?? "auto")
        : null;
    if (generator) {
      const generated = await generatePictures(
        services,
        job,
        generator,
        {
          storyboard: direction.storyboard,
          aspect: direction.formats[0] ?? "9:16",
          preset: presetFor(request),
          ...(direction.shotList ? { shotPrompts: direction.shotList.map((shot) => shot.prompt) } : {}),
          ...(request.prompts?.picture ? { launchPrompt: request.prompts.picture } : {}),
        },
        signal,
      );
      const library = imagery.pictures.filter((p) => p.source === "library");
      const others = imagery.pictures.filter((p) => p.source !== "library");
      imagery.pictures = [...library, ...generated, ...others];
    }
    direction.storyboard = applyLook(direction.storyboard, presetFor(request), imagery);
    // Scored on the storyboard as it will be laid out, with its look (text motion, pictures, colours).
    direction.creativeScore = scoreStoryboard(direction.storyboard, direction.formats, direction.storyboard.brand.name);
    const previews: ArtDirectionOutput["previews"] = [];
    if (job.hitl) {
      // One still per scene, as the first format will show it, for the reviewer.
      const dir = await services.media.scratchDir(`${job.id}/previews`);
      const format = direction.formats[0] ?? "9:16";
      for (const [i, scene] of direction.storyboard.scenes.entries()) {
        const file = join(dir, `preview-${i + 1}.png`);
        await services.renderer.previewFrame(await withLocalImages(services, direction.storyboard), i, format, file);
        const key = jobMediaKey(job.id, `preview-${i + 1}.png`);
        await services.media.put(key, file);
        previews.push({ sceneId: scene.id, key });
        progress((i + 1) / direction.storyboard.scenes.length);
      }
    }
    // A picture that could not be used is said in the result, with the other notes on how the ad was made.
    const generation = { ...resolved, warnings: [...resolved.warnings, ...imagery.warnings] };
    // The person who fronts a narrated ad goes to the voice step's persona.
    return {
      ...direction,
      previews,
      generation,
      sources: knowledge.sources,
      presenter: imagery.presenter ?? null,
    } satisfies ArtDirectionOutput;
  },
};

function renderStep(format: AspectRatio, imagesOnly: boolean, quality: QualityTier): PipelineStep {
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
        const plan = quality === "premium" ? planAlternateCut(storyboard, voiced.storyboard !== undefined) : null;
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

/** The steps of a job, as `pipelineSteps` (schema) orders them: read the page (with a url), direct, one render per format. */
export function pipelineFor(request: WorkflowRequest): PipelineStep[] {
  const formats = formatsFor(request);
  const imagesOnly = request.imagesOnly || request.type === "staticad";
  const quality = request.quality ?? "standard";
  // A static ad draws its own still variants per format.
  // A factory renders several hook variants per format.
  const render = (f: AspectRatio) =>
    request.type === "staticad"
      ? staticAdStep(f)
      : request.type === "factory"
        ? factoryRenderStep(f, imagesOnly, quality)
        : renderStep(f, imagesOnly, quality);
  const byName = new Map(
    [readPage, ...TYPE_STEPS, referenceAnalysisStep, artDirection, voiceStep, clipStep, ...formats.map(render)].map((step) => [
      step.name,
      step,
    ]),
  );
  return pipelineSteps({ hasUrl: !!request.url, formats, type: request.type, clips: usesGeneratedClips(request) }).map(
    (name) => byName.get(name)!,
  );
}

/** The job's result from its finished steps. */
export function buildResult(services: Services, request: WorkflowRequest, outputs: Map<string, unknown>): WorkflowResult {
  const formats = formatsFor(request);
  const rendered = formats.map((f) => outputs.get(renderStepName(f)) as RenderedFormat);
  const assets: OutputAsset[] = rendered.map((r) => ({
    url: mediaUrl(services, r.key),
    type: r.kind,
    format: r.format,
    duration: r.durationSec,
    platform: PLATFORM[r.format],
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
        platform: PLATFORM[r.format],
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
