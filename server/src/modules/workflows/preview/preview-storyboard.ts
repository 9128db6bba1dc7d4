// POST /workflow/preview: what a launch would make, before paying. The launch's own checks and price
// (estimateWorkflow: a launch refused for the plan, the brand or the options is refused here too), then the
// pipeline's own steps up to the art direction (the page read, the copy, the pictures, the look), run for a
// job that does not exist, then one still per scene drawn by the renderer. Nothing is charged and no job is
// made. The outputs are kept (preview-store.ts) under a new previewId; previewing again with that id and the
// user's edits changes only those lines and pictures, and a launch naming it renders that storyboard.
import type { Job } from "@adgen/prisma";
import { formatsFor, type PreviewRequest, STEP, type StoryboardPreview, type WorkflowRequest } from "@adgen/schema";
import { AppError } from "../../../errors.ts";
import type { Services } from "../../../request-context.ts";
import { estimateWorkflow, type LaunchAccount } from "../launch/launch-workflow.ts";
import { scoreStoryboard } from "../pipeline/creative-score.ts";
import { PermanentJobError } from "../pipeline/job-errors.ts";
import type { ArtDirectionOutput } from "../pipeline/step-types.ts";
import { pipelineFor } from "../pipeline/steps.ts";
import { applySceneEdits } from "./scene-edits.ts";
import { applyScenePictures } from "./scene-pictures.ts";
import { keepPreviewMediaUnder, newPreviewId } from "./preview-media.ts";
import { drawStills } from "./preview-stills.ts";
import { assertSameAd, loadPreview, storePreview } from "./preview-store.ts";

/** How long the steps before the stills may take (a page that does not answer is given up on). */
const DIRECTION_TIMEOUT_MS = 20_000;

export async function previewStoryboard(services: Services, account: LaunchAccount, input: PreviewRequest): Promise<StoryboardPreview> {
  const started = performance.now();
  const { previewId: from, edits, ...request } = input;
  if (edits?.length && !from) {
    throw new AppError("BAD_REQUEST", "Edits change a preview: send them with the previewId of the preview they change", {
      fields: [{ field: "previewId", message: "Edits need the previewId of the preview they change" }],
    });
  }
  // The launch's own admission and price: what is refused there is refused here, before any work.
  const price = await estimateWorkflow(services, account, request);
  const formats = formatsFor(request);
  const previewId = newPreviewId();
  let steps: Record<string, unknown>;
  if (from) {
    const stored = await loadPreview(services, account.id, from);
    assertSameAd(stored, request.type, formats);
    // The earlier preview's pictures are copied under this one: each preview owns its media (preview-media.ts).
    steps = await keepPreviewMediaUnder(services, structuredClone(stored.steps), previewId);
  } else {
    steps = await directForPreview(services, account, { ...request, formats }, previewId);
  }
  const direction = steps[STEP.artDirection] as ArtDirectionOutput;
  if (edits?.length) {
    direction.storyboard = applySceneEdits(direction.storyboard, edits);
    direction.storyboard = await applyScenePictures(services, account.id, previewId, direction.storyboard, edits);
  }
  direction.creativeScore = scoreStoryboard(direction.storyboard, direction.formats, direction.storyboard.brand.name);
  const format = formats[0] ?? "9:16";
  const stills = await drawStills(services, direction.storyboard, format);
  await storePreview(services, { previewId, userId: account.id, type: request.type, formats, steps, createdAt: new Date().toISOString() });
  return {
    previewId,
    type: request.type,
    format,
    storyboard: direction.storyboard as StoryboardPreview["storyboard"],
    stills,
    creativeScore: direction.creativeScore,
    price,
    tookMs: Math.round(performance.now() - started),
  };
}

/** The pipeline's steps up to the art direction, for a job that is not made (its id is the preview's). */
async function directForPreview(services: Services, account: LaunchAccount, request: WorkflowRequest, previewId: string) {
  const job = {
    id: previewId,
    userId: account.id,
    type: request.type,
    quality: request.quality,
    input: request,
    hitl: false,
    status: "processing",
    attempts: 0,
  } as unknown as Job;
  const all = pipelineFor(request);
  const upTo = all.slice(0, all.findIndex((step) => step.name === STEP.artDirection) + 1);
  const outputs = new Map<string, unknown>();
  const signal = AbortSignal.timeout(DIRECTION_TIMEOUT_MS);
  try {
    for (const step of upTo) outputs.set(step.name, await step.run({ services, job, request, outputs, signal, progress: () => {} }));
  } catch (error) {
    // What would fail the job (a page that cannot be read) is the preview's 400, in the same words.
    if (error instanceof PermanentJobError) throw new AppError("BAD_REQUEST", error.message);
    throw error;
  }
  return Object.fromEntries(outputs) as Record<string, unknown>;
}
