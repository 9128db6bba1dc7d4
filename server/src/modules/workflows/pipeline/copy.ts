// The built-in copywriter: every line of an ad comes from what the user gave (the concept, the brand
// profile) or the product page, never from stock filler. A tagline or call to action quoted in the
// concept is used word for word; a line too long for a scene is shortened at a clause or a word
// boundary, never in the middle of a word. What it cannot find, it leaves out.

import { cleanLine, questionFromBenefit, shortenAtClause, shortLabel } from "./copy-lines.ts";
import { audiencePhrase, ownCapitals, sentenceCase } from "./copy-grammar.ts";
import { lineProblem } from "./line-check.ts";
import { callToAction, ctaFromLines } from "./cta.ts";
import { shownHost } from "./viewer-cta.ts";
import { is, joinWords, parse } from "./sentence-parse.ts";

import type { StructuredBrief } from "@adgen/schema";
import { LABELLED, QUOTED, quotedLines, readBrief, unlabelled } from "./brief-reading.ts";

export interface CopySources {
  /** Free text: only its copy sentences become lines (direction and tone never reach the screen). */
  concept: string | null;
  /** The brief by part, beside the concept: hook, benefits, proof and offer are lines; cta is the call to action. */
  brief?: StructuredBrief;
  brand: {
    brandName?: string;
    name?: string;
    productDescription?: string;
    brandValues?: string;
    targetAudience?: string;
    tone?: string;
  } | null;
  page: { url: string; title: string | null; description: string | null; cta?: string } | null;
  /** Sentences from the account's knowledge base that best match the brief (a fact only a document holds). */
  knowledge?: string[];
  /** The workflow type, for the call to action a type implies (an audit is booked, not bought). */
  type: string;
}

export interface AdCopy {
  /** The brand or product name, or without one a short phrase for the product ("Cooling mattress"). */
  product: string;
  /** How a scene introduces the product: "Meet Acme", or for a phrase "Meet the cooling mattress". */
  introduction: string;
  /** The concept's first sentence, as given ("A cooling mattress for hot sleepers."): what a problem question is made from. */
  premise: string | null;
  /** Quoted in the concept (not a call to action): used word for word. */
  tagline: string | null;
  /** Quoted in the concept as a call to action, else one that fits the page or the type. */
  cta: string;
  /** Lines that say what the product does for the viewer, best first. */
  benefits: string[];
  /** Lines with evidence: numbers, ratings, awards, customers. */
  proofs: string[];
  /** Lines that name the viewer's problem. */
  pains: string[];
  /** Lines with an offer or urgency (a price, a discount, "today"). */
  offers: string[];
  /** Who it is for ("busy parents"), if anyone says. */
  audience: string | null;
  /** Lines from the knowledge base (facts only a document holds), as the copy says them. */
  facts: string[];
  /** Words that keep their capitals mid-sentence: the product's and brand's names, and the brief's own. */
  names: string[];
}

/** Longest headline and body line a scene shows (the layout wraps within these). */
export const HEADLINE_MAX = 48;
export const BODY_MAX = 90;

// Double, typographic and guillemet quotes; single quotes only around a phrase (not an apostrophe in a word).
const PROOF = /\d|award|rated|trusted|certified|reviews?\b|stars?\b|customers|best-selling|bestselling|#1/i;
const STRONG_PROOF = /award|rated|trust(?:ed|s)?\b|certified|reviews?\b|stars?\b|customers|best-selling|bestselling|#1/i;
const PAIN =
  /\?$|tired of|sick of|struggl|hate|no more|stop |never again|waste|hassle|problem|frustrat|annoy|without the|\b(lose|loses|losing|chasing|unpaid|hidden fees|aches?|pain|injur(y|ies)|stress(ed)?|overwhelmed|can't|cannot|doesn't|again|rising|overpay|scared of|afraid of|forgot|sweaty|dull|stale|burst|leak(s|ing)?|paperwork|spreadsheets?|by hand|falling behind)\b|\bup \d+%/i;
// Shipping, returns and guarantees are part of the offer ("Ships in 24 hours", "30-day free returns").
const OFFER =
  /[$€£]\s?\d|\d+\s?%|\bfree\b|\boff\b|\bsale\b|discount|\btoday\b|limited|ends |\bships?\b|shipping|delivery|\breturns?\b|refund|guarantee|warranty|money back/i;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * `text` in at most `max` characters where a clause ends ("…, brewed slowly" is taken off), never with an
 * ellipsis: a line with no clause ending in time stays whole, and the scene fitter (scene-fit.ts) sizes or
 * drops it with the renderer's own metrics.
 */
export function fitWords(text: string, max: number): string {
  const clean = cleanLine(text);
  if (clean.length <= max) return clean;
  return shortenAtClause(clean, max) ?? clean;
}

/** Sentences and clauses of free text, without the quoted parts (used elsewhere) and empty bits. */
function lines(text: string | null | undefined): string[] {
  if (!text) return [];
  const unquoted = text.replace(QUOTED, " ").replace(LABELLED, " ");
  return unquoted
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“'(])|\n+|\s+[–—]\s+|;\s+/u)
    .map((line) => collapse(line).replace(/^[-•*]\s*/, ""))
    .filter((line) => line.replace(/[^\p{L}\p{N}]/gu, "").length >= 3);
}

