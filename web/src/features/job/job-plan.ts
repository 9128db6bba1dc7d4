// What a job will make and do, from what is known of it: the launch's input (the project's), else the
// assets made, else the steps seen so far, else the type's defaults.
import { defaultFormatsFor, plannedSteps, renderStepFormat, STEP, usesGeneratedClips } from "@adgen/schema";
import { requiresUrl, sortFormats, stepStates } from "../../lib/workflow.ts";
import type { RouterOutputs } from "../../trpc.ts";
import type { Job } from "../results/types.ts";

type Project = RouterOutputs["projects"]["list"][number];

interface ProjectInput {
  url?: string;
  formats?: string[];
  hitl?: boolean;
  concept?: string;
}

export function parseInput(project: Project | undefined): ProjectInput | null {
  if (!project) return null;
  try {
    const value = JSON.parse(project.input_data) as unknown;
    return value && typeof value === "object" ? (value as ProjectInput) : null;
  } catch {
    return null;
  }
}

export function jobPlan(data: Job, input: ProjectInput | null, seenSteps: readonly string[], completedSteps: ReadonlySet<string>) {
  // Rendered formats only (not a report, captions or a voice-over).
  const assetFormats = data.result?.assets.filter((a) => a.type === "video" || a.type === "image").map((a) => a.format) ?? [];
  const seenFormats = seenSteps.map(renderStepFormat).filter((f): f is string => f !== null);
  // In render order, as the server runs them; shown sorted.
  const renderOrder: readonly string[] = input?.formats?.length
    ? input.formats
    : assetFormats.length
      ? assetFormats
      : seenFormats.length
        ? seenFormats
        : defaultFormatsFor(data.type);
  const formats = sortFormats(renderOrder);
  const hasUrl = input ? !!input.url : seenSteps.includes(STEP.readPage) || data.step === STEP.readPage || requiresUrl(data.type);
  const clips = input ? usesGeneratedClips({ ...input, type: data.type }) : seenSteps.includes(STEP.clips) || data.step === STEP.clips;
  const steps = stepStates(plannedSteps({ hasUrl, hitl: data.hitl, formats: renderOrder, type: data.type, clips }), data, completedSteps);

  return { formats, steps };
}
