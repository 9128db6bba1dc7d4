// A project's first name, given at launch: the concept's first sentence, or its first clause, when short
// enough to be a title; else what kind of ad it is. Never the concept's first words cut mid-sentence
// ("Morning in a sunny kitchen. A scruffy terrier waits by an…"). The migration `project_name` backfilled
// older rows with the earlier rule (first words, cut); those rows keep their names.
import type { WorkflowType } from "@adgen/schema";

/** Longest name made from a concept's sentence or clause. */
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
  const typeName = TYPE_NAMES[input.type] ?? input.type;
  if (!concept) return typeName;
  const sentence = concept.split(/(?<=[.!?])\s+/)[0]!.replace(/[.\s]+$/, "");
  if (sentence.length <= CONCEPT_NAME_MAX) return sentence;
  const clause = sentence.split(/\s*[,;:—–]\s+|\s+-\s+/)[0]!.trim();
  if (clause.length <= CONCEPT_NAME_MAX && clause.split(" ").length >= 3) return clause;
  return typeName;
}