/** Longest audience phrase ("For young professionals tired of hidden fees" stays a headline). */
const AUDIENCE_MAX = 40;

function audienceOf(sources: CopySources, names: readonly string[]): string | null {
  const given = sources.brand?.targetAudience ? collapse(sources.brand.targetAudience) : null;
  if (given) return audiencePhrase(given, AUDIENCE_MAX, names);
  // Who the ad is for, as the copy says it ("Film it for the vertical feed" names no audience).
  const copy = readBrief(sources.concept)
    .filter((read) => read.kind === "copy")
    .map((read) => read.sentence)
    .join(" ");
  const match = copy.match(/\bfor ((?:busy |new |young |small |local )?[a-z][a-z -]{2,30}?)(?=[.,;!?]|$| who | that | to )/i);
  return match?.[1] ? audiencePhrase(match[1], AUDIENCE_MAX, names) : null;
}

/**
 * A product name from a sentence of the concept: the sentence itself when short ("Skates that fly"),
 * else the noun phrase before "that", "for", "with"… ("Late-night cold brew that wakes…" → "Late-night
 * cold brew"), else its first words.
 */
function productFromLine(line: string): string {
  const clean = line.replace(/[.!?…]+$/, "");
  // The noun phrase ends where its first verb, relative clause or preposition starts ("Fresh sourdough baked
  // every morning in Springfield" → "Fresh sourdough"; "Brewly cold brew keeps nurses sharp" → "Brewly cold brew").
  const words = parse(clean);
  let end = 0;
  // A relative pronoun ("Backpacks that never tear") starts the clause, whatever the parse tags it as.
  const relative = new Set(["that", "which", "who", "whose"]);
  while (
    end < words.length &&
    is(words[end], "Noun", "Adjective", "Determiner", "Value") &&
    !is(words[end], "Pronoun") &&
    !relative.has(words[end]!.lower)
  )
    end++;
  const phrase = clean.length <= 24 ? clean : end > 0 && end < words.length ? joinWords(words.slice(0, end)) : shortLabel(clean, 32);
  // "A cooling mattress" names the product as "Cooling mattress" (the article belongs to a sentence).
  const bare = phrase.replace(/^(a|an|the|our|your)\s+(?=\S)/i, "");
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/**
 * A question the brief asks in its own words ("Homework battles every night?"), which the parse may read as a
 * statement with a question mark: the writer's question is kept when that is all that is wrong with it.
 */
const writtenQuestion = (line: string, names: readonly string[]) =>
  line.endsWith("?") && line.split(" ").length <= 8 && lineProblem(line, names) === "is a statement with a question mark (no auxiliary)";

const unique = (items: string[]) => [...new Set(items.map(collapse))].filter(Boolean);

/** Everything the ad may say, sorted into what each scene of a framework asks for. */
export function writeCopy(sources: CopySources): AdCopy {
  const concept = sources.concept ? collapse(sources.concept) : null;
  const quoted = concept ? quotedLines(sources.concept ?? "") : [];
  // Only what the brief says to the viewer: direction and tone sentences are for the crew and the voice.
  const conceptLines = readBrief(sources.concept)
    .filter((read) => read.kind === "copy")
    .flatMap((read) => lines(unlabelled(read.sentence)));
  const brief = sources.brief;
  const briefLines = (items: (string | undefined)[]) => items.map((item) => collapse(item ?? "")).filter(Boolean);
  const pool = unique([
    ...conceptLines,
    ...(sources.knowledge ?? []).flatMap((claim) => lines(claim)),
    ...lines(sources.page?.description),
    ...lines(sources.brand?.productDescription),
    ...lines(sources.brand?.brandValues),
  ]);

  const named = sources.brand?.brandName ?? sources.brand?.name ?? (sources.page?.title ? lines(sources.page.title)[0] : undefined);
  const fromConcept = !named && conceptLines[0] ? productFromLine(conceptLines[0]) : undefined;
  const product = shortLabel(named ?? fromConcept ?? quoted.find((q) => !q.cta)?.text ?? shownHost(sources.page?.url) ?? "Our product", 40);
  // "A cooling mattress" is a thing, introduced as "the cooling mattress"; "Brewly cold brew" may be a name, kept as written.
  const hadArticle = !!fromConcept && /^(a|an|the|our|your)\s/i.test(conceptLines[0] ?? "");
  const introduction = hadArticle ? `Meet the ${product.charAt(0).toLowerCase()}${product.slice(1)}` : `Meet ${product}`;
  // The line the product phrase was taken from says nothing more when all it adds is who it is for (the
  // audience has its own line): "A cooling mattress for hot sleepers." would repeat the product on screen.
  const sameAsProduct = (line: string) => {
    const bare = collapse(line)
      .replace(/^(a|an|the|our|your)\s+/i, "")
      .replace(/[.!?…]+$/, "")
      .toLowerCase();
    const name = product.toLowerCase();
    return bare === name || (bare.startsWith(`${name} `) && /^(for|to)\s+[^,;]{1,40}$/i.test(bare.slice(name.length + 1)));
  };
  // Names keep their capitals: the product's, the brand's, and every word the brief itself capitalises mid-sentence.
  // A page title in Title Case ("Covr Renters Insurance") capitalises common nouns too: its capitals name nothing.
  const title = sources.page?.title;
  const titleWords = (title ?? "")
    .split(/\s+/)
    .slice(1)
    .filter((w) => /^\p{L}{4,}/u.test(w));
  const titleCase = titleWords.length >= 2 && titleWords.filter((w) => /^\p{Lu}/u.test(w)).length / titleWords.length > 0.6;
  const written = [sources.concept, ...(sources.knowledge ?? []), titleCase ? null : title, sources.page?.description];
  const profile = [sources.brand?.productDescription, sources.brand?.brandValues, sources.brand?.targetAudience];
  const names = [product, ...(named ? [named] : []), ...ownCapitals([...written, ...profile])];
  // Every line is said as a copywriter would: sentence case with names kept, a verbless fragment without a
  // full stop, and a line that is still not English (a list of values, a cut clause) left out.
  const polish = (line: string) => {
    const cased = sentenceCase(cleanLine(line, named), names);
    return /[.]$/.test(cased) && lineProblem(cased, names) === "is a sentence without a verb" ? cased.slice(0, -1) : cased;
  };
  // The brief's own call to action ("Book a free home survey.") is the button, not a line said again on screen.
  const quotedCta = briefLines([brief?.cta])[0] ?? quoted.find((q) => q.cta)?.text;
  const writtenCta = quotedCta ? null : ctaFromLines([...conceptLines, ...lines(sources.page?.description)], sources.type);
  const ctaKey = (line: string) =>
    line
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  // A line of one word ("Clarity.") is a value, not copy.
  const rest = unique(pool.map(polish)).filter(
    (line) =>
      collapse(line) !== product &&
      !sameAsProduct(line) &&
      (!lineProblem(line, names) || writtenQuestion(line, names)) &&
      line.split(" ").length >= 2 &&
      !(writtenCta && ctaKey(line) === ctaKey(writtenCta)),
  );
  const knowledgeLines = new Set((sources.knowledge ?? []).flatMap((claim) => lines(claim)).map(polish));
  // "No hidden fees" names a pain the product takes away: it is a benefit.
  const isPain = (line: string) =>
    PAIN.test(line.replace(/\b(no|without|zero)\s+(hidden\s+)?(fees|hassle|stress|waiting|waste|contracts?)\b/gi, ""));
  const pains = rest.filter(isPain);
  const offers = rest.filter((line) => OFFER.test(line) && !pains.includes(line));
  // Ratings, reviews and awards are proof first; a line that only has a figure in it comes after.
  const proofs = rest
    .filter((line) => PROOF.test(line) && !pains.includes(line) && !offers.includes(line))
    .sort((a, b) => Number(STRONG_PROOF.test(b)) - Number(STRONG_PROOF.test(a)));
  // A line whose only evidence is a figure ("keeps ice for 24 hours") is a benefit too, said once either way.
  const benefits = [
    ...rest.filter((line) => !proofs.includes(line) && !pains.includes(line) && !offers.includes(line)),
    ...proofs.filter((line) => !STRONG_PROOF.test(line)),
  ];

  const host = shownHost(sources.page?.url);
  const about = [
    sources.concept,
    sources.brand?.productDescription,
    sources.brand?.targetAudience,
    sources.page?.title,
    sources.page?.description,
  ]
    .filter(Boolean)
    .join(" ");
  // The brief's own words first, then the page's own button, then a line of the concept, then the type's verb.
  const cta = quotedCta ?? sources.page?.cta ?? writtenCta ?? callToAction({ type: sources.type, product, text: about, host });

  return {
    product,
    introduction,
    premise: conceptLines[0] ?? null,
    // The brief's hook opens the ad when nothing is quoted; beside a quoted tagline it is the first benefit.
    tagline: quoted.find((q) => !q.cta)?.text ?? briefLines([brief?.hook])[0] ?? null,
    cta,
    benefits: unique([...briefLines(quoted.some((q) => !q.cta) ? [brief?.hook] : []), ...briefLines(brief?.benefits ?? []), ...benefits]),
    proofs: unique([...briefLines([brief?.proof]), ...proofs]),
    pains,
    offers: unique([...briefLines([brief?.offer]), ...offers]),
    audience: audienceOf(sources, names),
    facts: rest.filter((line) => knowledgeLines.has(line)),
    names,
  };
}

/** A question that names the problem a benefit solves ("Coffee that lasts?" → "Want coffee that lasts?"). */
export function painFromBenefit(benefit: string): string {
  // Only a question that reads as one ("Ready to audit our shop page?", never "Want audit our shop page"),
  // else the line as it is.
  return fitWords(questionFromBenefit(benefit) ?? benefit, HEADLINE_MAX);
}
