// Which layout system each workflow type's ad is set in (render/ad-styles.ts), so two types never look
// alike: a cinematic ad is full-bleed and sparse, an influencer ad a creator's post, a pain-point ad turns
// from grey to brand colour, and so on. The factory's variants take turns through several.
import type { WorkflowType } from "@adgen/schema";
import type { AdStyle } from "../../render/types.ts";

export const TYPE_STYLES: Record<WorkflowType, AdStyle> = {
  cinematic: "cinematic",
  avatar: "presenter",
  influencer: "ugc",
  painpoint: "problem-solution",
  factory: "split",
  clone: "bold",
  brand: "editorial",
  "ad-optimizer": "split",
  "local-audit": "panel",
  staticad: "panel",
};

/** The styles a factory's variants take in turn: each variant differs in layout as well as in its hook. */
export const FACTORY_STYLES: readonly AdStyle[] = ["split", "bold", "panel", "cinematic"];

export function styleFor(type: string): AdStyle {
  return TYPE_STYLES[type as WorkflowType] ?? "panel";
}

/** Beats that state the problem: shown muted in a problem-solution ad. */
export const PROBLEM_ROLES = new Set(["problem", "agitate"]);
