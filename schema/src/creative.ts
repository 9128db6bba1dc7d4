// The creative score a storyboard gets before it is rendered (shown in review, kept in the result).
import { z } from "zod";

export const CreativeCheck = z
  .object({
    id: z.enum(["hook", "reading-time", "text-density", "call-to-action", "brand", "safe-zone", "clean-screen"]),
    label: z.string(),
    points: z.number().int(),
    max: z.number().int(),
    /** Why it got these points, in words a marketer reads. */
    reason: z.string(),
  })
  .meta({ title: "CreativeCheck" });

export const CreativeScore = z
  .object({ score: z.number().int().min(0).max(100), max: z.literal(100), checks: z.array(CreativeCheck) })
  .meta({ title: "CreativeScore" });
export type CreativeScore = z.infer<typeof CreativeScore>;
