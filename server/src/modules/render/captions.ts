// Word-by-word captions burned into a narrated ad: one short phrase at a time (the cues are already cut into
// phrases of 2–5 words by the narration), white with a black outline, the word being said sitting on a box
// in the brand's accent colour. Each word is its own drawtext at a position measured with the font's real
// advances, so the box sits exactly behind it; every filter is gated with enable=between(t,a,b), so a frame
// only pays for the phrase on screen.
import { ffColor, parseHex } from "./color.ts";
import type { FontMetrics } from "./font-metrics.ts";
import { filter } from "./graph.ts";
import type { CaptionCue } from "./types.ts";

export interface CaptionArea {
  /** Horizontal room for the phrase (it is centred in it). */
  x: number;
  w: number;
  /** The lowest pixel row the caption (box and outline included) may touch. */
  bottom: number;
}

export interface CaptionOptions {
  cues: CaptionCue[];
  area: CaptionArea;
  /** Type size before shrinking to fit, px. */
  fontSize: number;
  /** `#rrggbb` of the box behind the word being said. */
  accent: string;
  fontPath: string;
  metrics: FontMetrics;
  durationSec: number;
  /** Draw only the cues said during [fromSec, toSec) (one scene's segment); the others still set the casing. */
  within?: { fromSec: number; toSec: number };
}

export interface Captions {
  /** Filter steps for a chain over the whole video. */
  steps: string[];
  files: { name: string; content: string }[];
  /** The caption band's top row (the highest any phrase reaches); null without captions. */
  top: number | null;
}

const ALL_CAPS = /^[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;

/**
 * Sentence case for the screen: a shouted word (four or more capitals, no lower case: `SUMMER`, `TODAY!`)
 * is written in lower case, capitalised when it starts a sentence; short capitals (`AI`, `USA`) are kept as
 * acronyms, and every other word is shown as it is spoken.
 */
export function sentenceCase(words: string[], startsSentence: boolean): string[] {
  let capital = startsSentence;
  return words.map((word) => {
    let shown = ALL_CAPS.test(word) ? word.toLowerCase() : word;
    if (capital) shown = shown.replace(/\p{L}/u, (c) => c.toUpperCase());
    capital = /[.!?]["'\u201d\u2019)]*$/.test(word);
    return shown;
  });
}

const t3 = (t: number) => t.toFixed(3);

export function captionFilters(options: CaptionOptions): Captions {
  const { cues, area, metrics, fontPath, durationSec } = options;
  const steps: string[] = [];
  const files: Captions["files"] = [];
  const box = ffColor(parseHex(options.accent), 0.95);
  let top: number | null = null;
  let startsSentence = true;
  cues.forEach((cue, i) => {
    const spoken = cue.words?.length ? cue.words : [{ text: cue.text, startSec: cue.startSec, endSec: cue.endSec }];
    const cueEnd = Math.min(cue.endSec, durationSec);
    const shown = sentenceCase(
      spoken.map((w) => w.text.replace(/\s+/g, " ").trim()),
      startsSentence,
    );
    startsSentence = /[.!?]["'\u201d\u2019)]*$/.test(cue.text.trim());
    if (!shown.join("") || cueEnd <= cue.startSec) return;
    if (options.within && (cueEnd <= options.within.fromSec || cue.startSec >= options.within.toSec)) return;
    let size = options.fontSize;
    const widthAt = (s: number) => metrics.measure(shown.join(" "), s);
    while (size > 14 && widthAt(size) > area.w) size -= 1;
    const space = metrics.measure(" ", size);
    const pad = Math.round(size * 0.18);
    const outline = Math.max(2, Math.round(size * 0.08));
    const lineH = Math.round(size * (metrics.ascent + metrics.descent));
    // The box (pad and outline around the line) ends at area.bottom.
    const boxBottom = area.bottom - outline;
    const y = boxBottom - pad - lineH;
    top = Math.min(top ?? y - pad, y - pad - outline);
    let x = Math.round(area.x + (area.w - widthAt(size)) / 2);
    const shownFor = `between(t,${t3(cue.startSec)},${t3(cueEnd)})`;
    shown.forEach((word, k) => {
      const w = metrics.measure(word, size);
      const timed = cue.words?.[k];
      if (timed) {
        // The word is marked from when it is heard until the next word starts (the last: until it ends).
        const from = Math.max(cue.startSec, timed.startSec);
        const to = Math.min(cueEnd, cue.words![k + 1]?.startSec ?? Math.max(timed.endSec, from + 0.25));
        if (to > from) {
          steps.push(
            filter("drawbox", {
              x: x - pad,
              y: y - pad,
              w: Math.round(w + 2 * pad),
              h: lineH + 2 * pad,
              color: box,
              t: "fill",
              enable: `between(t,${t3(from)},${t3(to)})`,
            }),
          );
        }
      }
      const name = `cap-${i}-${k}.txt`;
      files.push({ name, content: word });
      steps.push(
        filter("drawtext", {
          fontfile: fontPath,
          textfile: name,
          expansion: "none",
          fontsize: size,
          fontcolor: "white",
          borderw: outline,
          bordercolor: "black",
          x,
          // The line's top at y: the glyphs sit on a shared baseline whatever their own height.
          y: `${y}+${Math.round(size * metrics.ascent)}-ascent`,
          enable: shownFor,
        }),
      );
      x += Math.round(w + space);
    });
  });
  return { steps, files, top };
}
