// The prompt builder (SPEC 4.6, zero-token): the builders' field schemas, camera specs,
// cinematography styles and lexicon it publishes, and the structured prompt it builds and scores.
// Everything is deterministic text work; no model is called.
import { z } from "zod";

/** The three builders (CONTRACT: `<image_builder>`, `<video_builder_a>`, `<video_builder_b>`). */
export const PROMPT_BUILDERS = ["image", "video-cinematic", "video-ugc"] as const;
export type PromptBuilderId = (typeof PROMPT_BUILDERS)[number];

/** Provider families a prompt is formatted for; never a provider's name. */
export const PROMPT_FAMILIES = ["diffusion", "video", "natural"] as const;
export type PromptFamily = (typeof PROMPT_FAMILIES)[number];

/** Named cinematography styles, the keys of `cinematographyStyles`. */
export const CINEMATOGRAPHY_STYLE_IDS = [
  "cinematic",
  "film-noir",
  "teal-orange",
  "golden-hour",
  "documentary",
  "ugc-selfie",
  "studio-product",
  "minimalist",
  "neon-cyberpunk",
  "vintage-film",
] as const;
export type CinematographyStyleId = (typeof CINEMATOGRAPHY_STYLE_IDS)[number];

/** The scoring criteria of a built prompt; their maxima add up to 100. */
export const PROMPT_CRITERIA = ["subjectClarity", "specificity", "lighting", "camera", "styleCoherence", "negatives"] as const;
export type PromptCriterion = (typeof PROMPT_CRITERIA)[number];

export const PROMPT_TEXT_MAX = 500;
export const PROMPT_NEGATIVE_MAX_ITEMS = 20;

/** A z.object with one member of `value` per key (keys fixed in code, so GraphQL still gets a typed object). */
function keyedBy<const K extends readonly string[], S extends z.ZodType>(keys: K, value: S) {
  return z.object(Object.fromEntries(keys.map((key) => [key, value])) as { [P in K[number]]: S });
}

// Builder and style ids are hyphenated (`video-cinematic`, CONTRACT's names): they travel as strings, since a
// GraphQL enum would rename them (`video_cinematic`). Families and criteria are plain words.
const BuilderEnum = z.string().describe(`a builder: ${PROMPT_BUILDERS.join(", ")}`);
const FamilyEnum = z.enum(PROMPT_FAMILIES).meta({ title: "PromptFamily" });
const StyleEnum = z.string().describe(`a cinematography style id: ${CINEMATOGRAPHY_STYLE_IDS.join(", ")}`);
const CriterionEnum = z.enum(PROMPT_CRITERIA).meta({ title: "PromptCriterion" });

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(PROMPT_TEXT_MAX, { error: `${field} must be at most ${PROMPT_TEXT_MAX} characters` })
    .optional();

/** A string on every transport (so an unknown builder is a 400 naming the field, on GraphQL too), then the enum. */
export const PromptBuilderIdInput = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? `Choose a prompt builder: one of ${PROMPT_BUILDERS.join(", ")}`
        : "The prompt builder must be named by its id",
  })
  .pipe(z.enum(PROMPT_BUILDERS, { error: `The prompt builder must be one of ${PROMPT_BUILDERS.join(", ")}` }))
  .describe(`one of ${PROMPT_BUILDERS.join(", ")}`);

export const PromptParams = z
  .object(
    {
      subject: z
        .string({ error: (issue) => (issue.input === undefined ? "subject is required" : "subject must be a string") })
        .max(PROMPT_TEXT_MAX, { error: `subject must be at most ${PROMPT_TEXT_MAX} characters` })
        .refine((s) => s.trim().length > 0, { error: "subject is required" }),
      context: optionalText("context"),
      style: optionalText("style"),
      quality: optionalText("quality"),
      lighting: optionalText("lighting"),
      camera: optionalText("camera"),
      negative: z
        .array(
          z
            .string({ error: "negative must be a list of strings" })
            .max(PROMPT_TEXT_MAX, { error: `must be at most ${PROMPT_TEXT_MAX} characters` }),
          { error: "negative must be a list of strings" },
        )
        .max(PROMPT_NEGATIVE_MAX_ITEMS, { error: `negative must have at most ${PROMPT_NEGATIVE_MAX_ITEMS} items` })
        .optional(),
    },
    { error: (issue) => (issue.input === undefined ? "params is required (at least params.subject)" : "params must be an object") },
  )
  .meta({ title: "PromptParams" });
export type PromptParams = z.infer<typeof PromptParams>;

export const BuildPromptInput = z.object({ builder: PromptBuilderIdInput, params: PromptParams });
export type BuildPromptInput = z.infer<typeof BuildPromptInput>;

// ---------------------------------------------------------------------------------------------
// GET /prompt-builder: the schema
// ---------------------------------------------------------------------------------------------

export const PromptFieldName = z.enum(["subject", "context", "style", "quality", "lighting", "camera", "negative"]);

export const PromptFieldSpec = z
  .object({
    name: PromptFieldName,
    label: z.string(),
    type: z.enum(["string", "string[]"]),
    required: z.boolean(),
    maxLength: z.number().int().describe("characters per value"),
    maxItems: z.number().int().nullable().describe("for lists; null for a single string"),
    allowedValues: z.array(z.string()).describe("suggested values that score best; free text is accepted too (it is kept, but earns less)"),
    freeText: z.boolean(),
    placeholder: z.string(),
    description: z.string(),
  })
  .meta({ title: "PromptFieldSpec" });
