// What `pnpm ad-review` checks on every frame it reads back: the defects a marketer named, as far as a
// machine can see them. A check that fires is a defect whatever the unit tests say; one that stays quiet
// proves little, so every contact sheet is also looked at.
import type { ReviewBrief } from "./briefs.ts";

export interface FrameReading {
  file: string;
  atSec: number;
  lines: string[];
}

export interface Finding {
  frame?: string;
  defect: string;
}

/** Words of camera and stage direction: none of them belongs on screen in an ad. */
const DIRECTION =
  /\b(push-?ins?|close-?ups?|slow[- ]motion|b-?roll|camera|films? (a|an|the)|selfie review|talks to camera|screen recordings?|quick cuts|handheld shots?|open on|end on the logo|show the|take the structure|reference ad|voice-?over)\b/i;

/** Words that describe a voice, not a product: a line made of nothing else is a tone note. */
const TONE_WORDS = new Set(
  "warm calm casual honest confident reassuring friendly family-friendly playful bold epic funny fun upbeat cheerful energetic relaxed authentic professional witty elegant modern luxurious minimal premium gentle cosy cozy trustworthy sincere chatty punchy serious light-hearted lighthearted quirky inspiring".split(
    " ",
  ),
);
const FILLER = new Set(["a", "bit", "little", "very", "and", "but", "yet", "not", "too", "quite", "slightly"]);

/** "Casual, honest, a bit funny." or "Warm and family-friendly.": tone words and fillers only. */
function isToneLine(line: string): boolean {
  const words = line
    .toLowerCase()
    .replace(/[.,;:!]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  return words.some((w) => TONE_WORDS.has(w)) && words.every((w) => TONE_WORDS.has(w) || FILLER.has(w));
}

const ELLIPSIS = /(…|\.\.)\s*$/;

/** Defects in what one frame shows. */
export function frameFindings(frame: FrameReading): Finding[] {
  const findings: Finding[] = [];
  for (const line of frame.lines) {
    if (ELLIPSIS.test(line)) findings.push({ frame: frame.file, defect: `a line ends in an ellipsis: "${line}"` });
    const direction = DIRECTION.exec(line);
    if (direction) findings.push({ frame: frame.file, defect: `direction on screen ("${direction[0]}"): "${line}"` });
    if (isToneLine(line)) findings.push({ frame: frame.file, defect: `a tone line on screen: "${line}"` });
  }
  return findings;
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** Defects of the ad as a whole: a quoted tagline that never appears. */
export function adFindings(brief: ReviewBrief, frames: FrameReading[]): Finding[] {
  if (!brief.tagline || frames.length === 0) return [];
  const shown = squash(frames.flatMap((f) => f.lines).join(" "));
  return shown.includes(squash(brief.tagline)) ? [] : [{ defect: `the tagline "${brief.tagline}" is not on screen` }];
}
