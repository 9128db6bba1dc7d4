// What the knowledge base says about a brief: the account's passages that best match this brief's concept
// (full-text rank; the brand's words only fill what the concept leaves), and from each its most telling
// sentence (the one that shares most words with the brief, a figure breaking ties); plus the passages that
// hold the brand's proof and offer (ratings, reviews, shipping, returns, guarantees), whose short factual
// sentences the copywriter puts in the proof and offer slots.
import type { BrandProfileInput, KnowledgeSource } from "@adgen/schema";
import type { Tx } from "../../request-context.ts";
import { searchPassages } from "./passages.ts";

/** Passages matched to the brief a job draws on at most, and passages of proof and offer besides. */
const MAX_SOURCES = 3;
const MAX_FACT_SOURCES = 2;
/** Words of the proof and offer a buyer looks for, whatever the brief (PostgreSQL stems them). */
const FACT_QUERY =
  "rated rating stars reviews review award awarded customers certified tested ships shipping shipped delivery delivered returns return refund guarantee guaranteed warranty free discount off";
/** A sentence that carries proof or an offer: a figure, a rating, shipping, returns, a guarantee. */
const FACT = /\d|\b(rated|stars?|reviews?|award|certified|ships?|shipping|delivery|returns?|refunds?|guarantee|warranty|free|discount)\b/i;
/** A fact short enough to be a line of an ad. */
const FACT_MAX = 90;

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
  // The concept ranks first, so two briefs of one brand draw on different passages; the brand's own words
  // (the same for every job) only fill the places the concept leaves.
  const byConcept = brief.concept?.trim() ? await searchPassages(db, userId, brief.concept, MAX_SOURCES) : [];
  const byBrand = byConcept.length < MAX_SOURCES ? await searchPassages(db, userId, query, MAX_SOURCES) : [];
  const matched = distinct([...byConcept, ...byBrand]).slice(0, MAX_SOURCES);
  const facts = distinct([...matched, ...(await searchPassages(db, userId, FACT_QUERY, MAX_SOURCES + MAX_FACT_SOURCES))])
    .slice(matched.length)
    .slice(0, MAX_FACT_SOURCES);
  const claims = [
    ...matched.flatMap((f) => [tellingSentence(f.passage, query), ...factSentences(f.passage)]),
    ...facts.flatMap((f) => factSentences(f.passage)),
  ];
  return {
    sources: [...matched, ...facts].map(({ itemId, name, passage }) => ({ itemId, name, passage })),
    claims: [...new Set(claims)],
  };
}

const distinct = <T extends { itemId: string; passage: string }>(found: T[]) =>
  found.filter((f, i) => found.findIndex((g) => g.itemId === f.itemId && g.passage === f.passage) === i);

/** The passage's sentences short enough for an ad that carry proof or an offer ("Ships in 24 hours."). */
export function factSentences(passage: string): string[] {
  return passage
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => withoutLabel(s.trim()))
    .filter((s) => s.length >= 8 && s.length <= FACT_MAX && FACT.test(s) && /\p{L}/u.test(s));
}
