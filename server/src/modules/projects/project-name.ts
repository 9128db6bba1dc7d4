// A project's first name, given at launch: the concept's first words, else what kind of ad it is.
// The migration `project_name` backfills older rows with the same rule in SQL; keep the two in step.
import type { WorkflowType } from "@adgen/schema";

/** Longest name made from a concept; a longer concept is cut between words and ends with "…". */
export const CONCEPT_NAME_MAX = 60;

const TYPE_NAMES: Record<WorkflowType, string> = {
  cinematic: "Cinematic ad",
  avatar: "Avatar ad",
  factory: "Ad factory batch",
  clone: "Cloned ad",
  influencer: "Influencer ad",
  brand: "Brand film",
  staticad: "Static ads",
  painpoint: "Pain point ad",
  "ad-optimizer": "Optimized ad",
  "local-audit": "Local audit",
};

export function projectNameFrom(input: { type: WorkflowType; concept?: string | null }): string {
  const concept = (input.concept ?? "").replace(/\s+/g, " ").trim();
  if (!concept) return TYPE_NAMES[input.type] ?? input.type;
  if (concept.length <= CONCEPT_NAME_MAX) return concept;
  return `${concept
    .slice(0, CONCEPT_NAME_MAX + 1)
    .replace(/\s+\S*$/, "")
    .replace(/[\s,;:.-]+$/, "")}…`;
}
