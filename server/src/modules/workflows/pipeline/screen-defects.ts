// What a marketer sees at once on a storyboard's screen and would never post, so the score catches it before a render: a line cut
// short ("…", "stainless steel with."), doubled or missing punctuation ("Co..", a question ending in "."),
// a sentence of the brief's direction or tone shown as copy ("Slow push-ins on the steel", "Casual,
// honest, a bit funny."), two scenes' text visible together while a transition blends them, and what the
// story leaves empty or overfull: a beat or scene with no copy, no call to action, a wall of text. The
// creative score reads this list; the words are the reasons shown to the user.
import type { Scene, Storyboard } from "../../render/types.ts";

/** Words a finished line does not end on: the clause goes on after them. */
const JOINT_END = /(?:^|\s)(with|and|or|but|for|to|of|the|a|an|by|from|into|than|that|your|our|their|its)\s*[.,;:–—-]*$/i;
const ELLIPSIS_END = /(…|\.\.\.)\s*$/;
const DOUBLED_STOP = /[^.]\.\.(\s|$)/;
/** A question by its opening words ("How long does it…", "Why is…"), which must end with a question mark. */
const QUESTION_START =
  /^(how (long|much|many|often|do|does|did|can|is|are|will|would)|what (is|are|do|does|if|would|will)|why (is|are|do|does|would|not)|when (is|are|do|does|will)|where (is|are|do|does|can)|who (is|are|does|wants?)|(is|are|does|do|can|will|would|should|have|has) (it|this|that|your|you|they|there)\b)/i;

/** Camera, shot, casting and production words: the brief telling the studio what to do, not copy. */
const DIRECTION =
  /\b(push[- ]ins?|pull[- ]outs?|close[- ]?ups?|wide shots?|establishing shots?|tracking shots?|overhead shots?|b-?roll|slow[- ]?mo(tion)? shots?|camera (moves|pans|follows|pushes|tracks|slowly|circles)|(handheld|on|to) camera|footage of|cut to|cuts? between|pans? (across|over|to)|zooms? (in|out|on)|dolly|on[- ]screen text|voice[- ]?over|narrator|narration|selfie (review|video)|films? (a|an|the|herself|himself|themselves)|the reference( ad)?|take the structure)\b/i;
/** An instruction to the studio about the picture ("Show the bottle big", "Open on the view from the top"). */
const DIRECTION_START =
  /^(show|feature|film|shoot|open on|open with|end on|end with|focus on|cut to) (the|a|an|our|its|it|them|him|her|how|some)\b/i;