export type PromptFieldSpec = z.infer<typeof PromptFieldSpec>;

export const PromptBuilderSpec = z
  .object({
    id: BuilderEnum,
    name: z.string(),
    description: z.string(),
    medium: z.enum(["image", "video"]),
    family: FamilyEnum.describe("the family `positive` is written for"),
    fields: z.array(PromptFieldSpec),
    defaultQuality: z.array(z.string()),
    defaultNegative: z.array(z.string()),
    recommendedStyles: z.array(StyleEnum),
  })
  .meta({ title: "PromptBuilderSpec" });
export type PromptBuilderSpec = z.infer<typeof PromptBuilderSpec>;

export const CameraLens = z
  .object({ id: z.string(), focalLengthMm: z.number().int(), label: z.string(), use: z.string() })
  .meta({ title: "CameraLens" });
export const CameraTerm = z.object({ id: z.string(), label: z.string(), description: z.string() }).meta({ title: "CameraTerm" });

export const CameraSpecs = z
  .object({
    lenses: z.array(CameraLens),
    shotSizes: z.array(CameraTerm),
    angles: z.array(CameraTerm),
    movements: z.array(CameraTerm).describe("for the video builders"),
  })
  .meta({ title: "CameraSpecs" });
export type CameraSpecs = z.infer<typeof CameraSpecs>;

export const CinematographyStyle = z
  .object({
    id: StyleEnum,
    name: z.string(),
    lighting: z.string(),
    palette: z.string(),
    camera: z.string(),
    mood: z.string(),
    keywords: z.array(z.string()),
    builders: z.array(BuilderEnum).describe("the builders this style suits"),
  })
  .meta({ title: "CinematographyStyle" });
export type CinematographyStyle = z.infer<typeof CinematographyStyle>;

export const LexiconFamily = z
  .object({
    quality: z.array(z.string()),
    lighting: z.array(z.string()),
    mood: z.array(z.string()),
    negative: z.array(z.string()),
  })
  .meta({ title: "PromptLexiconFamily" });
export type LexiconFamily = z.infer<typeof LexiconFamily>;

export const PromptCriterionSpec = z
  .object({ id: CriterionEnum, label: z.string(), max: z.number().int(), description: z.string() })
  .meta({ title: "PromptCriterionSpec" });

export const PromptSchema = z
  .object({
    version: z.string(),
    builders: z.array(BuilderEnum),
    families: z.array(FamilyEnum),
    schemas: keyedBy(PROMPT_BUILDERS, PromptBuilderSpec).meta({ title: "PromptBuilderSchemas" }),
    camera: CameraSpecs,
    cinematographyStyles: keyedBy(CINEMATOGRAPHY_STYLE_IDS, CinematographyStyle).meta({ title: "CinematographyStyles" }),
    lexicon: keyedBy(PROMPT_FAMILIES, LexiconFamily).meta({ title: "PromptLexicon" }),
    scoring: z.object({ max: z.number().int(), criteria: z.array(PromptCriterionSpec) }).meta({ title: "PromptScoring" }),
    limits: z.object({ textMaxLength: z.number().int(), negativeMaxItems: z.number().int() }).meta({ title: "PromptLimits" }),
  })
  .meta({ title: "PromptSchema" });
export type PromptSchema = z.infer<typeof PromptSchema>;

// ---------------------------------------------------------------------------------------------
// POST /prompt-builder: the built prompt
// ---------------------------------------------------------------------------------------------

export const PromptCameraParts = z
  .object({
    text: z.string().nullable().describe("the camera text as given, normalised"),
    lens: z.string().nullable(),
    shotSize: z.string().nullable(),
    angle: z.string().nullable(),
    movement: z.string().nullable(),
    recognised: z.boolean().describe("false when none of the words is a known lens, shot size, angle or movement"),
  })
  .meta({ title: "PromptCameraParts" });

export const PromptParts = z
  .object({
    subject: z.string(),
    context: z.string().nullable(),
    style: z.string().nullable().describe("the style as given, normalised"),
    styleId: StyleEnum.nullable().describe("the named style it matched, if any"),
    quality: z.array(z.string()),
    lighting: z.string().nullable(),
    camera: PromptCameraParts,
    negative: z.array(z.string()).describe("the negatives given, normalised and without duplicates"),
  })
  .meta({ title: "PromptParts" });
export type PromptParts = z.infer<typeof PromptParts>;

export const PromptScoreItem = z
  .object({ criterion: CriterionEnum, label: z.string(), points: z.number().int(), max: z.number().int(), note: z.string() })
  .meta({ title: "PromptScoreItem" });
export type PromptScoreItem = z.infer<typeof PromptScoreItem>;

export const BuiltPrompt = z
  .object({
    version: z.string(),
    builder: BuilderEnum,
    family: FamilyEnum.describe("the family `positive` is written for"),
    positive: z.string(),
    negative: z.string(),
    formatted: keyedBy(PROMPT_FAMILIES, z.string()).meta({ title: "PromptFormatted" }),
    parts: PromptParts,
    score: z.number().int().min(0).max(100),
    grade: z.enum(["weak", "fair", "good", "excellent"]),
    breakdown: z.array(PromptScoreItem),
    suggestions: z.array(z.string()),
  })
  .meta({ title: "BuiltPrompt" });
export type BuiltPrompt = z.infer<typeof BuiltPrompt>;
