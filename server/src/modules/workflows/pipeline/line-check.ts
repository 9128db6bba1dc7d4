// Whether a line reads as English a copywriter would sign, judged on its parse: a sentence has a finite
// verb, a question its auxiliary (or is an elliptical one: "Tired of hidden fees?", "Losing hours?"), a
// fragment is a complete noun phrase; nothing ends on a word that needs more after it; a list of values is
// not a line; sentence case, with names (the brand's, the product's, places) keeping their capitals. The
// built-in copywriter drops or rewrites a line that fails, and the model's lines are judged the same way.
import { ENDING_PARTICLE, type Word, is, isAuxiliary, isNameWord, joinWords, parse, QUESTION_WORDS, verbForms } from "./sentence-parse.ts";

/** Words that carry on past the end of a line: the clause was cut after them. */
const DANGLING_TAGS = ["Preposition", "Conjunction", "Determiner"];
const DANGLING_WORDS = new Set(
  "a an the your our their its my his her with and or but of to for from by than that which who whose".split(" "),
);
/** Openers that ask for an object ("Want …", "Need …"): an elliptical "Do you want …?". */
const WISH = new Set(["want", "need"]);
/** Adjectives that open an elliptical question ("Tired of …?", "Ready to …?"). */
const QUESTION_ADJECTIVE =
  /^(tired|sick|fed|done|ready|bored|stuck|new|looking|still|craving|hungry|thirsty|worried|scared|afraid|curious)$/i;

const words = (line: string) => parse(line);
const coreOf = (line: string) => line.trim().replace(/[.!?]+$/, "");

/** A verb that makes a clause here: tensed, not an "-ing" form, not a participle after a noun-less opener. */
function finiteAt(list: Word[], i: number): boolean {
  const word = list[i];
  if (!is(word, "Verb") || is(word, "Gerund") || word!.lower.endsWith("ing")) return false;
  const before = list[i - 1];
  if (is(word, "PastTense") && (!is(before, "Noun", "Pronoun", "Auxiliary", "Copula") || before!.lower.endsWith("ing"))) return false;
  return true;
}
const hasFiniteVerb = (list: Word[]) => list.some((_, i) => finiteAt(list, i));

/** "Direct trade, freshness, craft": short parts between commas, none with a verb or a figure. */
export function isValueList(line: string): boolean {
  const parts = coreOf(line)
    .split(/\s*,\s*|\s+(?:and|&)\s+(?=[^,]*$)/)
    .filter(Boolean);
  if (parts.length < 2 || !line.includes(",")) return false;
  return parts.every((part) => {
    const list = words(part);
    // "Shop now", "Keep drinks cold": an imperative is a clause; "Direct trade" is a value.
    const imperative = is(list[0], "Verb") && !list[0]!.lower.endsWith("ing") && (list.length >= 3 || is(list[1], "Adverb"));
    const clause = list.some((_, i) => i > 0 && finiteAt(list, i)) || imperative;
    return list.length <= 4 && !clause && !/\d|\bfree\b/i.test(part);
  });
}