/** A person cast as the narrator ("A friendly trail guide talks."). */
const CASTING = /^(a|an|the)\s[\p{L}\s'-]{0,40}\b(talks|speaks|narrates|presents|explains)\.?$/iu;
const TONE_WORDS = new Set(
  (
    "casual honest funny friendly warm playful premium luxurious bold confident calm energetic upbeat serious professional authentic " +
    "relatable witty quirky elegant minimal minimalist modern fun cheerful sincere direct punchy edgy sophisticated approachable " +
    "conversational informal formal emotional inspiring inspirational trustworthy clean natural raw genuine lighthearted light-hearted " +
    "humorous cinematic dramatic moody gentle soft loud young youthful classy cool chill relaxed"
  ).split(" "),
);
const TONE_FILLER = new Set([
  "a",
  "bit",
  "very",
  "and",
  "but",
  "not",
  "too",
  "little",
  "slightly",
  "tone",
  "voice",
  "mood",
  "style",
  "yet",
  "always",
]);
const LABELLED = /^(tone|mood|style|direction|visuals?|music|voice|camera|shots?|scene|b-roll)\s*:/i;

const words = (line: string) => line.toLowerCase().match(/[\p{L}][\p{L}'’-]*/gu) ?? [];

/** "Casual, honest, a bit funny.": only tone adjectives and fillers, at least two adjectives. */
function toneOnly(line: string): boolean {
  const all = words(line);
  const tone = all.filter((w) => TONE_WORDS.has(w)).length;
  return tone >= 2 && all.every((w) => TONE_WORDS.has(w) || TONE_FILLER.has(w));
}

/** Why one line on screen is broken, or null when it reads as finished copy. */
export function lineDefect(line: string): string | null {
  const text = line.trim();
  if (!text) return null;
  if (ELLIPSIS_END.test(text)) return "ends in an ellipsis";
  if (DOUBLED_STOP.test(text)) return "has a doubled full stop";
  if (JOINT_END.test(text)) return "stops mid-clause";
  if (QUESTION_START.test(text) && !/[?？]\s*$/.test(text)) return "is a question without its question mark";
  if (LABELLED.test(text) || DIRECTION.test(text) || DIRECTION_START.test(text) || CASTING.test(text)) return "is direction, not copy";
  if (toneOnly(text)) return "is a tone note, not copy";
  return null;
}

const linesOf = (scene: Scene) => [scene.headline, scene.body, scene.cta].filter((l): l is string => !!l?.trim());
const quote = (line: string) => `"${line.length > 60 ? `${line.slice(0, 57)}...` : line}"`;

/**
 * Two texts at once: a transition (fade, slide, wipe) blends the whole outgoing frame, text included, with
 * the incoming one; the incoming text stays out of it only when it fades in after the transition. A scene
 * without a text motion yet has not had its look (look.ts sets it): that is judged once it has.
 */
function overlapsText(previous: Scene | undefined, scene: Scene): boolean {
  if (!previous || scene.transition === "none" || scene.textMotion === undefined) return false;
  if (scene.textMotion === "fade") return false;
  return linesOf(previous).length > 0 && linesOf(scene).length > 0;
}

/** Every defect on the storyboard's screen, in words ("scene-2: \"…with.\" stops mid-clause"). */
export function screenDefects(storyboard: Storyboard): string[] {
  const found: string[] = [];
  storyboard.scenes.forEach((scene, i) => {
    for (const line of linesOf(scene)) {
      const why = lineDefect(line);
      if (why) found.push(`${scene.id}: ${quote(line)} ${why}`);
    }
    if (overlapsText(storyboard.scenes[i - 1], scene)) {
      found.push(`${scene.id}: its text and the previous scene's are on screen together during the ${scene.transition}`);
    }
  });
  return found;
}

/** More words than this on one scene (headline and body) is a wall of text, not an ad. */
export const WALL_OF_TEXT_WORDS = 22;
const wordCount = (text: string | undefined) => (text ? (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length : 0);

/** A framework beat as the art direction lists it: written or left out (`BeatNote`), or with its text (a reference's beats). */
interface ListedBeat {
  role?: unknown;
  written?: unknown;
  text?: unknown;
}

/**
 * What the story leaves empty or overfull: a beat listed with no copy, a scene with nothing to read (a pure
 * end card showing the logo is fine), an ad that never asks for anything, a scene that is a wall of text.
 * A beat the art director left out on purpose (`written: false`) is not on screen at all, so it is no defect.
 */
export function storyDefects(storyboard: Storyboard): string[] {
  const found: string[] = [];
  const hasLogo = !!(storyboard.brand.logoPath || storyboard.brand.logoKey);
  const beats = (storyboard as Storyboard & { beats?: unknown }).beats;
  const told = new Set<Scene>();
  for (const beat of Array.isArray(beats) ? (beats as ListedBeat[]) : []) {
    const role = typeof beat?.role === "string" ? beat.role : "a";
    const scene = storyboard.scenes.find((s) => s.id === role || s.id.endsWith(`-${role}`));
    const emptyText = typeof beat?.text === "string" && !beat.text.trim();
    const writtenButEmpty = beat?.written === true && !!scene && linesOf(scene).length === 0;
    if (emptyText || writtenButEmpty) found.push(`The ${role} beat is listed but has no copy`);
    if (writtenButEmpty && scene) told.add(scene);
  }
  storyboard.scenes.forEach((scene, i) => {
    const endCard = hasLogo && i === storyboard.scenes.length - 1;
    if (linesOf(scene).length === 0 && !endCard && !told.has(scene))
      found.push(`Scene ${i + 1} is empty: no headline, no body and no call to action`);
    const words = wordCount(scene.headline) + wordCount(scene.body);
    if (words > WALL_OF_TEXT_WORDS) found.push(`Scene ${i + 1} is a wall of text (${words} words; ${WALL_OF_TEXT_WORDS} at most)`);
  });
  if (storyboard.scenes.length && !storyboard.scenes.some((s) => s.cta?.trim())) {
    found.push("No call to action: the ad never asks the viewer to do anything");
  }
  return found;
}
