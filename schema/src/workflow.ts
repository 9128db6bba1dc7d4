// Workflow launch (SPEC 2.2, 2.3), job progress, review, projects (2.6) and preferences.
import { z } from "zod";
import { AD_PRESETS, WORKFLOWS } from "./catalog.ts";
import { CreativeScore } from "./creative.ts";
import { IsoDateTime, webAddress as httpUrl } from "./common.ts";
import { StoryboardView } from "./storyboard.ts";
import { Publication } from "./social.ts";
import { BrandKit, FactoryVariant, KnowledgeSource, Optimization, ReferenceAnalysis, Shot } from "./type-results.ts";
import { ASPECT_RATIOS, AspectRatio, Framework, JobStatus, QualityTier, Seasonal, WORKFLOW_TYPES, WorkflowType } from "./enums.ts";

const COMMA_FORMATS = ["9:16", "1:1", "16:9"] as const;
const PRESET_IDS = AD_PRESETS.map((p) => p.id) as [string, ...string[]];

/** `formats`: an array of ratios, or a comma-separated string of 9:16, 1:1, 16:9 (4:5 only in the array form). */
export const FormatsInput = z
  .union([z.array(z.string()), z.string()], { error: "Formats must be a list of ratios, or ratios separated by commas" })
  .transform((value, ctx) => {
    const fromString = typeof value === "string";
    const items = (fromString ? value.split(",") : value).map((s) => s.trim()).filter(Boolean);
    const allowed: readonly string[] = fromString ? COMMA_FORMATS : ASPECT_RATIOS;
    const bad = items.filter((f) => !allowed.includes(f));
    if (bad.length) {
      ctx.addIssue({
        code: "custom",
        message: fromString
          ? `${bad.join(", ")} is not a format we make this way: separated by commas the formats are ${COMMA_FORMATS.join(", ")} (give a list to get 4:5)`
          : `${bad.join(", ")} is not a format we make: choose from ${ASPECT_RATIOS.join(", ")}`,
      });
      return z.NEVER;
    }
    if (items.length === 0) {
      ctx.addIssue({ code: "custom", message: "Choose at least one format" });
      return z.NEVER;
    }
    return [...new Set(items)] as AspectRatio[];
  });

/** A workflow type's name as the pricing table and the studio show it ("Brand Clone"). */
export function workflowName(type: WorkflowType): string {
  return WORKFLOWS.find((w) => w.type === type)?.name ?? type;
}

/** What a type that reads a page (clone, factory) says when no page is given, on the server and in the studio. */
export function needsPageMessage(type: WorkflowType): string {
  return `The ${workflowName(type)} workflow needs a web page to work from: give its address`;
}

/** Lengths a launch accepts, for the SPA's forms and links as for the server's check. */
export const LAUNCH_TEXT_MAX = { concept: 2000, direction: 1000, prompt: 2000 } as const;

const briefLine = (field: string, max: number) =>
  z
    .string({ error: `The brief's ${field} must be text` })
    .trim()
    .max(max, { error: `The brief's ${field} must be at most ${max} characters` });

/**
 * Beside `concept`: the brief by part. Each is read as its kind: hook, benefits, proof and offer are lines
 * the ad may say, cta is its call to action (word for word), direction is for the crew and never on screen.
 */
export const StructuredBrief = z
  .strictObject(
    {
      hook: briefLine("hook", 200).optional(),
      benefits: z
        .array(briefLine("benefits", 200), { error: "The brief's benefits must be a list of lines" })
        .max(8, { error: "The brief holds at most 8 benefits" })
        .optional(),
      proof: briefLine("proof", 300).optional(),
      offer: briefLine("offer", 200).optional(),
      cta: briefLine("call to action", 60).optional(),
      direction: briefLine("direction notes", LAUNCH_TEXT_MAX.direction).optional(),
    },
    { error: "The brief must be an object with hook, benefits, proof, offer, cta or direction" },
  )
  .meta({ title: "StructuredBrief" });
export type StructuredBrief = z.infer<typeof StructuredBrief>;

/** How one sentence of the brief was read: only copy, tagline and cta may reach the screen or the narration. */
export const BriefSentenceKind = z.enum(["copy", "direction", "tone", "tagline", "cta"]);
export type BriefSentenceKind = z.infer<typeof BriefSentenceKind>;
export const BriefReading = z
  .array(
    z.object({
      sentence: z.string(),
      kind: BriefSentenceKind,
      /** Where it was written: the free concept, or a field of the structured brief. */
      from: z.enum(["concept", "hook", "benefits", "proof", "offer", "cta", "direction"]),
    }),
  )
  .meta({ title: "BriefReading" });
