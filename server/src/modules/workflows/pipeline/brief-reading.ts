// Reading a brief as a brief: each sentence of the concept is copy (a claim, a benefit, a question to the
// viewer), direction (camera, shot, scene, action, pacing: what the crew does), tone (how the ad sounds)
// or a quoted tagline or call to action (said word for word). Only copy and quoted lines may reach the
// screen or the narration. Deterministic and general: a lexicon of film-making words, imperatives
// addressed to the crew, a person described doing something on camera, and adjective-only fragments.
import type { BriefReading, BriefSentenceKind, WorkflowRequest } from "@adgen/schema";
import { MOOD_OF_TONE, TONE_WORDS } from "./brief-lexicon.ts";

export type { BriefReading, BriefSentenceKind };

// Double, typographic and guillemet quotes; single quotes only around a phrase (not an apostrophe in a word).
export const QUOTED =
  /"([^"]{3,120})"|“([^”]{3,120})”|«([^»]{3,120})»|‘([^’]{3,120})’|(?<![\p{L}\p{N}])'([^'\n]{3,120})'(?![\p{L}\p{N}])/gu;
export const LABELLED = /\b(tagline|slogan|cta|call to action)\s*[:=]\s*("[^"]+"|“[^”]+”|[^.;\n]+)/gi;
/** A quoted line that asks the viewer to act is the call to action. */
export const CTA_VERB =
  /^(shop|buy|order|try|get|book|visit|start|join|download|sign up|subscribe|call|discover|learn|grab|claim|save|see|find|reserve|install|register|explore|taste|open|apply|switch|upgrade|donate|enrol|enroll|request|schedule|contact|text|message|follow|watch|listen|play|pre-order|preorder)\b/i;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

// Words only film-making uses: a sentence holding one is about how the ad is made, not what it says.
const FILM =
  /\b(close-?ups?|push-?ins?|pull-?outs?|pull back|b-?roll|slow[- ]?mo(tion)?|slo-?mo|camera|footage|montage|cutaways?|voice-?over|overhead|aerial|drone shot|handheld|hand-held|time-?lapse|tracking|dolly|storyboard|end card|title card|lower third|text overlay|on[- ]?screen|to camera|in frame|fill the frame|framing|split[- ]screen|jump cuts?|quick cuts|fast cuts|cuts? (to|between|back)|pans? (across|to|over|left|right|up|down)|zooms? (in|out)|(wide|medium|close|tight|final|opening|closing|last|first|hero|product|establishing|overhead|tracking|aerial|pov|macro) shots?|shots? of (the|a|an|our|her|his|their)|macro|pov|golden hour|backlit|lighting|soundtrack|music|jingle|sound design|the (reference|original) ad|the (ad|video|spot|edit|clip|reel)\b|selfie|unboxing|product reveal|vertical video|(instagram|tiktok|youtube|facebook) (reels?|shorts|stories|feed)|(white|black|plain|clean|dark|neutral|studio|blurred|solid|seamless) background|(natural|soft|warm|hard|studio|morning|evening|window|neon|diffused) light\b|pacing|fast-paced|slow-paced|the pace|per scene|scenes?\b|films?\b (a|the|her|his|their|it|them)|filming|filmed|shoot(ing)? (a|the|on|in)|\d+\s?(s|sec|secs|seconds)\b)/i;

// Imperatives a brief gives the crew ("Show the bottle big", "Use the brand colours"); the same verbs to
// the viewer speak to "you" ("Take control of your mornings") or to their life ("Make the switch") and are copy.
const CREW_VERB =
  /^(capture|reveal|place|put|mirror|copy|stage|intercut|alternate|juxtapose|open|begin|finish|end|close|focus|animate|overlay|frame)\s+(the|our|its|each|every|both|a|an|some|how|what|on|with|in|it)\b/i;
