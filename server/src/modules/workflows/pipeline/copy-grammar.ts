// Sentence transforms over the parse (sentence-parse.ts): a statement or a benefit made a question to the
// viewer, an audience's head noun phrase, sentence case with names kept. Each returns null when it cannot
// make a well-formed line, and the copywriter leaves that line out rather than print a broken one.
import { type Word, is, isNameWord, joinWords, parse, verbForms } from "./sentence-parse.ts";
import { isNounPhrase, lineProblem } from "./line-check.ts";

export { isNounPhrase };

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();
const join = joinWords;
const lowerFirst = (text: string, names: readonly string[]) => {
  const first = text.split(" ")[0] ?? "";
  if (names.some((name) => name.split(" ").includes(first)) || isNameWord(first) || /^[A-Z]{2,}/.test(first)) return text;
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
};
const upperFirst = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * The words a brief's own text capitalises mid-sentence ("baked in Springfield", "the Tempo 3"): names the
 * writer gave, which keep their capitals wherever the line puts them.
 */
export function ownCapitals(texts: readonly (string | null | undefined)[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    const tokens = collapse(text ?? "").split(" ");

    tokens.forEach((token, i) => {
      const bare = token.replace(/[^\p{L}\p{N}&'’-]/gu, "");
      if (i > 0 && /^\p{Lu}/u.test(bare) && !/[.!?:]$/.test(tokens[i - 1]!)) found.add(bare);
    });
  }
  return [...found];
}

/**
 * Sentence case: the first letter up, and a capitalised common word mid-line down ("Made for Commuters and
 * Remote Workers" → "Made for commuters and remote workers"); names, acronyms and a word after a full stop
 * or a colon keep theirs.
 */
export function sentenceCase(line: string, names: readonly string[] = []): string {
  const kept = new Set(names.flatMap((name) => name.split(/\s+/)));
  const tokens = collapse(line).split(" ");
  const out = tokens.map((token, i) => {
    const bare = token.replace(/[^\p{L}\p{N}'’-]/gu, "");
    if (i === 0 || kept.has(bare) || bare === "I" || !/^\p{Lu}\p{Ll}/u.test(bare)) return token;
    if (/[.!?:]$/.test(tokens[i - 1]!) || isNameWord(bare)) return token;
    // A name of two words ("North Carolina", "New York") is read as one.
    const pair = (a?: string, b?: string) =>
      !!a && !!b && /^\p{Lu}/u.test(a) && /^\p{Lu}/u.test(b) && isNameWord(`${a} ${b}`.replace(/[^\p{L}\s'’-]/gu, ""));
    if (pair(bare, tokens[i + 1]) || pair(tokens[i - 1], bare)) return token;
    return token.charAt(0).toLowerCase() + token.slice(1);
  });
  const first = out[0] ?? "";
  if (first && !kept.has(first.replace(/[^\p{L}\p{N}'’-]/gu, ""))) out[0] = upperFirst(first);
  return out.join(" ");
}

/** Verbs compromise may read as nouns at the start of a line ("Audit our shop page"). */
const IMPERATIVE = /^(audit|book|order|shop|plan|track|check|fix|brew|ship|clean|charge|call|visit|sign|start|try|switch|join|save)$/;
const PRONOUN_SUBJECT = /^(we|i|it|this|that|they|he|she|our|my|its|their|his|her)$/i;
const OPENS_QUESTION = /^(tired|sick|fed up|done|ready|bored|stuck|still|looking|craving|worried)\b/i;

/** The first item of a list ("Back pain, sports injuries and rehab" → "Back pain"). */
const firstItem = (text: string) => text.split(/\s*,\s*|\s+(?:and|or|&)\s+/)[0] ?? text;

/**
 * The line as a question the viewer would say yes to, or null when no grammatical one can be made:
 * "Freelancers lose hours chasing unpaid invoices" → "Losing hours chasing unpaid invoices?"; "Keeps drinks
 * cold all day" → "Need something that keeps drinks cold all day?"; "Audit our shop page" → "Ready to audit
 * our shop page?"; "Coffee that lasts" → "Want coffee that lasts?"; a pain named as a thing ("Back pain,
 * sports injuries and rehab") → "Struggling with back pain?"; a statement about us ("We ship fast") → null.
 */
export function asQuestion(source: string, kind: "pain" | "benefit" = "benefit", names: readonly string[] = []): string | null {
  const core = collapse(source).replace(/[.!…]+$/, "");
  if (!core) return null;
  if (core.endsWith("?")) return lineProblem(core, names) ? null : core;
  const list = parse(core);
  const first = list[0];
  if (!first) return null;
  const check = (line: string) => (lineProblem(line, names) ? null : line);
  if (OPENS_QUESTION.test(core) || (is(first, "Gerund") && list.length >= 3)) return check(`${upperFirst(core)}?`);
  // "You're not alone", "We ship fast": a statement with its own subject is no question to the viewer.
  if (PRONOUN_SUBJECT.test(first.lower) || is(first, "Pronoun") || /^(you|we|they|it)['’]/i.test(first.text)) return null;
  // An imperative compromise reads as a noun ("Shave minutes off your marathon"): said after "you", it is a verb.
  // Only a benefit, in the verb's plain form, with no verb of its own after it ("Product teams waste…" has one).
  const asVerb = parse(`You ${lowerFirst(core, names)}`)[1];
  const laterVerb = list.slice(1).some((w) => is(w, "Verb") && !is(w, "Gerund", "Participle", "Noun"));
  // "Back pain" is a compound noun, not "back" said to the viewer: an imperative takes an object or a modifier after it.
  const objectAfter = !list[1] || !is(list[1], "Singular") || is(list[1], "Determiner", "Possessive", "Adjective", "Adverb");
  const imperativeRead =
    kind === "benefit" &&
    !laterVerb &&
    objectAfter &&
    is(asVerb, "Infinitive", "PresentTense") &&
    !is(asVerb, "PastTense", "Gerund", "Noun") &&
    verbForms(first.lower)?.infinitive === first.lower;
  // An imperative ("Keep drinks cold") or a benefit said of the product without its subject ("Keeps drinks cold").
  // "Skates that fly", "Shoes which breathe": a word a relative clause follows is its noun, not a verb.
  const nounOfClause = /^(that|which|who)$/i.test(list[1]?.lower ?? "");
  if (!nounOfClause && ((is(first, "Verb") && !is(first, "PastTense")) || IMPERATIVE.test(first.lower) || imperativeRead)) {
    // "Pick your beans, pause anytime": two imperatives are no one question; "Let us do your books" asks nothing of the viewer.
    if (/[,;]/.test(core) || /^let\b/i.test(core)) return null;
    const rest = lowerFirst(core, names);
    const imperative = IMPERATIVE.test(first.lower) || imperativeRead || (is(first, "Infinitive") && !first.lower.endsWith("s"));
    return check(imperative ? `Ready to ${rest}?` : `Need something that ${rest}?`);
  }
  // A pain said of people like the viewer ("Freelancers lose hours chasing invoices"): their habit as a
  // question in the "-ing" form ("Losing hours …?"). A statement about the product or anything else is no question.
  const verbAt = list.findIndex((w, i) => i > 0 && is(w, "Verb") && !is(w, "Gerund", "Participle") && is(list[i - 1], "Noun", "Adverb"));
  if (verbAt > 0) {
    const verb = list[verbAt]!;
    const rest = list.slice(verbAt + 1);
    // People like the viewer: a plural subject ("Product teams", "Renters") or a person's noun, never "our" or a product.
    const subject = list.slice(0, verbAt);
    const people =
      !subject.some((w) => /^(our|my|its|this|that)$/.test(w.lower)) &&
      subject.some((w) => is(w, "Actor", "Plural") || /^(you|people|parents|owners|runners|patients)$/.test(w.lower));
    if (kind !== "pain" || !people || is(verb, "Copula", "Modal", "Auxiliary") || rest.length < 2) return null;
    if (rest.some((w) => w.after.includes(",")) || is(rest[0], "Conjunction")) return null;
    // "…for five years and still can't order a coffee": a second clause does not fit one question.
    if (rest.some((w, i) => i > 0 && is(w, "Conjunction") && rest.slice(i + 1).some((v) => is(v, "Verb", "Modal")))) return null;
    const forms = verbForms(verb.lower);
    if (!forms) return null;
    // The viewer is asked about their own: "…lose half their buyers" → "Losing half your buyers?".
    return check(`${upperFirst(forms.gerund)} ${join(rest).replace(/\btheir\b/g, "your")}?`);
  }
  // A thing: a pain is struggled with, a benefit wanted; only a noun phrase is ("Want made with teachers?",
  // "Want energy bills up 40%?", "Want chartered accountants since 1998?" are not).
  const thing = lowerFirst(kind === "pain" ? firstItem(core) : core, names);
  if (kind === "benefit" && /,/.test(core)) return null;
  if (!isNounPhrase(kind === "pain" ? firstItem(core) : core)) return null;
  if (kind === "pain" && (/\d/.test(thing) || thing.split(" ").length > 5)) return null;
  return check(kind === "pain" ? `Struggling with ${thing}?` : `Want ${thing}?`);
}

/** Words that may open an audience's noun phrase before its head noun. */
const NP_WORD = (w: Word) => is(w, "Noun", "Adjective", "Value", "Determiner") || /^(and|&|-|–)$/.test(w.lower) || /\d/.test(w.text);

/**
 * Who an ad is for, as a complete noun phrase in at most `max` characters: its head noun phrase, and what
 * qualifies it when that fits whole ("young professionals tired of hidden bank fees" → "young professionals
 * tired of hidden fees"; "women 35-55 who want retinoid results without irritation" → "women 35-55 who
 * want retinoid results"). Cut only where a noun phrase ends; lower case but for names.
 */
export function audiencePhrase(text: string, max: number, names: readonly string[] = []): string | null {
  const core = collapse(text)
    .replace(/^(made )?for\s+/i, "")
    .replace(/[.!?]+$/, "");
  const list = parse(core);
  let head = 0;
  // compromise may read a plural noun as a verb ("night-shift nurses"): at the phrase's end, after a noun, it is one.
  const pluralAtEnd = (i: number) =>
    is(list[i], "PresentTense") &&
    list[i]!.lower.endsWith("s") &&
    is(list[i - 1], "Noun") &&
    (!list[i + 1] || is(list[i + 1], "Preposition", "QuestionWord"));
  // "Parents worried about…", "Couples planning…": after a plural noun, an adjective or an "-ing" word starts
  // what qualifies it, not more of the head. "Pet parents": a noun compromise reads as a verb before the head.
  const qualifierStarts = (i: number) => i > 0 && is(list[i - 1], "Plural") && (is(list[i], "Adjective") || list[i]!.lower.endsWith("ing"));
  const modifierNoun = (i: number) => i === 0 && is(list[i], "Verb") && is(list[i + 1], "Plural");
  while (head < list.length && (NP_WORD(list[head]!) || pluralAtEnd(head) || modifierNoun(head)) && !qualifierStarts(head)) head++;
  if (head === 0 || !(is(list[head - 1], "Noun", "Value") || pluralAtEnd(head - 1))) return null;
  // Every place a noun phrase ends after the head: a candidate end of the phrase.
  const ends = [head];
  let verbSeen = false;
  for (let i = head; i < list.length; i++) {
    // A phrase ends only before a preposition, a conjunction, a new clause or the end ("…who want retinoid
    // results without irritation" ends after "results", never after "retinoid").
    const next = list[i + 1];
    // "…who want their pets | to live longer": an infinitive completes its verb, so no phrase ends before it.
    // "…with 50 | to 500 employees": a range is one phrase, so no phrase ends inside it either.
    const infinitive = next?.lower === "to" && (is(list[i + 2], "Verb") || is(list[i], "Value"));
    // Nor before a second relative clause ("…who want a vet | that knows their animal"): its noun needs it.
    const nested = verbSeen && !!next && /^(who|that|which)$/.test(next.lower);
    const boundary =
      !infinitive && !nested && (!next || is(next, "Preposition", "Conjunction", "QuestionWord") || /^(who|that|which)$/.test(next.lower));
    if (is(list[i], "Verb") && i > head)
      verbSeen = is(list[i - 1], "QuestionWord", "Preposition") || /^(who|that)$/.test(list[i - 1]!.lower) || verbSeen;
    // compromise reads "results" in "who want retinoid results" as a verb: after the clause's verb it is its object.
    const objectNoun = verbSeen && is(list[i], "PresentTense") && list[i]!.lower.endsWith("s") && is(list[i - 1], "Noun");
    if ((is(list[i], "Noun", "Value", "Plural") || objectNoun) && boundary && !/^(and|or|&)$/.test(next?.lower ?? "")) ends.push(i + 1);
    if (list[i]!.after && /[,;:]/.test(list[i]!.after)) break;
  }
  // Longest first; a long qualifier loses its noun modifiers ("hidden bank fees" → "hidden fees") before it is dropped.
  for (const end of [...new Set(ends)].sort((a, b) => b - a)) {
    const slice = list.slice(0, end);
    // Only a modifier between an adjective and its noun goes ("hidden bank fees"): "tax season" stays whole.
    const tight = slice.filter(
      (w, i) =>
        !(
          i >= head &&
          is(w, "Noun") &&
          !is(w, "Pronoun", "Possessive") &&
          is(slice[i + 1], "Noun") &&
          is(slice[i - 1], "Adjective", "Participle")
        ),
    );
    for (const phrase of [slice, tight].map((words) => sentenceCase(join(words), names))) {
      if (phrase.length <= max) return lowerFirst(phrase, names);
    }
  }
  return null;
}
