// What the knowledge base says about a brief: the account's passages that best match the concept and the
// brand (full-text rank), and from each its most telling sentence (the one that shares most words with
// the brief, a figure breaking ties), which the copywriter may use as a line of the ad.
import type { BrandProfileInput, KnowledgeSource } from "@adgen/schema";
import type { Tx } from "../../context.ts";
import { searchPassages } from "./passages.ts";

/** Passages a job draws on at most. */
const MAX_SOURCES = 3;

export interface BriefKnowledge {
  /** The passages used, best match first (`result.sources`). */
  sources: KnowledgeSource[];
  /** One sentence per passage, for the copy. */
  claims: string[];
}

const wordsOf = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3),
  );

/** The passage's sentence that best carries the brief: most words shared with it, then one with a figure. */
export function tellingSentence(passage: string, brief: string): string {
  const wanted = wordsOf(brief);
  const sentences = passage.split(/(?<=[.!?])\s+/).filter((s) => /[\p{L}]/u.test(s));
  let best = sentences[0] ?? passage;
  let bestScore = -1;
  for (const sentence of sentences) {
    const shared = [...wordsOf(sentence)].filter((w) =>
      [...wanted].some((q) => w.startsWith(q.slice(0, 5)) || q.startsWith(w.slice(0, 5))),
    ).length;
    const score = shared * 2 + (/\d/.test(sentence) ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [sentence, score];
  }
  return withoutLabel(best.trim());
}

/** "Caffeine: each can holds 212 mg" → "Each can holds 212 mg": a short heading before a colon is not copy. */
function withoutLabel(sentence: string): string {
  const match = sentence.match(/^[\p{L}][\p{L}\p{N} '&-]{1,30}:\s+(\S.*)$/u);
  if (!match?.[1] || match[1].length < 12) return sentence;
  return match[1].charAt(0).toUpperCase() + match[1].slice(1);
}

/** The brief a job is directed from, as one search query. */
export function briefQuery(concept: string | null | undefined, brand: BrandProfileInput | null): string {
  return [concept, brand?.brandName ?? brand?.name, brand?.productDescription, brand?.industry, brand?.targetAudience, brand?.brandValues]
    .filter(Boolean)
    .join(" ");
}

/** The account's knowledge that best matches the brief (nothing when the account has none or nothing matches). */
export async function knowledgeForBrief(
  db: Tx,
  userId: string,
  brief: { concept: string | null | undefined; brand: BrandProfileInput | null },
): Promise<BriefKnowledge> {
  const query = briefQuery(brief.concept, brief.brand);
  if (!query.trim()) return { sources: [], claims: [] };
  const found = await searchPassages(db, userId, query, MAX_SOURCES);
  return {
    sources: found.map(({ itemId, name, passage }) => ({ itemId, name, passage })),
    claims: [...new Set(found.map((f) => tellingSentence(f.passage, query)))],
  };
}
