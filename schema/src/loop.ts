// The loop: read a brand's creatives and recommend (and execute) the next move.
import { z } from "zod";
import { CalendarDay, PerformanceFigures } from "./performance.ts";

export const LOOP_ACTIONS = ["SEED", "DOUBLE_DOWN", "ITERATE", "KILL", "CHALLENGER"] as const;
export const LoopAction = z
  .enum(LOOP_ACTIONS, { error: `The action must be one of ${LOOP_ACTIONS.join(", ")}` })
  .meta({ title: "LoopAction" });
export type LoopAction = z.infer<typeof LoopAction>;

const brandId = z
  .string({ error: "Name the brand by its id (see your brands)" })
  .trim()
  .min(1, { error: "Name the brand by its id (see your brands)" })
  .max(100);

export const LoopQuery = z.object({
  brandId,
  /** The figures read: from this day (YYYY-MM-DD) … */
  from: CalendarDay.optional(),
  /** … to this day, included. */
  to: CalendarDay.optional(),
});
export type LoopQuery = z.input<typeof LoopQuery>;

export const LoopExecuteInput = z.object({
  brandId,
  action: LoopAction,
  /** The creative to act on (KILL, ITERATE, DOUBLE_DOWN, CHALLENGER); the recommendation's choice when left out. */
  creativeId: z.string().trim().min(1).max(200).optional(),
  /**
   * The credits the person agreed to spend (the recommendation's `cost`). When the action now costs anything
   * else (another creative, a new price), nothing is charged and the answer is 409.
   */
  confirmedCost: z.number({ error: "confirmedCost is a whole number of credits" }).int().min(0).max(1000).optional(),
});
export type LoopExecuteInput = z.input<typeof LoopExecuteInput>;

export const LoopCreative = z
  .object({
    creativeId: z.string(),
    projectId: z.string().nullable(),
    /** What a person calls it: its project's name, else the id the figures were sent under. */
    name: z.string(),
    /** The project's thumbnail (first frame), when the creative is a finished project of yours. */
    thumbnail: z.string().nullable(),
    /** winner, decaying, losing, middling, low_volume */
    role: z.string(),
    decaying: z.boolean(),
    totals: PerformanceFigures,
  })
  .meta({ title: "LoopCreative" });

export const LoopRecommendation = z
  .object({
    brandId: z.string(),
    action: LoopAction,
    /** The creative the action is about (null for SEED). */
    target: z.string().nullable(),
    /** The target's name (its project's name, else its id) and thumbnail. */
    targetName: z.string().nullable(),
    targetThumbnail: z.string().nullable(),
    reasoning: z.string(),
    /** Credits that executing this action charges now (0 for KILL); asked for before Execute. */
    cost: z.number().int(),
    /** What executing it does, in words ("Launches a Static Ad …"). */
    effect: z.string(),
    /** 0–1: how sure the recommendation is, from the volume and the significance behind it. */
    confidence: z.number(),
    creatives: z.array(LoopCreative),
  })
  .meta({ title: "LoopRecommendation" });
export type LoopRecommendation = z.infer<typeof LoopRecommendation>;

export const LoopLaunch = z
  .object({
    jobId: z.string(),
    /** The new project's name. */
    name: z.string(),
    type: z.string(),
    creditsUsed: z.number().int(),
    framework: z.string().nullable(),
  })
  .meta({ title: "LoopLaunch" });

export const LoopExecution = z
  .object({
    brandId: z.string(),
    action: LoopAction,
    target: z.string().nullable(),
    /** What was done, in plain words. */
    message: z.string(),
    launched: z.array(LoopLaunch),
    creditsCharged: z.number().int(),
    stopped: z.array(z.string()),
  })
  .meta({ title: "LoopExecution" });
export type LoopExecution = z.infer<typeof LoopExecution>;
