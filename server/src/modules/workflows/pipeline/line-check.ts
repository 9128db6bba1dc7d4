// Whether a line reads as English a copywriter would sign, judged on its parse: a sentence has a finite
// verb, a question its auxiliary (or is an elliptical one: "Tired of hidden fees?", "Losing hours?"), a
// fragment is a complete noun phrase; nothing ends on a word that needs more after it; a list of values is
// not a line; sentence case, with names (the brand's, the product's, places) keeping their capitals. The
// built-in copywriter drops or rewrites a line that fails, and the model's lines are judged the same way.
import { type Word, is, isAuxiliary, isNameWord, parse, QUESTION_WORDS } from "./sentence-parse.ts";

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

function questionProblem(list: Word[]): string | null {
  const start = list.findIndex((w) => !/^(so|and|but|still|really|honestly)$/.test(w.lower));
  const first = list[start];
  if (!first) return "is an empty question";
  if (isAuxiliary(first) || QUESTION_WORDS.has(first.lower)) {
    return list.length - start >= 2 ? null : "is a question with nothing after its auxiliary";
  }
  if (WISH.has(first.lower)) {
    // "Want freelancers lose hours…?": a subject and its own verb after the wish is two clauses glued.
    const rest = list.slice(start + 1);
    if (rest.some((w) => w.after.includes(","))) return "lists things in a question";
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
  const stranded = is(before, "Verb") && /^(to|on|for|with|about|in|into|up|out|at|of)$/.test(last.lower);
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