export type BriefReading = z.infer<typeof BriefReading>;

const promptLine = (what: string) =>
  z
    .string({ error: `The ${what} must be text` })
    .trim()
    .min(1, { error: `The ${what} is empty: write it, or leave it out` })
    .max(LAUNCH_TEXT_MAX.prompt, { error: `The ${what} must be at most ${LAUNCH_TEXT_MAX.prompt} characters` });

/**
 * Prompts written for the generation models themselves (the prompt builder's, or the caller's own): `picture`
 * is what each generated picture is drawn from (models.image generated-pictures), `clip` what each generated
 * clip's motion follows (models.video generated-video). Only where this instance has a provider for them.
 */
export const LaunchPrompts = z
  .strictObject(
    { picture: promptLine("picture prompt").optional(), clip: promptLine("clip prompt").optional() },
    { error: "Prompts must be an object with picture or clip" },
  )
  .meta({ title: "LaunchPrompts" });
export type LaunchPrompts = z.infer<typeof LaunchPrompts>;
/** The model each prompt feeds: a launch whose models do not include it is refused (the server's rule, the SPA's offer). */
export const LAUNCH_PROMPT_MODEL = {
  picture: { kind: "image", model: "generated-pictures" },
  clip: { kind: "video", model: "generated-video" },
} as const;
export type LaunchPromptKind = keyof typeof LAUNCH_PROMPT_MODEL;

/** A free preview's id (POST /workflow/preview): what a launch names to render the storyboard it showed. */
export const PreviewId = z
  .string({ error: "previewId must be the id a preview answered" })
  .regex(/^[0-9a-f-]{36}$/, { error: "previewId must be the id a preview answered" });

/**
 * The launch's `brand` for "no brand profile": the ad is made from the page and the concept alone, with none
 * of the default brand's name, pictures or logo (a launch that leaves `brand` out gets the default brand).
 */
export const NO_BRAND = "none";

export const WorkflowRequest = z
  .object({
    type: z.enum(WORKFLOW_TYPES, { error: `Choose a workflow type: one of ${WORKFLOW_TYPES.join(", ")}` }),
    url: httpUrl("The page address").optional(),
    concept: z
      .string({ error: "The concept must be text" })
      .max(LAUNCH_TEXT_MAX.concept, { error: `The concept must be at most ${LAUNCH_TEXT_MAX.concept} characters` })
      .optional(),
    brief: StructuredBrief.optional(),
    /** Beyond SPEC: prompts for the generation models (picture, clip), where a provider key configures them. */
    prompts: LaunchPrompts.optional(),
    /** A brand id; NO_BRAND ("none") makes the ad from the page and the concept alone; absent: the default brand. */
    brand: z.string({ error: "Name the brand by its id (see your brands), or none for no brand profile" }).min(1).max(100).optional(),
    models: z
      .object(
        {
          image: z.string({ error: "The image model must be named by its id" }).max(100).optional(),
          video: z.string({ error: "The video model must be named by its id" }).max(100).optional(),
          voice: z.string({ error: "The voice must be named by its id" }).max(100).optional(),
        },
        { error: "Models must name an image, video or voice model by id" },
      )
      .optional(),
    formats: FormatsInput.optional(),
    quality: z.enum(["standard", "premium"], { error: "Quality must be standard or premium" }).default("standard"),
    async: z.boolean({ error: "Running in the background (async) must be true or false" }).default(true),
    hitl: z.boolean({ error: "Review before rendering (hitl) must be true or false" }).default(false),
    framework: z.enum(Framework.options, { error: `The copywriting framework must be one of ${Framework.options.join(", ")}` }).optional(),
    seasonal: z.enum(Seasonal.options, { error: `The seasonal theme must be one of ${Seasonal.options.join(", ")}` }).optional(),
    adPreset: z.enum(PRESET_IDS, { error: `The ad style must be one of ${PRESET_IDS.join(", ")}` }).optional(),
    imagesOnly: z.boolean({ error: "Images only must be true or false" }).default(false),
    publish: z.boolean({ error: "Publishing must be true or false" }).default(false),
    /** Beyond SPEC: an https URL that receives this job's events (Standard Webhooks signatures). */
    callbackUrl: httpUrl("The callback address").optional(),
    /** ad-optimizer only: the project (job id) to improve; one of the caller's own completed projects. */
    project: z
      .string({ error: "Name the project to improve by its id" })
      .trim()
      .min(1, { error: "Name the project to improve by its id" })
      .max(100)
      .optional(),
    /**
     * Beyond SPEC: a free preview of this launch (POST /workflow/preview). The launch renders the storyboard
     * that preview showed (same type and formats); the preview itself starts from it, with `edits`.
     */
    previewId: PreviewId.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.type === "clone" || value.type === "factory") && !value.url) {
      ctx.addIssue({ code: "custom", path: ["url"], message: needsPageMessage(value.type) });
    }
    if (value.project !== undefined && value.type !== "ad-optimizer") {
      ctx.addIssue({
        code: "custom",
        path: ["project"],
        message: "Only the ad optimizer improves an existing project: leave the project out for other types",
      });
    }
  })
  .meta({ title: "WorkflowRequest" });
