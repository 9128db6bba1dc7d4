// One line of ad copy, made fit to show: tidied (no ellipsis, no "..", no brand said twice, a question
// keeps its question mark) and, when too long, shortened only where a clause ends (a comma, a dash, an
// "and"/"with" joint), never in the middle of one and never leaving a dangling "with". What a word is (a
// preposition left hanging, an auxiliary that opens a question) is read from the parse (sentence-parse.ts).
import { asQuestion } from "./copy-grammar.ts";
import { ENDING_PARTICLE, is, isAuxiliary, parse, QUESTION_WORDS } from "./sentence-parse.ts";

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** Joints where a clause may end: punctuation, or a word that starts a new clause or an add-on. */
const BOUNDARY = /\s*[,;:–—]\s+|\s+-\s+|\s+(?=(?:and|with|while|plus|so|but|because|which|whereas|without|from|for|until|since)\s)/giu;

const JOINT_WORDS = new Set(
  "with and or but nor for to of the a an in on at by from that which who whose so your our its their my than as into onto plus via while because if when".split(
    " ",
  ),
);

/** A word a line cannot end on: what follows it was cut off ("stainless steel with", "for your"). */
function dangles(text: string, cut = false): boolean {
  const words = parse(text);
  const last = words[words.length - 1];
  if (!last || words.length < 2) return false;
  // "…anywhere else", "…and more": words compromise may tag as joints that close a phrase.
  if (/^(else|more|too|also|instead)$/.test(last.lower)) return false;
  // "…a gym you never get to": a preposition its verb keeps is no cut, unless the line is known to be cut.
  if (!cut && is(words[words.length - 2], "Verb") && is(last, "Preposition")) return false;
  // "Cold for the long way up.", "…all the way down": an adverb particle after its noun ends a phrase.
  if (!cut && ENDING_PARTICLE.test(last.lower) && is(words[words.length - 2], "Noun", "Adverb")) return false;
  // compromise reads "on" in "spend on" as a particle: a cut line loses it all the same.
  if (cut && JOINT_WORDS.has(last.lower)) return true;
  return (
    (is(last, "Preposition", "Conjunction", "Determiner") || (is(last, "Possessive") && is(last, "Pronoun")) || last.text === "&") &&
    !is(last, "Value")
  );
}

/** A line that asks: an auxiliary first ("Does it fit…"), or a question word with a verb after it. */
function asks(text: string): boolean {
  const words = parse(text);
  const first = words[0];
  if (!first || words.length < 3) return false;
  if (isAuxiliary(first) || first.lower === "ever") return is(words[1], "Noun", "Pronoun", "Determiner", "Adverb", "Verb");
  return QUESTION_WORDS.has(first.lower) && words.slice(1).some((w) => isAuxiliary(w) || /^(long|much|many)$/.test(w.lower));
}

const stripDangling = (text: string, cut = false) => {
  let line = text.replace(/[\s,;:–—-]+$/, "");
  while (dangles(line, cut)) line = line.replace(/[\s,;:–—-]*\S+$/, "").replace(/[\s,;:–—-]+$/, "");
  return line;
};

/** The sentence's closing mark ("?", "!", "."), if it has one. */
const terminal = (text: string) => text.match(/[?!.]$/)?.[0] ?? "";

/**
 * Tidies a line for the screen: never an ellipsis (a trailing "…" or "..." and the clause it cut are taken
 * off), no "..", the brand name said once, and a question ends with its question mark.
 */
export function cleanLine(text: string, brand?: string | null): string {
  let line = collapse(text);
  if (/(?:…|\.{3,})$/.test(line)) {
    // A line someone cut: keep what ends at a clause, never the stub.
    line = stripDangling(line.replace(/\s*(?:…|\.{3,})$/, ""), true);
  }
  line = line.replace(/\s*…\s*/g, " ").replace(/\.{3,}/g, ".");
  // "…stainless steel with." was cut too: the joint word goes with its mark.
  if (/[.,;:]$/.test(line) && dangles(line.slice(0, -1))) line = stripDangling(line.slice(0, -1));
  if (brand) {
    const name = collapse(brand);
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // "Glacier Bottle Co. Glacier Bottle Co." → once.
    line = line.replace(new RegExp(`(${escaped})(?:[\\s,:;–—-]*${escaped})+`, "gi"), "$1");
  }
  // "Co.." or "keep?." : one closing mark.
  line = line
    .replace(/\.\.(?!\.)/g, ".")
    .replace(/([?!])\.+/g, "$1")
    // …but "3 a.m.?" keeps the abbreviation's own stop.
    .replace(/(?<!\b\p{L}\.\p{L})\.([?!])/gu, "$1");
  line = collapse(line);
  if (asks(line) && !/[?!]$/.test(line)) line = `${line.replace(/[.,;:]+$/, "")}?`;
  return line;
}

/**
 * The line, then each shorter version that ends where a clause ends (longest first), with the line's own
 * closing mark. A cut keeps at least two words and ten characters; nothing else is offered.
 */
export function clauseCuts(text: string): string[] {
  const line = collapse(text);
  const mark = terminal(line);
  const keepMark = mark === "?" || mark === "!" ? mark : "";
  const cuts: string[] = [line];
  for (const match of line.matchAll(BOUNDARY)) {
    const head = stripDangling(line.slice(0, match.index).replace(/[\s,;:–—-]+$/, ""), true);
    // A cut inside brackets or quotes would leave one open.
    const open = (head.match(/[("“]/g)?.length ?? 0) - (head.match(/[)"”]/g)?.length ?? 0);
    if (open > 0) continue;
    if (head.split(" ").length < 2 || head.length < 10 || dangles(head)) continue;
    const cut = `${head.replace(/[.]+$/, "")}${keepMark}`;
    if (!cuts.includes(cut)) cuts.push(cut);
  }
  return cuts.sort((a, b) => b.length - a.length);
}

/** The longest clause cut of `text` in at most `max` characters, or null when no clause ends in time. */
export function shortenAtClause(text: string, max: number): string | null {
  return clauseCuts(text).find((cut) => cut.length <= max) ?? null;
}

/**
 * A short name or label from `text` (a product, an audience) in at most `max` characters: a clause cut, else
 * its first words that fit, without a dangling "with" (a label, not a sentence: no ellipsis either way).
 */
export function shortLabel(text: string, max: number): string {
  const line = collapse(text);
  if (line.length <= max) return line;
  const cut = shortenAtClause(line, max);
  if (cut) return cut;
  const words = stripDangling(line.slice(0, max + 1).replace(/\s+\S*$/, ""), true).replace(/[.,;:–—-]+$/, "");
  return words || (line.split(" ")[0] ?? line);
}

/**
 * The problem a benefit solves, as a question the viewer would say yes to, or null when no grammatical one
 * can be made (copy-grammar.ts): "Coffee that lasts" → "Want coffee that lasts?"; "Keeps drinks cold all
 * day" → "Need something that keeps drinks cold all day?"; "Audit our shop page" → "Ready to audit our
 * shop page?"; a statement with its own subject ("We ship fast") → null.
 */
export function questionFromBenefit(benefit: string, names: readonly string[] = []): string | null {
  if (/\?$/.test(benefit.trim())) return collapse(benefit) || null;
  return asQuestion(benefit, "benefit", names);
}
