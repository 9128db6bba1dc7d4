// Art direction: the brief, the brand, the page and the knowledge base become a storyboard with its
// pictures (the user's, generated ones, the page's) and look; a reviewed job also gets one still per scene.
import { join } from "node:path";
import { STEP } from "@adgen/schema";
import { jobMediaKey } from "../../../media/storage.ts";
import { loadBrandForJob } from "../../brand/brand-profile.ts";
import type { ArtDirectionOutput, PageFacts, PipelineStep } from "./step-types.ts";
import { directWithWriter } from "./typed-direction.ts";
import { gatherImagery, withLocalImages } from "./imagery.ts";
import { generatePictures } from "./generated-pictures.ts";
import { choosePictures, GENERATED_PICTURES } from "../../providers/remote-providers.ts";
import { applyLook, presetFor } from "./look.ts";
import { listBrandMedia } from "../../brand/brand-media.ts";
import { libraryForJob, usesAccountKnowledge } from "./brand-library.ts";
import { knowledgeForBrief } from "../../knowledge/retrieve.ts";
import { scoreStoryboard } from "./creative-score.ts";
import { sourcesShown } from "./facts.ts";
import { resolveGeneration } from "../launch/check-options.ts";

export const artDirection: PipelineStep = {
  name: STEP.artDirection,
  weight: 15,
  async run({ services, job, request, outputs, signal, progress }) {
    const brand = await loadBrandForJob(services.prisma, job.userId, request.brand);
    const page = (outputs.get(STEP.readPage) as PageFacts | undefined) ?? null;
    // The knowledge base's passages that best match the brief: their facts may become lines of the ad.
    const knowledge = usesAccountKnowledge(request)
      ? await knowledgeForBrief(services.prisma, job.userId, { concept: request.concept, brand })
      : { sources: [], claims: [] };
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
        library: libraryForJob(request, await listBrandMedia(services.prisma, job.userId)),
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
      // Only the passages whose facts the viewer sees or hears.
      sources: sourcesShown(knowledge.sources, knowledge.claims, direction.storyboard, request.type),
      presenter: imagery.presenter ?? null,
    } satisfies ArtDirectionOutput;
  },
};
