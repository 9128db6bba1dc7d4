// How a brand speaks and what it claims, read from its site's copy (page-brand.ts collects it block by
// block). Deterministic and offline: the tone is a few words from what the copy leans on (its vocabulary,
// whom it addresses, how long and how loud its sentences are); the claims are the short sentences that
// assert something checkable (numbers, ratings, guarantees, superlatives, certifications), word for word.

const MAX_CLAIMS = 8;
const MAX_CLAIM_CHARS = 160;
const MAX_TONE_WORDS = 4;
/** Below this the copy says too little to judge a tone. */
const MIN_WORDS_FOR_TONE = 12;

/** Vocabulary leanings: the word that names the tone, and the words that show it. */
const LEANINGS: { tone: string; words: RegExp }[] = [
  {
    tone: "playful",
    words:
      /\b(fun|funny|love|loved|lovely|happy|happiness|joy|joyful|delight\w*|yay|awesome|magic\w*|smile\w*|treat|yummy|wow|cheeky|party|play\w*)\b/gi,
  },
  {
    tone: "refined",
    words:
      /\b(luxury|luxurious|premium|exquisite|crafted|craftsmanship|timeless|elegan\w+|refined|finest|artisan\w*|bespoke|heritage|iconic|curated|sophisticat\w+)\b/gi,
  },
  {
    tone: "technical",
    words:
      /\b(ai|platform|data|analytics|automat\w+|api|cloud|technolog\w+|engineered|performance|integrat\w+|workflows?|software|algorithm\w*|dashboard|scalab\w+)\b/gi,
  },
  {
    tone: "caring",
    words:
      /\b(natural|organic|gentle|sustainab\w+|planet|eco|clean|wellness|well-being|care|caring|nourish\w*|green|recycled|plant-based|kind|kindness|community)\b/gi,
  },
  {
    tone: "reassuring",
    words:
      /\b(trusted|trust|secure|security|safe|safety|certified|guarantee\w*|proven|reliable|reliability|expert\w*|professional\w*|licensed|insured|warranty|peace of mind)\b/gi,
  },
  {
    tone: "bold",
    words:
      /\b(bold|power|powerful|ultimate|unstoppable|fearless|epic|extreme|boost\w*|crush\w*|dominate|game-chang\w+|revolution\w*|unleash\w*|beast)\b/gi,
  },
  {
    tone: "practical",
    words:
      /\b(easy|easily|simple|simply|quick|quickly|affordable|save|saving|hassle-free|straightforward|convenient|effortless\w*|no fuss)\b/gi,
  },
];

/** What makes a sentence a claim: something a customer could check, or a promise. */
const CLAIM_SIGNS: RegExp[] = [
  /\d+(?:[.,]\d+)?\s?(?:%|x\b|×|\+|k\b|m\b)/i, // 30%, 2x, 10,000+
  /\b\d[\d,.]*\s+(?:customers|clients|users|people|members|brands|businesses|teams|reviews|countries|stores|years|hours|minutes|days|orders|sold)\b/i,
  /#\s?1\b|\bno\.?\s?1\b|\bnumber one\b/i,
  /\b\d(?:\.\d)?\s?(?:\/\s?5|out of 5|stars?|-star)\b/i,
  /\b(?:best|fastest|cheapest|strongest|lightest|safest|largest|leading|first|only|most (?:trusted|loved|popular|advanced|comfortable)|top[- ]rated|award[- ]winning)\b/i,
  /\b(?:guarantee[ds]?|money[- ]back|risk[- ]free|warranty|free (?:shipping|delivery|returns|trial))\b/i,
  /\b(?:certified|clinically|dermatologist|proven|patented|approved|accredited|licensed and insured)\b/i,
  /\b(?:trusted by|loved by|used by|rated|recommended by|as seen (?:in|on))\b/i,
  /\b(?:made in|handmade|organic|vegan|cruelty[- ]free|carbon[- ]neutral|recycled|sustainably)\b/i,
  /\b24\/7\b/,
];

const words = (text: string) => text.match(/[\p{L}\p{N}'’-]+/gu) ?? [];

/** Sentences of a block: headings and list items are one; paragraphs split after . ! ? before a capital or digit. */
function sentences(block: string): string[] {
  return block
    .split(/(?<=[.!?])\s+(?=["“'‘(]?[\p{Lu}\p{N}])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/**
 * A few words on how the copy speaks ("caring, direct, concise"), most marked first; null when there is
 * too little copy to tell.
 */
export function toneOf(copy: readonly string[]): string | null {
  const text = copy.join("\n");
  const all = words(text);
  if (all.length < MIN_WORDS_FOR_TONE) return null;
  const perThousand = (count: number) => (count * 1000) / all.length;

  const leaning = LEANINGS.map(({ tone, words: pattern }) => ({ tone, score: perThousand(text.match(pattern)?.length ?? 0) }))
    .filter((l) => l.score >= 8)
    .sort((a, b) => b.score - a.score)
    .map((l) => l.tone);

  const lines = copy.flatMap(sentences);
  const lower = all.map((w) => w.toLowerCase());
  const share = (pattern: RegExp) => lower.filter((w) => pattern.test(w)).length / all.length;
  const addressesReader = share(/^(you|your|yours|you're|you’re|you'll|you’ll)$/) >= 0.02;
  const speaksAsWe = share(/^(we|our|us|we're|we’re|we've|we’ve)$/) >= 0.015;
  const exclaims = lines.filter((line) => line.endsWith("!")).length / Math.max(1, lines.length) >= 0.15;
  const contractions = lower.filter((w) => /['’](s|re|ll|ve|d|t|m)$/.test(w)).length / all.length >= 0.015;
  const averageLength = all.length / Math.max(1, lines.length);

  const style: string[] = [];
  if (addressesReader && speaksAsWe) style.push("warm");
  if (addressesReader) style.push("direct");
  if (exclaims) style.push("energetic");
  if (contractions && !exclaims) style.push("conversational");
  if (averageLength <= 12) style.push("concise");
  else if (averageLength >= 22) style.push("detailed");
  if (!addressesReader && !contractions && !exclaims && averageLength > 14) style.push("formal");

  const tone = [...leaning.slice(0, 2), ...style].slice(0, MAX_TONE_WORDS);
  return tone.length ? tone.join(", ") : null;
}

/** Short sentences of the copy that make a claim, word for word, in reading order. */
export function claimsIn(copy: readonly string[]): string[] {
  const claims: string[] = [];
  for (const line of copy.flatMap(sentences)) {
    const count = words(line).length;
    if (count < 3 || count > 25 || line.length > MAX_CLAIM_CHARS || line.endsWith("?")) continue;
    if (!CLAIM_SIGNS.some((sign) => sign.test(line))) continue;
    if (!claims.includes(line)) claims.push(line);
    if (claims.length === MAX_CLAIMS) break;
  }
  return claims;
}
