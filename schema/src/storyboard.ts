// The storyboard a result carries (the director's plan the render followed), as clients read it. The
// renderer's own type (server/src/modules/render/types.ts) has more fields, all internal (local paths,
// media keys): the shape stays open so older results and those fields pass, while the fields a reader
// uses are named and typed.
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
  })
  .loose()
  .meta({ title: "StoryboardScene", description: "One scene of a storyboard: what it says, for how long, and how it looks." });

export const StoryboardBrand = z
  .object({
    name: z.string().optional().describe("The brand's name as shown."),
    primary: z.string().optional().describe("Primary colour (#rrggbb)."),
    secondary: z.string().optional().describe("Secondary colour (#rrggbb)."),
    accent: z.string().optional().describe("Accent colour (#rrggbb)."),
    text: z.string().optional().describe("Text colour (#rrggbb)."),
  })
  .loose()
  .meta({ title: "StoryboardBrand", description: "The brand style a storyboard was drawn in." });

export const StoryboardView = z
  .object({
    title: z.string().optional().describe("The ad's working title."),
    brand: StoryboardBrand.optional(),
    scenes: z.array(StoryboardScene).optional().describe("The scenes, in order."),
    mood: z.string().optional().describe("The music bed's character (energetic, calm, luxurious, playful, warm)."),
    style: z.string().optional().describe("The layout system (panel, cinematic, ugc, …)."),
  })
  .loose()
  .meta({ title: "Storyboard", description: "The plan the render followed: its scenes, brand style, mood and layout." });
export type StoryboardView = z.infer<typeof StoryboardView>;
