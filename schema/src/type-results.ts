// What particular workflow types add to a job's result, beside its assets: a cinematic ad's shot list, a
// clone's analysis of its reference, an optimizer's list of changes, a brand film's brand kit and a
// factory's batch of variants. The server fills them (server/src/modules/workflows/pipeline/) and the SPA
// shows them (web/src/features/results/), so both read these shapes.
import { z } from "zod";

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/, { error: "a colour must be a hex colour like #0a84ff" });

/** cinematic (Director): how one scene is shot. */
export const Shot = z
  .object({
    sceneId: z.string(),
    /** Shot size and angle, e.g. "Close-up, low angle". */
    camera: z.string(),
    /** Focal length and aperture, e.g. "85mm f/1.8". */
    lens: z.string(),
    /** e.g. "Golden hour, warm rim light". */
    lighting: z.string(),
    /** Camera move, e.g. "Slow push-in". The studio renders it as the scene's motion. */
    motion: z.string(),
    /** The scene's provider prompt, built with the prompt builder (same text a remote video model gets). */
    prompt: z.string(),
  })
  .meta({ title: "Shot" });
export type Shot = z.infer<typeof Shot>;

/** clone (Inspiration): what the reference ad at `url` does, which the new ad follows. */
export const ReferenceAnalysis = z
  .object({
    url: z.string(),
    /** The reference's opening line, as read. */
    hook: z.string().nullable(),
    /** Its beats in order, each with its role (hook, problem, proof, offer, call to action…) and what it says. */
    beats: z.array(z.object({ role: z.string(), text: z.string() })),
    /** "fast" | "medium" | "slow", from the beats' length and count, with the seconds per beat the new ad uses. */
    pacing: z.object({ label: z.enum(["fast", "medium", "slow"]), secondsPerBeat: z.number() }),
    /** Short on-screen lines read from the reference (headings, buttons). */
    onScreenText: z.array(z.string()),
    callToAction: z.string().nullable(),
    /** False when the reference could not be read (the ad then follows a standard structure, with a warning). */
    readable: z.boolean(),
  })
  .meta({ title: "ReferenceAnalysis" });
export type ReferenceAnalysis = z.infer<typeof ReferenceAnalysis>;

/** ad-optimizer: one change from the source project to the improved ad, and why. */
export const OptimizationChange = z
  .object({
    /** What changed: "hook", "call-to-action", "pacing", "text-density", "brand", "format"… */
    area: z.string(),
    before: z.string().nullable(),
    after: z.string(),
    why: z.string(),
  })
  .meta({ title: "OptimizationChange" });
export type OptimizationChange = z.infer<typeof OptimizationChange>;

export const Optimization = z
  .object({
    /** The project (job id) that was improved. */
    sourceProjectId: z.string(),
    /** Its creative score and the new ad's, 0–100. */
    scoreBefore: z.number().int().nullable(),
    scoreAfter: z.number().int(),
    /** The performance the source had, if any was recorded (ratings, feedback). */
    performance: z.object({ ratingsUp: z.number().int(), ratingsDown: z.number().int(), feedback: z.array(z.string()) }),
    changes: z.array(OptimizationChange),
  })
  .meta({ title: "Optimization" });
export type Optimization = z.infer<typeof Optimization>;

/** brand (Brand Clone): what the brand's site says about the brand, saved to the brand profile. */
export const BrandKit = z
  .object({
    sourceUrl: z.string(),
    colors: z.array(hexColor).max(8),
    logoUrl: z.string().nullable(),
    /** Font families the site's CSS names, most used first. */
    fonts: z.array(z.string().max(100)).max(6),
    /** A few words on the site's voice, e.g. "warm, plain-spoken". */
    tone: z.string().max(500).nullable(),
    /** Claims the site makes, word for word (short). */
    claims: z.array(z.string().max(200)).max(10),
    extractedAt: z.string(),
  })
  .meta({ title: "BrandKit" });
export type BrandKit = z.infer<typeof BrandKit>;

/** factory (Multi-Format): the variants made per format, as one batch. */
export const FactoryVariant = z
  .object({
    /** "A", "B", … */
    variant: z.string(),
    format: z.string(),
    /** The hook line this variant opens with. */
    hook: z.string(),
    url: z.string(),
    type: z.enum(["video", "image"]),
  })
  .meta({ title: "FactoryVariant" });
export type FactoryVariant = z.infer<typeof FactoryVariant>;

/** A knowledge-base passage a job's copy drew on (`result.sources`): which item, and what it says. */
export const KnowledgeSource = z
  .object({
    itemId: z.string(),
    name: z.string(),
    passage: z.string(),
  })
  .meta({ title: "KnowledgeSource" });
export type KnowledgeSource = z.infer<typeof KnowledgeSource>;