/** The capitals a line may have mid-sentence: names' words, acronyms, "I", a word after a full stop or colon. */
function caseProblem(line: string, names: readonly string[]): string | null {
  const kept = new Set(names.flatMap((name) => name.split(/\s+/)).map((w) => w.replace(/[^\p{L}\p{N}'’-]/gu, "")));
  const tokens = line.split(/\s+/);
  const first = tokens[0]?.replace(/^[^\p{L}\p{N}]+/u, "") ?? "";
  if (/^\p{Ll}/u.test(first) && !kept.has(first.replace(/[^\p{L}\p{N}'’-]/gu, ""))) return "does not start with a capital";
  for (let i = 1; i < tokens.length; i++) {
    const bare = tokens[i]!.replace(/[^\p{L}\p{N}'’-]/gu, "");
    if (!/^\p{Lu}\p{Ll}/u.test(bare) || kept.has(bare) || bare === "I") continue;
    if (/[.!?:]$/.test(tokens[i - 1]!)) continue;
    if (isNameWord(bare)) continue;
    return `writes "${bare}" with a capital mid-sentence`;
  }
  return null;
}

/** A credential or a trend said as a fact: no one "wants" it ("since 1998", "licensed", "up 40%"). */
const NOT_WISHED = /\b(since|est\.?|established|certified|licensed|insured|accredited|award|up|down)\b/i;

/**
 * A noun phrase a wish or a struggle can take: it opens on a noun, an adjective or a figure, and no verb
 * stands before its own relative clause ("Coffee that lasts", "Brighter skin in 4 weeks"; not "Made with
 * teachers", "Small businesses overpay for software").
 */
export function isNounPhrase(text: string): boolean {
  const list = parse(text.replace(/[.!?]+$/, ""));
  const first = list[0];
  if (!first || NOT_WISHED.test(text)) return false;
  // "Ten minutes a day" is a measure, not a thing one wants.
  if (!is(first, "Noun", "Adjective", "Determiner") || is(first, "Pronoun", "PastTense", "Gerund", "Value", "Date")) return false;
  if (is(first, "Verb") && !is(first, "Noun", "Adjective")) return false;
  const relative = list.findIndex((w) => /^(that|which|who|whose)$/.test(w.lower));
  const head = relative < 0 ? list : list.slice(0, relative);
  // A predicate without its verb ("Emergency line open 24/7", "People first", "Open late Thursdays") is a
  // sentence cut short: after the head noun (or before any noun) no adjective or adverb stands alone.
  const noun = head.findIndex((w) => is(w, "Noun") && !is(w, "Adjective"));
  if (noun < 0) return false;
  // "Shave minutes off your marathon": a verb compromise reads as a noun, said after "you", is an imperative.
  if (is(list[1], "Plural", "Determiner", "Possessive")) {
    const asVerb = parse(`you ${text.charAt(0).toLowerCase()}${text.slice(1)}`)[1];
    if (is(asVerb, "Infinitive", "PresentTense") && !is(asVerb, "Noun", "PastTense") && verbForms(first.lower)?.infinitive === first.lower)
      return false;
  }
  if (head.slice(0, noun).some((w) => is(w, "Adverb"))) return false;
  const beforePreposition = head.slice(noun + 1).findIndex((w) => is(w, "Preposition"));
  const tail = beforePreposition < 0 ? head.slice(noun + 1) : head.slice(noun + 1, noun + 1 + beforePreposition);
  if (tail.some((w) => is(w, "Adverb", "Ordinal") || (is(w, "Adjective") && !is(w, "Noun")))) return false;
  // A time ("late Thursdays", "every weekend") is when, not what.
  const heads = head.filter((w, i) => is(w, "Noun") && !is(head[i + 1], "Noun"));
  if (heads.length && heads.every((w) => is(w, "Date", "WeekDay", "Month"))) return false;
  // compromise may read a plural noun as a verb at the end of the phrase ("night-shift nurses"): a verb is one only before more words.
  return !head.some(
    (w, i) => i > 0 && is(w, "Verb") && !is(w, "Gerund", "Noun", "Adjective") && (i < head.length - 1 || !w.lower.endsWith("s")),
  );
}

function questionProblem(list: Word[]): string | null {
  const start = list.findIndex((w) => !/^(so|and|but|still|really|honestly)$/.test(w.lower));
  const first = list[start];
  if (!first) return "is an empty question";
  if (isAuxiliary(first) || QUESTION_WORDS.has(first.lower)) {
    return list.length - start >= 2 ? null : "is a question with nothing after its auxiliary";
  }
  // "Ready to pick your beans, pause anytime?": a second clause after a comma is no part of one question.
  const comma = list.findIndex((w) => w.after.includes(","));
  const afterComma = list[comma + 1];
  const clauseAfter =
    !!afterComma &&
    !is(afterComma, "Gerund") &&
    (is(afterComma, "Verb") ||
      (verbForms(afterComma.lower)?.infinitive === afterComma.lower &&
        (!list[comma + 2] || is(list[comma + 2], "Adverb", "Determiner", "Possessive", "Pronoun", "Noun"))));
  if (comma >= 0 && clauseAfter && !isAuxiliary(first)) {
    return "joins two clauses in one question";
  }
  if (WISH.has(first.lower)) {
    // "Want freelancers lose hours…?": a subject and its own verb after the wish is two clauses glued.
    const rest = list.slice(start + 1);
    if (rest.some((w) => w.after.includes(","))) return "lists things in a question";
    // "Want made with teachers?", "Want people first?": a wish takes a thing (or "to" and a verb).
    const object = joinWords(rest);
    // "Want you're not alone?": a pronoun with its own verb is a clause.
    if (/['’](re|s|ve|ll|m|d)$/.test(rest[0]?.lower ?? "") || (is(rest[0], "Pronoun") && is(rest[1], "Verb", "Copula", "Negative")))
      return "is a statement glued to a question (no auxiliary)";
    if (rest[0] && rest[0].lower !== "to" && !is(rest[0], "Pronoun") && !isNounPhrase(object))
      return "wishes for something that is not a thing";
    const verbAfterNoun = rest.some(
      (w, i) => i > 0 && finiteAt(rest, i) && !is(w, "PastTense") && !/^(that|which|who|to|you|i|we)$/.test(rest[i - 1]!.lower),
    );
    return verbAfterNoun ? "is a statement glued to a question (no auxiliary)" : null;
  }
  if (is(first, "Gerund") || first.lower.endsWith("ing") || QUESTION_ADJECTIVE.test(first.lower) || is(first, "Adjective")) return null;
  // A subject and its verb with a question mark is a statement: the auxiliary is missing.
  const subjectThenVerb = list.some((_, i) => i > start && is(list[i - 1], "Noun", "Pronoun") && finiteAt(list, i));
  if (subjectThenVerb) return "is a statement with a question mark (no auxiliary)";
  return null;
}

function endProblem(list: Word[], question: boolean): string | null {
  const last = list[list.length - 1];
  const before = list[list.length - 2];
  if (!last) return null;
  // "…a gym you never get to?": a preposition kept by its verb is English.
  // "Cold for the long way up.": an adverb particle after its noun closes the phrase.
  const stranded =
    (is(before, "Verb") && /^(to|on|for|with|about|in|into|up|out|at|of)$/.test(last.lower)) ||
    (is(before, "Noun", "Adverb") && ENDING_PARTICLE.test(last.lower));
  if ((DANGLING_WORDS.has(last.lower) || is(last, ...DANGLING_TAGS) || is(last, "Possessive")) && !stranded && !is(last, "Noun", "Value")) {
    return `ends on "${last.text}", with the clause cut after it`;
  }
  // "Made for young professionals tired": an adjective after a noun, with no verb to hold it, waits for "of …".
  const held = list.slice(0, -2).some((w, i) => i > 0 && is(w, "Verb") && !is(w, "PastTense"));
  if (
    !question &&
    is(last, "Adjective", "Participle", "PastTense") &&
    is(before, "Plural", "Noun") &&
    !held &&
    !list[0]?.lower.match(/^(keep|stay|feel|get)/)
  ) {
    return `ends on "${last.text}", an adjective with nothing after it`;
  }
  return null;
}

/** Why `line` is not a line a copywriter would sign, or null when it is. `names` keep their capitals. */
export function lineProblem(line: string, names: readonly string[] = []): string | null {
  const text = line.trim();
  if (!text) return null;
  if (/(…|\.\.\.)$/.test(text)) return "ends in an ellipsis";
  const list = words(coreOf(text));
  if (!list.length) return "has no words";
  const question = text.endsWith("?");
  if (isValueList(text)) return "is a list of values, not a line";
  // "Covr does, from $5 a month": an auxiliary standing for the verb of the sentence before needs that sentence.
  const proVerb = list.findIndex((w) => /^(does|do|did|can|will|is|are)$/.test(w.lower));
  if (!question && proVerb > 0 && (proVerb === list.length - 1 || /[,;]/.test(list[proVerb]!.after)) && is(list[proVerb - 1], "Noun")) {
    return `leans on the sentence before it ("${list[proVerb]!.text}" stands for its verb)`;
  }
  const ending = endProblem(list, question);
  if (ending) return ending;
  if (question) {
    const problem = questionProblem(list);
    if (problem) return problem;
  } else if (/[.!]$/.test(text) && !hasFiniteVerb(list) && !is(list[0], "Verb") && list.length > 3) {
    return "is a sentence without a verb";
  }
  return caseProblem(text, names);
}
