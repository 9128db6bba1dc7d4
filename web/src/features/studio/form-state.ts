// The studio form's state and the launch request made from it. The state keeps every field while the
// user switches types; the request carries only the fields the chosen type uses (`studioFields`, from
// @adgen/schema), so a field the form hides is never sent.
import {
  type AspectRatio,
  defaultFormatsFor,
  LAUNCH_PROMPT_MODEL,
  type LaunchPromptKind,
  makesImagesOnly,
  type ModelKind,
  type QualityTier,
  type StudioFields,
  STUDIO_FIELDS,
  studioFields,
  type WorkflowRequestInput,
  type WorkflowType,
} from "@adgen/schema";
import type { SplitErrors } from "../../lib/errors.ts";
import { sortFormats } from "../../lib/workflow.ts";
import type { RouterOutputs } from "../../trpc.ts";
import { type BriefState, briefOf, briefStateOf, EMPTY_BRIEF } from "./brief-fields.tsx";

export type StudioConfig = RouterOutputs["public"]["studio"];
export type Pricing = RouterOutputs["public"]["pricing"];
export type Prefs = RouterOutputs["workflow"]["prefs"];
export type Brand = NonNullable<RouterOutputs["brand"]["get"]>;
export type Project = RouterOutputs["projects"]["list"][number];

/** Fields whose errors the form shows in place (the rest go to the form's alert): the type and every studio field. */
export const FORM_FIELDS = ["type", ...STUDIO_FIELDS] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FormErrors = SplitErrors<FormField>;
export const NO_ERRORS: FormErrors = { fields: {}, form: null };

export interface FormState {
  type: WorkflowType;
  url: string;
  concept: string;
  /** The brief by part, sent beside the concept (with it, when the type uses a concept). */
  brief: BriefState;
  /** ad-optimizer: the project to improve ("" = none). */
  project: string;
  formats: AspectRatio[];
  /** factory: images only, no video. */
  imagesOnly: boolean;
  quality: QualityTier;
  framework: string;
  seasonal: string;
  adPreset: string;
  hitl: boolean;
  /** Post the finished video to the connected social account (shown only when one is connected). */
  publish: boolean;
  brand: string;
  /** Model id per kind ("" = the instance's default). */
  models: Record<ModelKind, string>;
  /** Prompts for the generation models (sent only where the launch uses that model: prompt-fields.tsx). */
  prompts: Record<LaunchPromptKind, string>;
}

interface InitialInput {
  prefs: Prefs;
  studio: StudioConfig;
  brand: Brand | null;
  /** `?type=` and `?project=` of the studio's address (an "improve this ad" link). */
  queryType: string | null;
  queryProject: string | null;
  /** `?concept=` and `?direction=`: a prompt brought from the prompt builder (its subject and its prompt). */
  queryConcept?: string | null;
  queryDirection?: string | null;
  /** `?picturePrompt=` / `?clipPrompt=`: the prompt builder's prompt for a generation model (with a provider key). */
  queryPrompts?: Partial<Record<LaunchPromptKind, string | null>>;
  /** The stored launch request of a run being tried again (`?retry=<jobId>`): every setting comes back. */
  retry?: Record<string, unknown> | null;
  /** Types the account's plan leaves out are never preselected. */
  isReserved?: (type: string) => boolean;
}

export function initialState({
  prefs,
  studio,
  brand,
  queryType,
  queryProject,
  queryConcept,
  queryDirection,
  queryPrompts,
  retry,
  isReserved,
}: InitialInput): FormState {
  const known = (t: unknown): t is WorkflowType =>
    typeof t === "string" && studio.workflowTypes.some((w) => w.type === t) && !isReserved?.(t);
  const fallback = studio.workflowTypes.find((w) => known(w.type))?.type ?? "cinematic";
  const type: WorkflowType = [queryType, prefs.defaultType, "cinematic"].find(known) ?? fallback;
  // Saved formats apply to the type they were saved with; a factory run starts with every format.
  const formats = prefs.formats?.length && (!known(queryType) || queryType === prefs.defaultType) ? prefs.formats : defaultFormatsFor(type);
  const fresh: FormState = {
    type,
    url: "",
    concept: queryConcept ?? "",
    brief: queryDirection ? { ...EMPTY_BRIEF, direction: queryDirection } : EMPTY_BRIEF,
    project: type === "ad-optimizer" && queryProject ? queryProject : "",
    formats: sortFormats(formats),
    imagesOnly: false,
    quality: prefs.quality ?? "standard",
    framework: prefs.framework ?? "",
    seasonal: "",
    adPreset: prefs.adPreset ?? "",
    hitl: prefs.hitl ?? false,
    publish: false,
    brand: brand?.id ?? "",
    // A prompt for a generation model chooses that model (the prompt builder offers it only when the instance has it).
    models: {
      image: queryPrompts?.picture ? LAUNCH_PROMPT_MODEL.picture.model : "",
      video: queryPrompts?.clip ? LAUNCH_PROMPT_MODEL.clip.model : "",
      voice: "",
    },
    prompts: { picture: queryPrompts?.picture ?? "", clip: queryPrompts?.clip ?? "" },
  };
  return retry && known(retry.type) ? restoreRun(fresh, retry, retry.type) : fresh;
}

