// Free storyboard previews (POST /workflow/preview): a launch body (and, to preview again, the previous
// preview's id with the lines the user changed) answers the storyboard, one still per scene in the first
// format as the renderer draws it, its creative score and the exact price of the launch. Nothing is charged;
// a launch that names the preview's id renders that very storyboard.
import { z } from "zod";
import { CreativeScore } from "./creative.ts";
import { AspectRatio } from "./enums.ts";
import { StoryboardView } from "./storyboard.ts";
import { CostEstimate, WorkflowRequest } from "./workflow.ts";

const line = (what: string, max: number) =>
  z
    .string({ error: `The ${what} must be text` })
    .trim()
    .max(max, { error: `The ${what} must be at most ${max} characters` });

/** A change the user makes to one scene's words before previewing again. */
export const SceneEdit = z
  .object({
    /** The scene, counted from 1. */
    scene: z.number({ error: "scene is the scene's number, from 1" }).int().min(1, { error: "scene is the scene's number, from 1" }),
    headline: line("headline", 120).min(1, { error: "A headline cannot be empty" }).optional(),
    /** The supporting line; an empty string removes it. */
    body: line("body line", 240).optional(),
    /** The call to action; an empty string removes it. */
    cta: line("call to action", 40).optional(),
  })
  .meta({ title: "SceneEdit" });
export type SceneEdit = z.infer<typeof SceneEdit>;

// previewId (in WorkflowRequest): start from that preview's storyboard instead of directing a new one.
export const PreviewRequest = WorkflowRequest.and(
  z.object({
    /** Lines to change in the storyboard of `previewId` (needs it). */
    edits: z.array(SceneEdit).max(20, { error: "At most 20 scene edits at once" }).optional(),
  }),
);
export type PreviewRequest = z.output<typeof PreviewRequest>;

export const PreviewStill = z
  .object({
    /** The scene, counted from 1. */
    scene: z.number().int(),
    sceneId: z.string(),
    headline: z.string(),
    /** The still as a JPEG data URL, at the size of the standard video of the format. */
    image: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ title: "PreviewStill" });

export const StoryboardPreview = z
  .object({
    /** Send it with the launch (or the next preview) to keep this storyboard: what was previewed is rendered. */
    previewId: z.string(),
    type: z.string(),
    /** The format the stills are drawn in (the launch's first). */
    format: AspectRatio,
    storyboard: StoryboardView,
    stills: z.array(PreviewStill),
    creativeScore: CreativeScore,
    /** What the launch costs (exactly what it will charge) and whether it would go through now. */
    price: CostEstimate,
    /** How long the preview took to make, in milliseconds. */
    tookMs: z.number().int(),
  })
  .meta({ title: "StoryboardPreview" });
export type StoryboardPreview = z.infer<typeof StoryboardPreview>;
