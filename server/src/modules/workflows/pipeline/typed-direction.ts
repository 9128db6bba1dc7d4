// Art direction by workflow type, and what it adds to the result:
//   cinematic:    the directed ad with a shot list; each scene carries its shot's camera move (result.shotList);
//   clone:        the reference's structure written from the user's copy (result.analysis);
//   ad-optimizer: the source project's storyboard, improved (result.optimization);
//   other types:  the directed ad as is.
// Every type also says how each sentence of the brief was read (result.briefReading); the cinematic shot
// list takes the camera moves its direction sentences ask for, and its tone sets the music's mood.
import { type BriefReading, type ReferenceAnalysis, STEP, type WorkflowResult } from "@adgen/schema";
import { AppError } from "../../../errors.ts";
import type { Storyboard } from "../../render/types.ts";
import { findSourceProject } from "../../projects/source-project.ts";
import { type ArtDirectionInput, directAd } from "./art-direction.ts";
import { moodOfTone, readBrief } from "./brief-reading.ts";
import { optimizeAd } from "./optimize.ts";
import { directClone } from "./types/clone.ts";
import { writeWithModel } from "./model-writer.ts";
import { PermanentJobError } from "./job-errors.ts";
import { remarkScenes } from "./scene-marks.ts";
import { planShots, shotsFor } from "./shot-list.ts";
import type { ArtDirection, StepContext, TypedDirection } from "./step-types.ts";

/** The type's direction, its words rewritten by the language model when one is configured (not the optimizer's). */
export async function directWithWriter(
  context: Pick<StepContext, "services" | "job" | "request" | "outputs" | "signal">,
  input: ArtDirectionInput,
): Promise<TypedDirection> {
  const model = context.services.languageModel;
  if (!model || context.request.type === "ad-optimizer") return directForType(context, input);
  // The model writes before the cinematic shot list is planned, so each shot's prompt says the final words.
  return directForType(context, input, async <D extends ArtDirection>(direction: D) => {
    const written = await writeWithModel(model, input, direction, context.signal);
    // A provider failure is the operator's to see, with the job it hit.
    if (written.warning) context.services.logger.warn({ jobId: context.job.id, warning: written.warning }, "language model copy not used");
    return { ...written.direction, ...(written.warning ? { writerWarning: written.warning } : {}) };
  });
}

/** The art direction of the job's type (see the header). */
export async function directForType(
  context: Pick<StepContext, "services" | "job" | "request" | "outputs">,
  input: ArtDirectionInput,
  write: <D extends ArtDirection>(direction: D) => Promise<D & { writerWarning?: string }> = async (direction) => direction,
): Promise<TypedDirection> {
  const briefReading = readBrief(context.request.concept, context.request.brief);
  const typed = await directTyped(context, input, write, briefReading);
  // Whoever wrote the last words (the language model, the optimizer), each scene keeps a role and a key word
  // that is in its headline.
  const direction = {
    ...typed,
    storyboard: { ...typed.storyboard, scenes: remarkScenes(typed.storyboard.scenes, [typed.storyboard.brand.name]) },
  };
  // The brief's tone sets the music's mood, unless the user chose a style (whose mood it is).
  const mood = context.request.adPreset ? null : moodOfTone(briefReading);
  return { ...direction, ...(mood ? { storyboard: { ...direction.storyboard, mood } } : {}), briefReading };
}

async function directTyped(
  { services, job, request, outputs }: Pick<StepContext, "services" | "job" | "request" | "outputs">,
  input: ArtDirectionInput,
  write: <D extends ArtDirection>(direction: D) => Promise<D & { writerWarning?: string }>,
  reading: BriefReading,
): Promise<TypedDirection> {
  switch (request.type) {
    case "cinematic": {
      const direction = await write(directAd(input));
      const notes = reading.filter((read) => read.kind === "direction").map((read) => read.sentence);
      const { shots, storyboard } = planShots(direction.storyboard, request, notes);
      return { ...direction, storyboard, shotList: shots };
    }
    case "clone": {
      const analysis = outputs.get(STEP.referenceAnalysis) as ReferenceAnalysis;
      return write(directClone(input, analysis));
    }
    case "ad-optimizer": {
      // Checked at launch; a project deleted or changed since then fails the job (and refunds it).
      const source = await findSourceProject(services.prisma, job.userId, request.project).catch((error: unknown) => {
        throw error instanceof AppError ? new PermanentJobError(`The project to optimise: ${error.message}`) : error;
      });
      return optimizeAd({ source, request, brand: input.brand, maxAdSeconds: input.maxAdSeconds });
    }
    default:
      return write(directAd(input));
  }
}

export type TypedResultParts = Pick<WorkflowResult, "shotList" | "analysis" | "optimization" | "briefReading"> & { warnings: string[] };

/** The result parts of the type's art direction, for the storyboard that was rendered. */
export function typedResultParts(outputs: Map<string, unknown>, rendered: Storyboard): TypedResultParts {
  const direction = outputs.get(STEP.artDirection) as TypedDirection | undefined;
  const analysis = outputs.get(STEP.referenceAnalysis) as ReferenceAnalysis | undefined;
  return {
    ...(direction?.shotList ? { shotList: shotsFor(rendered, direction.shotList) } : {}),
    ...(analysis ? { analysis } : {}),
    ...(direction?.briefReading?.length ? { briefReading: direction.briefReading } : {}),
    // A review may have edited the improved ad: its score is the one rendered.
    ...(direction?.optimization ? { optimization: { ...direction.optimization, scoreAfter: direction.creativeScore.score } } : {}),
    warnings: [direction?.structureWarning, direction?.writerWarning].filter((w): w is string => Boolean(w)),
  };
}
