// The pipeline: a list of named steps. Each finished step's output is stored (job_steps), so a job
// retried after a crash resumes after its last finished step instead of starting over. The steps live in
// files of their own: reading the page, art direction, rendering a format, and each type's own steps.
import { type AspectRatio, formatsFor, pipelineSteps, type WorkflowRequest, usesGeneratedClips } from "@adgen/schema";
import type { PipelineStep } from "./step-types.ts";
import { factoryRenderStep } from "./types/factory.ts";
import { referenceAnalysisStep } from "./types/clone.ts";
import { voiceStep } from "./voice-step.ts";
import { clipStep } from "./clip-step.ts";
import { staticAdStep } from "./types/staticad.ts";
import { TYPE_STEPS } from "./types/type-result.ts";
import { readPage } from "./read-page-step.ts";
import { artDirection } from "./art-direction-step.ts";
import { renderStep } from "./render-step.ts";

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