// Told to the crew whatever follows ("Show before and after photos", "Mention the warranty", "Don't mention price").
const BRIEF_VERB =
  /^(?:show|feature|highlight|emphasi[sz]e|include|mention|depict|illustrate|demonstrate|avoid (?:showing|mentioning|using|saying|filming|any)|(?:don'?t|do not|never) (?:show|mention|use|include|say|film|feature|put|make it)|no (?:text|music|voice|people|logo)|think\b.*\b(?:style|vibe|look|feel|like)|make it (?:look|feel|seem)|keep it (?:under|below|short|to))\b/i;
const WEAK_CREW_VERB = /^(take|keep|make|let|use|set|start|hold|follow|match|add|contrast|light|give)\b/i;
const VISUAL =
  /\b(product|bottle|can|jar|pack|packaging|box|label|logo|offer|price|colou?rs?|palette|structure|background|centred|centered|centre|center|big|large|visible|clearly|prominent|hero|foreground|front|angle|light|shadow|font|type|text|headline)\b/i;
// Verbs only a crew is told: no object needed ("Pan slowly.", "Linger.").
const CREW_ONLY_VERB = /^(film|shoot|pan|zoom|track|linger|fade|intercut|dolly|cut to|open on|end on|close on|start on)\b/i;
const TO_THE_VIEWER = /\b(you|your|yours|yourself|you're|you'll)\b/i;

// Someone on camera doing something: "A cyclist films a selfie review", "A friendly trail guide talks."
const PERSON =
  /^(a|an|the|two|three|some|one|our)\s+(?:[\w-]+\s+){0,3}?(man|woman|men|women|guy|girl|boy|kid|kids|child|children|mom|mum|dad|parent|parents|cyclist|runner|hiker|guide|chef|cook|barista|nurse|doctor|presenter|host|narrator|creator|influencer|customer|founder|owner|athlete|student|teacher|worker|family|friends?|couple|team|baker|mechanic|farmer|gamer|traveller|traveler|shopper|model|actor|actress|person|someone|people|grandma|grandpa|teen|teenager|commuter|driver|rider|skater|climber|surfer|swimmer|dancer|stylist|designer|developer|entrepreneur|employee|staff|waiter|bartender|patient|homeowner|plumber|electrician|builder|gardener|dog|cat|baby|toddler|bride|groom|mother|father|spokesperson|expert|scientist|dentist|trainer|coach|player|musician|artist|florist|butcher|vet|pharmacist|user|viewer|golden retriever|puppy)\s+(?:(?:slowly|quickly|then|also|happily|calmly|finally|casually)\s+)?(talks?|speaks?|says?|films?|opens?|pours?|drinks?|grabs?|holds?|walks?|runs?|rides?|smiles?|laughs?|looks?|shows?|tries|try|uses?|unbox(es)?|reviews?|cooks?|tastes?|wakes?|sits?|stands?|jumps?|dances?|picks?|puts?|takes?|hands?|gives?|turns?|reads?|hikes?|climbs?|sips?|wipes?|unpacks?|applies|apply|demos?|demonstrates?|explains?|tells?|shares?|points?|reaches?|lifts?|carries|carry|wears?|plays?|packs?|fills?|reveals?|notices?|struggles?|sweats?|sleeps?|enters?|arrives?|leaves?|finishes?|stretches?|presents?|records?|chats?|addresses|address|greets?|waves?|nods?|sets?|places?|slices?|bites?|eats?|hugs?|cheers?|celebrates?|taps?|swipes?|scrolls?|clicks?|types?|relax(es)?|unwinds?)\b/i;
// A thing on camera doing something only a picture shows ("The car glides through the city at night").
const ON_CAMERA =
  /^(a|an|the|two|three|some)\s+(?:[\w'-]+\s+){0,3}?(glides?|splash(es)?|spins?|rolls? (across|down|off|into)|falls? (into|onto|on)|drops? (into|onto)|pours? (into|over)|lands? (on|in)|races? (through|across|down)|sprints?|dives?|floats?|melts?|sizzles?|bubbles?|fizz(es)?|taps?|swipes?|scrolls?|runs? (across|through|along|down|up|into|past)|wakes? up)\b/i;
const WE_SEE = /^(we|viewers?|the viewer|audience)\s+(see|hear|follow|watch|open|cut|end|meet|start)\b/i;

// Labels a brief may write a sentence under.
const DIRECTION_LABEL =
  /^(direction|directions|visuals?|shots?|scenes?|camera|setting|location|b-?roll|music|format|pacing|style notes?)\s*[:–—-]\s*/i;
const TONE_LABEL = /^(tone|voice|mood|vibe|feel|personality|tone of voice|narrator|narration|voice-?over|vo)\s*[:–—-]\s*/i;
const COPY_LABEL =
  /^(hook|headline|benefits?|proof|offer|claim|message|key message|usp|text on[- ]?screen|on[- ]?screen text|screen text|super|caption)\s*[:–—-]\s*/i;

const TONE_FILLER = new Set([
  "a",
  "bit",
  "little",
  "very",
  "slightly",
  "really",
  "not",
  "too",
  "and",
  "but",
  "yet",
  "super",
  "quite",
  "somewhat",
  "never",
  "always",
  "more",
  "less",
  "of",
  "kind",
  "sort",
  "also",
  "while",
  "still",
  "with",
  "touch",
  "the",
  "tone",
  "voice",
  "feel",
  "vibe",
  "mood",
  "keep",
  "it",
  "be",
  "should",
  "sound",
  "sounds",
  "is",
]);

/** True for a fragment of voice adjectives only ("Casual, honest, a bit funny."), or one that asks for them ("Keep it light."). */
function isTone(sentence: string): boolean {
  const words = sentence
    .toLowerCase()
    .replace(/[^\p{L}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 14) return false;
  const adjectives = words.filter((w) => TONE_WORDS.has(w));
  return adjectives.length > 0 && words.every((w) => TONE_WORDS.has(w) || TONE_FILLER.has(w));
}

/** The kind of one unquoted sentence of a brief. */
export function classifySentence(raw: string): BriefSentenceKind {
  const sentence = collapse(raw);
  if (TONE_LABEL.test(sentence)) return "tone";
  if (DIRECTION_LABEL.test(sentence)) return "direction";
  if (COPY_LABEL.test(sentence)) return "copy";
  if (isTone(sentence)) return "tone";
  if (sentence.endsWith("?")) return "copy";
  const toViewer = TO_THE_VIEWER.test(sentence);
  if (FILM.test(sentence) && !(toViewer && !CREW_ONLY_VERB.test(sentence))) return "direction";
  if (PERSON.test(sentence) || WE_SEE.test(sentence) || (ON_CAMERA.test(sentence) && !toViewer)) return "direction";
  if (BRIEF_VERB.test(sentence) && !/^show up\b/i.test(sentence) && !toViewer) return "direction";
  if (/^make it sound\b/i.test(sentence)) return "tone";
  if (CREW_ONLY_VERB.test(sentence)) return "direction";
  // "Show the bottle big": a crew verb on a thing, not on the viewer's life.
  if (!toViewer && (CREW_VERB.test(sentence) || (WEAK_CREW_VERB.test(sentence) && VISUAL.test(sentence)))) return "direction";
  // "Then the view from the top.": a shot list's continuation.
  if (/^(then|next|after that|finally|cut)\b/i.test(sentence) && !toViewer) return "direction";
  return "copy";
}

/** A sentence's words without the label it was written under ("Offer: 20% off" → "20% off"). */
export function unlabelled(sentence: string): string {
  return collapse(sentence.replace(COPY_LABEL, ""));
}

/** The sentences and clauses of free text (quotes removed by the caller), without empty bits. */
export function sentencesOf(text: string): string[] {
  return (
    text
      // A sentence ends at . ! ? before a capital, a digit or a quote: "open until 1 a.m. during Eid" is one.
      .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“'(])|\n+|;\s+/u)
      .map((line) => collapse(line).replace(/^[-•*]\s*/, ""))
      .filter((line) => line.replace(/[^\p{L}\p{N}]/gu, "").length >= 3)
  );
}

/** The quoted lines of a brief, in order: each a tagline, or a call to action when labelled or imperative. */
export function quotedLines(concept: string): { text: string; cta: boolean }[] {
  const found: { text: string; cta: boolean }[] = [];
  for (const match of concept.matchAll(LABELLED)) {
    const value = collapse(match[2]!.replace(/^["“]|["”]$/g, ""));
    if (value) found.push({ text: value, cta: /cta|call to action/i.test(match[1]!) });
  }
  for (const match of concept.matchAll(QUOTED)) {
    const text = collapse(match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? "");
    if (text && !found.some((f) => f.text === text)) found.push({ text, cta: CTA_VERB.test(text) });
  }
  return found;
}

// What is left of a sentence once its quote is taken out, when it only introduced the quote ("End on", "Tagline:").
const QUOTE_LEAD =
  /^(and|then|with|end|ending|close|closing|finish|open|opening|on|the|a|an|tagline|slogan|line|cta|call to action|say|says|saying|it|card|super|title|:|,|-|–|—|\s)*[.!?]?$/i;

/**
 * The music mood the brief's tone sentences ask for, by the most tone words ("Casual, honest, a bit
 * funny." → warm); the first one written breaks a tie. Null without a tone sentence.
 */
export function moodOfTone(reading: BriefReading): keyof typeof MOOD_OF_TONE | null {
  const words = reading.filter((read) => read.kind === "tone").flatMap((read) => read.sentence.toLowerCase().match(/[\p{L}'-]+/gu) ?? []);
  let best: { mood: keyof typeof MOOD_OF_TONE; votes: number; first: number } | null = null;
  for (const [mood, list] of Object.entries(MOOD_OF_TONE) as [keyof typeof MOOD_OF_TONE, string[]][]) {
    const hits = words.flatMap((word, i) => (list.includes(word) ? [i] : []));
    if (!hits.length) continue;
    const candidate = { mood, votes: hits.length, first: hits[0]! };
    if (!best || candidate.votes > best.votes || (candidate.votes === best.votes && candidate.first < best.first)) best = candidate;
  }
  return best?.mood ?? null;
}

/**
 * The brief as a language model is given it: the concept's copy and quoted lines as its `concept`, and
 * the direction and tone apart, as notes that are never written on screen.
 */
export function briefForWriter(request: Pick<WorkflowRequest, "concept" | "brief">) {
  const reading = readBrief(request.concept, request.brief);
  const of = (...kinds: BriefSentenceKind[]) => reading.filter((read) => kinds.includes(read.kind));
  const said = of("copy", "tagline", "cta").filter((read) => read.from === "concept");
  return {
    concept: said.length ? said.map((read) => (read.kind === "copy" ? read.sentence : `"${read.sentence}"`)).join(" ") : null,
    ...(request.brief ? { lines: { ...request.brief, direction: undefined } } : {}),
    notOnScreen: { direction: of("direction").map((read) => read.sentence), tone: of("tone").map((read) => read.sentence) },
  };
}

/** How every sentence of the concept (and every field of a structured brief) was read, in order. */
export function readBrief(concept: string | null | undefined, brief?: WorkflowRequest["brief"]): BriefReading {
  const reading: BriefReading = [];
  if (concept?.trim()) {
    for (const quote of quotedLines(concept)) reading.push({ sentence: quote.text, kind: quote.cta ? "cta" : "tagline", from: "concept" });
    const unquoted = concept.replace(LABELLED, " ").replace(QUOTED, " ");
    for (const sentence of sentencesOf(unquoted)) {
      if (QUOTE_LEAD.test(sentence)) continue;
      reading.push({ sentence, kind: classifySentence(sentence), from: "concept" });
    }
  }
  if (brief) {
    const copy = (from: "hook" | "benefits" | "proof" | "offer", text: string | undefined) => {
      if (text?.trim()) reading.push({ sentence: collapse(text), kind: "copy", from });
    };
    copy("hook", brief.hook);
    for (const benefit of brief.benefits ?? []) copy("benefits", benefit);
    copy("proof", brief.proof);
    copy("offer", brief.offer);
    if (brief.cta?.trim()) reading.push({ sentence: collapse(brief.cta), kind: "cta", from: "cta" });
    for (const sentence of sentencesOf(brief.direction ?? "")) reading.push({ sentence, kind: "direction", from: "direction" });
  }
  return reading;
}
