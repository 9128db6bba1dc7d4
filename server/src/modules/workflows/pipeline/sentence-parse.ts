// A line of copy as English: its words with compromise's part-of-speech tags, so the copywriter's rules read
// nouns, verbs, clauses and phrases instead of matching letters. compromise is deterministic and works
// offline; a parse is cached because the same brief sentence is read by several rules.
import nlp from "compromise";

export interface Word {
  /** As written, without the punctuation around it. */
  text: string;
  /** Lower case, for comparing. */
  lower: string;
  tags: Set<string>;
  /** The punctuation right after the word ("," ";" "?"). */
  after: string;
  /** As written with what surrounds it (spaces, hyphens, quotes), so words join back as they were. */
  raw: string;
}

type Term = { text: string; pre?: string; post?: string; tags?: string[] };
type ParsedSentence = { terms: Term[] };

const cache = new Map<string, Word[]>();
const CACHE_MAX = 2000;

/** The words of `text` (every sentence of it, in order), tagged. */
export function parse(text: string): Word[] {
  const hit = cache.get(text);
  if (hit) return hit;
  const sentences = nlp(text).json() as ParsedSentence[];
  const words: Word[] = [];
  for (const term of sentences.flatMap((sentence) => sentence.terms)) {
    const raw = `${term.pre ?? ""}${term.text}${term.post ?? ""}`;
    // A term without text ("35-55" is read as 35, a range joint, 55) keeps its spacing on the word before.
    const previous = words[words.length - 1];
    if (!term.text) {
      if (previous) previous.raw += raw;
      continue;
    }
    words.push({ text: term.text, lower: term.text.toLowerCase(), tags: new Set(term.tags ?? []), after: (term.post ?? "").trim(), raw });
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(text, words);
  return words;
}

/** Words joined back as they were written (hyphens and spaces kept), without the last one's punctuation. */
export const joinWords = (list: Word[]) =>
  list
    .map((w, i) => (i === list.length - 1 ? w.raw.replace(/[\s,;:.!?]+$/, "") : w.raw))
    .join("")
    .trim();

export const is = (word: Word | undefined, ...tags: string[]) => !!word && tags.some((tag) => word.tags.has(tag));

/** A verb that makes a clause: it has a tense, and is not a gerund or a participle standing alone. */
export const isFiniteVerb = (word: Word | undefined) =>
  is(word, "Verb") && !is(word, "Gerund") && (is(word, "PresentTense", "PastTense", "Copula", "Modal", "Auxiliary", "Infinitive") || false);

/** Words that start a question: an auxiliary or modal verb first, or a question word. */
const AUXILIARY = new Set(
  "do does did is are was were am can could will would should shall may might must has have had isn't aren't doesn't don't didn't won't can't wouldn't shouldn't haven't hasn't".split(
    " ",
  ),
);
export const isAuxiliary = (word: Word | undefined) => !!word && AUXILIARY.has(word.lower);
export const QUESTION_WORDS = new Set("how what why when where who which whose whom".split(" "));

/** The forms of a verb ("lose" → losing, loses, lost), or null when compromise does not know it as one. */
export function verbForms(verb: string): { infinitive: string; gerund: string; present: string; past: string } | null {
  const forms = (nlp(verb).verbs().conjugate() as Record<string, string>[])[0];
  if (!forms?.Infinitive || !forms.Gerund) return null;
  return {
    infinitive: forms.Infinitive,
    gerund: forms.Gerund,
    present: forms.PresentTense ?? forms.Infinitive,
    past: forms.PastTense ?? forms.Infinitive,
  };
}

/** True when compromise reads `word` as a name (a place, a person, an organisation) even written in lower case. */
export function isNameWord(word: string): boolean {
  const read = parse(word.toLowerCase());
  return (
    read.length > 0 &&
    read.every((w) => is(w, "Place", "Person", "Organization", "WeekDay", "Month", "Demonym", "Country", "City", "Language", "Region"))
  );
}

/** Particles that close a phrase after a noun ("the long way up", "from the ground up"): not a cut clause. */
export const ENDING_PARTICLE = /^(up|down|out|off|away|back|over|around|along|ahead|apart|aboard|inside|outside|behind|below|above)$/;
