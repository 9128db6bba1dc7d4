// The storyboard a result carries (the director's plan the render followed), as clients read it: every
// field a stored storyboard holds is named here. The shapes are closed: under tests the output check
// (server/src/operations/output-check.ts) fails on any field a result carries that is not listed, so a
// field the renderer's own type (server/src/modules/render/types.ts) gains must be documented here first.
// (The local file paths the renderer works with are set on a copy at render time and never stored.)
import { z } from "zod";

export const StoryboardScene = z
  .object({
    id: z.string().describe("The scene's id, stable across review edits."),
    durationSec: z.number().describe("How long it shows, in seconds (0.5–60)."),
    headline: z.string().describe("Its main line."),
    body: z.string().optional().describe("Its supporting line, if any."),
    cta: z.string().optional().describe("Its call to action, if any."),
    background: z.string().optional().describe("Its background colour (#rrggbb)."),
    accent: z.string().optional().describe("Its accent colour (#rrggbb)."),
    transition: z.string().optional().describe("How it is entered: fade, slide, wipe or none."),
    tone: z.string().optional().describe("problem or solution, in a problem → solution story."),
    motion: z.string().optional().describe("How the camera moves over its picture (push-in, pan-left, static, …)."),
    textMotion: z.string().optional().describe("How its text arrives: rise, slide, fade or none."),
    role: z
      .enum(["hook", "problem", "solution", "benefit", "proof", "cta"])
      .optional()
      .describe("What the scene does in the story: the hook opens the ad, proof shows evidence, cta closes it."),
    emphasis: z.string().optional().describe("The headline's key word or words, highlighted on screen."),
    stickers: z
      .array(
        z.object({
          kind: z.enum(["rating", "price", "offer", "new", "fact"]).describe("What the badge shows."),
          text: z.string().describe("The badge's words as shown."),
          stars: z.number().optional().describe("rating only: the average, 0–5."),
          count: z.number().int().optional().describe("rating only: how many reviews it is from."),
        }),
      )
      .optional()
      .describe("Badges drawn beside the copy, each from a fact of the brief, the page or the knowledge base."),
    imageKey: z
      .string()
      .optional()
      .describe("The scene's picture as a media key: served at /api/media/<key without its jobs/ prefix>. Absent: no picture."),
    imageSize: z
      .object({
        width: z.number().int().describe("Width in pixels."),
        height: z.number().int().describe("Height in pixels."),
      })
      .optional()
      .describe("The picture's size in pixels, when the scene has one."),
    subject: z
      .object({
        x: z.number().describe("Left edge, as a fraction (0–1) of the picture's width."),
        y: z.number().describe("Top edge, as a fraction (0–1) of the picture's height."),
        w: z.number().describe("Width, as a fraction (0–1) of the picture's width."),
        h: z.number().describe("Height, as a fraction (0–1) of the picture's height."),
      })
      .optional()
      .describe("Where the product is in the picture; the copy is laid out clear of it. Absent: not located (the centre is assumed)."),
    videoKey: z
      .string()
      .optional()
      .describe("The account's own product footage under this scene, as a media key (shown instead of the picture, without its sound)."),
    videoStartSec: z.number().optional().describe("Where in that footage the scene starts, in seconds (default 0)."),
  })
  .meta({ title: "StoryboardScene", description: "One scene of a storyboard: what it says, for how long, and how it looks." });

export const StoryboardBrand = z
  .object({
    name: z.string().optional().describe("The brand's name as shown."),
    primary: z.string().optional().describe("Primary colour (#rrggbb)."),
    secondary: z.string().optional().describe("Secondary colour (#rrggbb)."),
    accent: z.string().optional().describe("Accent colour (#rrggbb)."),
    text: z.string().optional().describe("Text colour (#rrggbb)."),
    logoKey: z
      .string()
      .optional()
      .describe("The brand's logo as a media key, shown above the last scene's call to action. Absent: the brand has no logo."),
  })
  .meta({ title: "StoryboardBrand", description: "The brand style a storyboard was drawn in." });

export const StoryboardView = z
  .object({
    title: z.string().optional().describe("The ad's working title."),
    brand: StoryboardBrand.optional(),
    scenes: z.array(StoryboardScene).optional().describe("The scenes, in order."),
    mood: z.string().optional().describe("The music bed's character (energetic, calm, luxurious, playful, warm)."),
    style: z.string().optional().describe("The layout system (panel, cinematic, ugc, …)."),
    beats: z
      .array(
        z
          .object({
            role: z
              .string()
              .describe("The beat of the copywriting framework (attention, interest, desire, action, …) or of the reference ad."),
            written: z.boolean().describe("Whether a scene says it; false when it was left out."),
            reason: z.string().optional().describe("Why it was left out (the ad's length, nothing true to say, …); absent when written."),
          })
          .meta({ title: "StoryboardBeat" }),
      )
      .optional()
      .describe(
        "What became of each beat of the framework the copy followed, in order. Absent in results made before beats were recorded.",
      ),
  })
  .meta({ title: "Storyboard", description: "The plan the render followed: its scenes, brand style, mood and layout." });
export type StoryboardView = z.infer<typeof StoryboardView>;
