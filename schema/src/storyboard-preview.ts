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

/** The picture edit that takes a scene's picture away (the scene shows its colours). */
export const NO_PICTURE = "none";

/** A change the user makes to one scene's words or picture before previewing again. */
export const SceneEdit = z
  .object({
    /** The scene, counted from 1. */
    scene: z
      .number({ error: "scene is the scene's number, from 1" })
      .int()
      .min(1, { error: "scene is the scene's number, from 1" })
      .describe("The scene to change, counted from 1 in the previewed storyboard."),
    headline: line("headline", 120)
      .min(1, { error: "A headline cannot be empty" })
      .optional()
      .describe("The scene's new main line (1–120 characters); absent keeps the previewed one."),
    /** The supporting line; an empty string removes it. */
    body: line("body line", 240).optional().describe("The new supporting line (at most 240 characters); an empty string removes it."),
    /** The call to action; an empty string removes it. */
    cta: line("call to action", 40).optional().describe("The new call to action (at most 40 characters); an empty string removes it."),
    /** A product photo of the brand media library (its id) to show instead, or "none" for no picture. */
    picture: z
      .string({ error: 'picture is the id of a product photo in your brand media library, or "none"' })
      .trim()
      .min(1, { error: 'picture is the id of a product photo in your brand media library, or "none"' })
      .max(64, { error: 'picture is the id of a product photo in your brand media library, or "none"' })
      .optional()
      .describe(
        "The scene's new picture: the id of a product photo in your brand media library (GET /api/user/brand/media), or \"none\" to show the scene's colours only; absent keeps the previewed picture.",
      ),
  })
  .meta({ title: "SceneEdit" });
export type SceneEdit = z.infer<typeof SceneEdit>;

// previewId (in WorkflowRequest): start from that preview's storyboard instead of directing a new one.
export const PreviewRequest = WorkflowRequest.and(
  z.object({
    /** Lines to change in the storyboard of `previewId` (needs it). */
    edits: z
      .array(SceneEdit)
      .max(20, { error: "At most 20 scene edits at once" })
      .optional()
      .describe("Lines to change in the storyboard of previewId before drawing it again (at most 20); needs previewId."),
  }),
);
export type PreviewRequest = z.output<typeof PreviewRequest>;

export const PreviewStill = z
  .object({
    /** The scene, counted from 1. */
    scene: z.number().int().describe("The scene this still shows, counted from 1."),
    sceneId: z.string().describe("The scene's id in the storyboard, stable across edits."),
    headline: z.string().describe("The scene's main line as drawn."),
    /** The still as a JPEG data URL, at the size of the standard video of the format. */
    image: z.string().describe("The still as a JPEG data URL (data:image/jpeg;base64,…), drawn by the renderer."),
    width: z.number().int().describe("The still's width in pixels: the standard video's width for the format."),
    height: z.number().int().describe("The still's height in pixels: the standard video's height for the format."),
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
    stills: z.array(PreviewStill).describe("One still per scene, in order, in the launch's first format."),
    creativeScore: CreativeScore,
    /** What the launch costs (exactly what it will charge) and whether it would go through now. */
    price: CostEstimate,
    /** How long the preview took to make, in milliseconds. */
    tookMs: z.number().int().describe("How long the preview took to make, in milliseconds."),
  })
  .meta({ title: "StoryboardPreview" });
export type StoryboardPreview = z.infer<typeof StoryboardPreview>;