const text = (value: unknown, otherwise: string): string => (typeof value === "string" ? value : otherwise);

/** A failed run's launch request back in the form: each setting it had, the rest as `fresh` has them. */
function restoreRun(fresh: FormState, input: Record<string, unknown>, type: WorkflowType): FormState {
  const formats = Array.isArray(input.formats) ? input.formats.filter((f): f is AspectRatio => typeof f === "string") : [];
  const models = input.models && typeof input.models === "object" ? (input.models as Record<string, unknown>) : {};
  const prompts = input.prompts && typeof input.prompts === "object" ? (input.prompts as Record<string, unknown>) : {};
  return {
    type,
    url: text(input.url, ""),
    concept: text(input.concept, ""),
    brief: briefStateOf(input.brief),
    project: text(input.project, ""),
    formats: formats.length ? sortFormats(formats) : sortFormats(defaultFormatsFor(type)),
    imagesOnly: input.imagesOnly === true,
    quality: input.quality === "premium" ? "premium" : "standard",
    framework: text(input.framework, ""),
    seasonal: text(input.seasonal, ""),
    adPreset: text(input.adPreset, ""),
    hitl: input.hitl === true,
    publish: input.publish === true,
    brand: text(input.brand, fresh.brand),
    models: { image: text(models.image, ""), video: text(models.video, ""), voice: text(models.voice, "") },
    prompts: { picture: text(prompts.picture, ""), clip: text(prompts.clip, "") },
  };
}

/** The fields the state's type uses, as the form shows them. */
export function fieldsOf(state: FormState, brand: Brand | null): StudioFields {
  return studioFields(state.type, { imagesOnly: state.imagesOnly, brandHasWebsite: !!brand?.websiteUrl });
}

/** The launch request: only the fields the type uses, and only those given; prompts only for the models used (`promptKinds`). */
export function toRequest(state: FormState, uses: StudioFields, promptKinds: readonly LaunchPromptKind[] = []): WorkflowRequestInput {
  const url = state.url.trim();
  const prompts = Object.fromEntries(
    promptKinds.filter((kind) => state.prompts[kind].trim()).map((kind) => [kind, state.prompts[kind].trim()]),
  );
  const models = (["image", "video", "voice"] as const).filter((kind) => uses[`models.${kind}`] && state.models[kind]);
  return {
    type: state.type,
    ...(uses.url && url ? { url } : {}),
    ...(uses.concept && state.concept.trim() ? { concept: state.concept } : {}),
    ...(uses.concept && briefOf(state.brief) ? { brief: briefOf(state.brief) } : {}),
    ...(uses.project && state.project ? { project: state.project } : {}),
    ...(uses.brand && state.brand ? { brand: state.brand } : {}),
    formats: sortFormats(state.formats),
    ...(uses.imagesOnly && state.imagesOnly ? { imagesOnly: true } : {}),
    quality: state.quality,
    hitl: state.hitl,
    ...(state.publish && !makesImagesOnly(state.type, state.imagesOnly) ? { publish: true } : {}),
    ...(uses.framework && state.framework ? { framework: state.framework as NonNullable<WorkflowRequestInput["framework"]> } : {}),
    ...(uses.seasonal && state.seasonal ? { seasonal: state.seasonal as NonNullable<WorkflowRequestInput["seasonal"]> } : {}),
    ...(uses.adPreset && state.adPreset ? { adPreset: state.adPreset } : {}),
    ...(models.length ? { models: Object.fromEntries(models.map((kind) => [kind, state.models[kind]])) } : {}),
    ...(Object.keys(prompts).length ? { prompts } : {}),
  };
}

/** Element ids of each field, in the order the form shows them (the first with an error takes focus). */
export function fieldElementIds(uid: string): [FormField, string][] {
  return [
    ["url", `${uid}-url`],
    ["project", `${uid}-project`],
    ["concept", `${uid}-concept`],
    ["formats", `${uid}-formats`],
    ["imagesOnly", `${uid}-imagesOnly`],
    ["quality", `${uid}-quality`],
    ["framework", `${uid}-framework`],
    ["adPreset", `${uid}-preset`],
    ["seasonal", `${uid}-seasonal`],
    ["brand", `${uid}-brand`],
    ["models.image", `${uid}-model-image`],
    ["models.video", `${uid}-model-video`],
    ["models.voice", `${uid}-model-voice`],
  ];
}

export function focusFirstError(uid: string, fields: Partial<Record<FormField, string>>) {
  const first = fieldElementIds(uid).find(([field]) => fields[field]);
  if (!first) return;
  const el = document.getElementById(first[1]);
  const target = el?.matches("fieldset") ? el.querySelector("input") : el;
  (target as HTMLElement | null)?.focus();
}