export type WorkflowRequestInput = z.input<typeof WorkflowRequest>;
export type WorkflowRequest = z.output<typeof WorkflowRequest>;

export const OutputAsset = z
  .object({
    url: z.string(),
    /**
     * `document`: a report file (local audit: the PDF, `format` "pdf"). `captions`: the voice-over's
     * captions (`format` "vtt", WebVTT); `audio`: the voice-over itself (`format` "wav").
     */
    type: z.enum(["video", "image", "audio", "document", "captions"]),
    /** The aspect ratio; for a document its file format ("pdf"). */
    format: z.string(),
    duration: z.number(),
    platform: z.string(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    thumbnail: z.string().optional(),
    /** Static ads: which of a format's variants this is ("A", "B", …), its headline and its layout. */
    variant: z.string().optional(),
    headline: z.string().optional(),
    layout: z.string().optional(),
  })
  .meta({ title: "OutputAsset" });
export type OutputAsset = z.infer<typeof OutputAsset>;

/** The five things a local audit scores, in report order. */
export const AUDIT_CRITERIA = ["offer_clarity", "mobile_cta", "contact_details", "trust_signals", "landing_speed"] as const;
export const AuditCriterionId = z.enum(AUDIT_CRITERIA).meta({ title: "AuditCriterionId" });
export type AuditCriterionId = z.infer<typeof AuditCriterionId>;

export const AuditCriterion = z
  .object({
    id: AuditCriterionId,
    name: z.string(),
    /** 0 (missing) to 100 (ready for ads). */
    score: z.number().int().min(0).max(100),
    /** How much this criterion counts in the overall score (the weights sum to 100). */
    weight: z.number().int(),
    /** What the page has and lacks, one line each. */
    findings: z.array(z.string()),
    /** The most useful change, in one sentence. */
    recommendation: z.string(),
  })
  .meta({ title: "AuditCriterion" });
export type AuditCriterion = z.infer<typeof AuditCriterion>;

/** A local audit's scored report (the same content as its PDF). */
export const AuditReport = z
  .object({
    url: z.string(),
    auditedAt: IsoDateTime,
    /** Weighted mean of the criteria, 0–100. */
    overallScore: z.number().int().min(0).max(100),
    /** A–F from the overall score. */
    grade: z.string(),
    /** False when the page could not be fetched (every criterion then scores 0). */
    pageLoaded: z.boolean(),
    criteria: z.array(AuditCriterion),
    /** The PDF report (also among the result's assets as a `document`). */
    reportUrl: z.string().nullable(),
  })
  .meta({ title: "AuditReport" });
export type AuditReport = z.infer<typeof AuditReport>;

export const WorkflowResult = z
  .object({
    finalVideo: z.string().nullable(),
    thumbnail: z.string().nullable(),
    assets: z.array(OutputAsset),
    // Documented (OpenAPI, GraphQL) with its shape; typed `unknown` for the code that builds it from the
    // renderer's own Storyboard, whose internal fields the open shape lets through.
    storyboard: StoryboardView.optional() as unknown as z.ZodOptional<z.ZodUnknown>,
    /** The storyboard's creative score, before rendering. */
    creativeScore: CreativeScore.optional(),
    warnings: z.array(z.string()).optional(),
    /** The models (ids from GET /config/studio) that made this result, by kind. */
    models: z.object({ image: z.string().optional(), video: z.string().optional(), voice: z.string().optional() }).optional(),
    /** The quality tier the result was rendered at. */
    quality: QualityTier.optional(),
    /** Local audit only: the scored report. */
    audit: AuditReport.optional(),
    /** cinematic only: camera, lens, lighting and motion per scene. */
    shotList: z.array(Shot).optional(),
    /** clone only: the reference ad's structure, which the new ad follows. */
    analysis: ReferenceAnalysis.optional(),
    /** ad-optimizer only: the source project and what changed, and why. */
    optimization: Optimization.optional(),
    /** brand only: the kit read from the brand's site (also saved to the brand profile). */
    brandKit: BrandKit.optional(),
    /** factory only: every variant of every format, as one batch. */
    variants: z.array(FactoryVariant).optional(),
    /** How each sentence of the brief was read (copy, direction, tone, tagline, cta), in order. */
    briefReading: BriefReading.optional(),
    /** The knowledge-base passages the art direction and copy drew on (best match first). */
    sources: z.array(KnowledgeSource).optional(),
    /** `publish: true`: where the ad is going or went. */
    publication: Publication.optional(),
  })
  .meta({ title: "WorkflowResult" });
export type WorkflowResult = z.infer<typeof WorkflowResult>;

export const LaunchData = z
  .object({
    jobId: z.string(),
    status: z.enum(["queued", "processing", "completed", "failed", "awaiting_review"]),
    creditsUsed: z.number().int(),
    result: WorkflowResult.optional(),
    batchId: z.string().optional(),
  })
  .meta({ title: "LaunchData" });
export type LaunchData = z.infer<typeof LaunchData>;

/** The launch answer on every transport (REST also repeats jobId, message and cost beside `data`). */
export const LaunchOutcome = LaunchData.extend({
  cost: z.number().int(),
  message: z.string(),
  /** True when an Idempotency-Key replayed an earlier launch (nothing was charged again). */
  replayed: z.boolean(),
}).meta({ title: "Launch" });
export type LaunchOutcome = z.infer<typeof LaunchOutcome>;

/** An optional key that makes retries of a launch safe: the same key and body answer the first launch again. */
export const IdempotencyKey = z.string().max(255, { error: "Idempotency-Key must be at most 255 characters" }).optional();

/** CONTRACT: both stated shapes at once. */
export const LaunchResponse = z.object({
  success: z.literal(true),
  data: LaunchData,
  jobId: z.string(),
  message: z.string(),
  cost: z.number().int(),
});

export const CostEstimate = z
  .object({
    type: WorkflowType,
    quality: QualityTier,
    cost: z.number().int(),
    balance: z.number().int(),
    sufficient: z.boolean(),
    /** Why a launch would be refused now, if it would (402 trial/credits, 403 reserved). */
    blockedBy: z.enum(["trial_expired", "reserved_workflow", "insufficient_credits"]).nullable(),
    message: z.string().nullable(),
    formats: z.array(AspectRatio),
    /**
     * What the job's generated models would use (seconds of clip, pictures, characters of voice) and cost
     * (US cents); all 0 with the built-in studio's models. A launch costing more than its credits cover under
     * the operator's margin is refused (400) before charging.
     */
    provider: z.object({
      seconds: z.number(),
      pictures: z.number().int(),
      characters: z.number().int(),
      costCents: z.number(),
    }),
  })
  .meta({ title: "CostEstimate" });
export type CostEstimate = z.infer<typeof CostEstimate>;

/**
 * A job's launch request as stored (WorkflowRequest after validation, its formats filled in). Every field is
 * optional and the shape stays open: rows written by earlier versions carry fewer or other fields.
 */
export const JobInput = z
  .object({
    type: z.string().optional().describe("The workflow type launched."),
    url: z.string().optional().describe("The page it worked from, if any."),
    concept: z.string().optional().describe("The concept as given."),
    brief: StructuredBrief.optional(),
    prompts: LaunchPrompts.optional(),
    brand: z.string().optional().describe("The brand it was made for (its id); the default brand when absent."),
    models: z
      .object({ image: z.string().optional(), video: z.string().optional(), voice: z.string().optional() })
      .optional()
      .describe("The models asked for, by kind."),
    formats: z.array(z.string()).optional().describe("The aspect ratios rendered."),
    quality: z.string().optional().describe("standard or premium."),
    async: z.boolean().optional().describe("Whether it ran in the background."),
    hitl: z.boolean().optional().describe("Whether it paused for review before rendering."),
    framework: z.string().optional().describe("The copywriting framework asked for."),
    seasonal: z.string().optional().describe("The seasonal theme asked for."),
    adPreset: z.string().optional().describe("The ad style asked for."),
    imagesOnly: z.boolean().optional().describe("Whether only images were made."),
    publish: z.boolean().optional().describe("Whether the result was to be published."),
    callbackUrl: z.string().optional().describe("Where its events were sent."),
    project: z.string().optional().describe("ad-optimizer: the project it improved."),
  })
  .loose()
  .meta({ title: "JobInput", description: "The launch request a job was made from, as stored." });

export const JobIdInput = z.object({ jobId: z.string({ error: "jobId is required" }).min(1, { error: "jobId is required" }) });

export const JobView = z
  .object({
    jobId: z.string(),
    type: WorkflowType,
    quality: QualityTier,
    status: JobStatus,
    step: z.string().nullable(),
    progress: z.number().int(),
    creditsUsed: z.number().int(),
    refunded: z.boolean(),
    result: WorkflowResult.nullable(),
    error: z.string().nullable(),
    hitl: z.boolean(),
    batchId: z.string().nullable(),
    /** The validated launch request (formats filled in). */
    input: JobInput,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ title: "Job" });
export type JobView = z.infer<typeof JobView>;

/** One event of a job's stream (SSE `step`/`result`, subscriptions): both stated data shapes at once. */
export const JobEventView = z
  .object({
    id: z.number().int(),
    jobId: z.string(),
    type: z.string(),
    step: z.string().nullable(),
    status: z.string(),
    progress: z.number().int(),
    result: z.unknown().nullable(),
    success: z.boolean().optional(),
    videoUrl: z.string().nullable().optional(),
    duration: z.number().nullable().optional(),
    error: z.string().nullable().optional(),
    at: IsoDateTime,
  })
  .meta({ title: "JobEvent" });
export type JobEventView = z.infer<typeof JobEventView>;

export const WorkerUpdate = z
  .object({
    jobId: z.string({ error: "jobId is required" }).min(1, { error: "jobId is required" }),
    step: z.string().max(100, { error: "step must be at most 100 characters" }).optional(),
    progress: z
      .number({ error: "progress must be an integer from 0 to 100" })
      .int({ error: "progress must be an integer from 0 to 100" })
      .min(0, { error: "progress must be an integer from 0 to 100" })
      .max(100, { error: "progress must be an integer from 0 to 100" })
      .optional(),
    status: z.enum(["processing", "completed", "failed"], { error: "status must be processing, completed or failed" }).optional(),
    result: z.record(z.string(), z.unknown(), { error: "result must be an object" }).optional(),
  })
  .meta({ title: "WorkerUpdate" });
export type WorkerUpdate = z.infer<typeof WorkerUpdate>;

/** A scene as the reviewer approves it: its id, and the text to show (omitted fields keep the director's). */
export const ReviewedScene = z.object({
  id: z.string({ error: "scenes[].id is required" }).min(1, { error: "scenes[].id is required" }),
  headline: z
    .string()
    .trim()
    .min(1, { error: "A scene's headline can't be empty" })
    .max(120, { error: "A scene's headline must be at most 120 characters" })
    .optional(),
  body: z.string().trim().max(200, { error: "A scene's supporting line must be at most 200 characters" }).nullable().optional(),
  cta: z.string().trim().max(60, { error: "A call to action must be at most 60 characters" }).nullable().optional(),
});

export const HitlDecision = z
  .object({
    jobId: z.string({ error: "jobId is required" }).min(1, { error: "jobId is required" }),
    action: z.enum(["approve", "reject"], { error: "Choose approve or reject" }),
    feedback: z.string().max(2000, { error: "Feedback must be at most 2000 characters" }).optional(),
    /**
     * With approve: the scenes to render, in this order, with any edited text. A scene left out is dropped;
     * omitted altogether, the storyboard renders as directed.
     */
    scenes: z
      .array(ReviewedScene)
      .min(1, { error: "Keep at least one scene" })
      .max(12, { error: "An ad holds at most 12 scenes" })
      .optional(),
  })
  .meta({ title: "HitlDecision" });
export type HitlDecision = z.infer<typeof HitlDecision>;

export const ReviewInput = z.object({
  projectId: z.string({ error: "projectId is required" }).min(1, { error: "projectId is required" }),
  rating: z.enum(["up", "down"], { error: "Rate the project up or down" }),
  feedback: z.string().max(500, { error: "Feedback must be at most 500 characters" }).optional(),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

export const WorkflowPrefs = z
  .strictObject({
    defaultType: WorkflowType.optional(),
    quality: QualityTier.optional(),
    formats: z.array(AspectRatio).max(4).optional(),
    framework: Framework.optional(),
    adPreset: z.enum(PRESET_IDS).optional(),
    hitl: z.boolean().optional(),
    callbackUrl: httpUrl("The callback address").nullable().optional(),
  })
  .describe("Studio defaults for this account");
export type WorkflowPrefs = z.infer<typeof WorkflowPrefs>;

/** SPEC 2.6 Project (project id = job id). */
export const Project = z
  .object({
    id: z.string(),
    user_id: z.string(),
    /** Beyond SPEC 2.6: the project's name, from its concept at launch, editable by its owner. */
    name: z.string(),
    type: z.string(),
    status: z.enum(["pending", "processing", "completed", "failed"]),
    input_data: z.string(),
    output_data: z.string(),
    credits_used: z.number().int(),
    created_at: IsoDateTime,
    job_status: JobStatus,
    thumbnail: z.string().nullable(),
    rating: z.enum(["up", "down"]).nullable(),
  })
  .meta({ title: "Project" });
export type Project = z.infer<typeof Project>;

/** A calendar date the statistics can cover: the service did not exist before 2000, and dates past 2100 are typos. */
const statsDate = (field: string) =>
  z.iso
    .date({ error: `${field} must be a date YYYY-MM-DD` })
    .refine((d) => d >= "2000-01-01" && d <= "2100-12-31", { error: `${field} must be between 2000-01-01 and 2100-12-31` });

export const StatsQuery = z.object({ startDate: statsDate("startDate").optional(), endDate: statsDate("endDate").optional() });
export const AnalyticsQuery = z.object({
  period: z.enum(["7d", "30d", "90d"], { error: "period must be 7d, 30d or 90d" }).default("30d"),
});
export const BatchQuery = z.object({ batchId: z.string({ error: "batchId is required" }).min(1, { error: "batchId is required" }) });

const hexList = z
  .string()
  .max(200, { error: "brandColors must be at most 200 characters" })
  .refine((s) => s.split(",").every((c) => /^#?[0-9a-fA-F]{6}$|^#?[0-9a-fA-F]{3}$/.test(c.trim())), {
    error: "brandColors must be comma-separated hex colours like #0a84ff, #ff375f",
  });
const hex = (field: string) =>
  z.string().regex(/^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/, { error: `${field} must be a hex colour like #0a84ff` });
const text = (field: string, max: number) =>
  z.string({ error: `${field} must be text` }).max(max, { error: `${field} must be at most ${max} characters` });

/** SPEC 2.4: both stated field sets are accepted (and answered) at once. */
export const BrandProfileInput = z
  .object({
    brandName: text("brandName", 100).optional(),
    brandColors: hexList.optional(),
    brandVoice: text("brandVoice", 500).optional(),
    targetAudience: text("targetAudience", 500).optional(),
    brandValues: text("brandValues", 500).optional(),
    industry: text("industry", 100).optional(),
    productDescription: text("productDescription", 1000).optional(),
    competitorUrls: text("competitorUrls", 500).optional(),
    websiteUrl: httpUrl("The website address").optional(),
    socialLinks: text("socialLinks", 500).optional(),
    logoUrl: httpUrl("The logo address").optional(),
    styleGuide: text("styleGuide", 2000).optional(),
    preferredLanguage: text("preferredLanguage", 10).optional(),
    name: text("name", 100).optional(),
    tone: text("tone", 500).optional(),
    colors: z
      .object({
        primary: hex("colors.primary").optional(),
        secondary: hex("colors.secondary").optional(),
        accent: hex("colors.accent").optional(),
      })
      .optional(),
    /** Read from the brand's site by a brand (Brand Clone) job; the user may edit it like any other field. */
    brandKit: BrandKit.optional(),
  })
  .meta({ title: "BrandProfileInput" });
export type BrandProfileInput = z.infer<typeof BrandProfileInput>;
export const BrandProfile = BrandProfileInput.extend({
  id: z.string(),
  audience: z.string().optional(),
  updatedAt: IsoDateTime,
});
export type BrandProfile = z.infer<typeof BrandProfile>;
