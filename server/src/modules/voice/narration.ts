// From a storyboard to a voice-over: one narration line per scene (a presenter speaking to camera, or a
// first-person creator), spoken by a VoiceSynthesizer, each scene timed to its line, the whole ad kept within
// its maximum length by dropping words (whole words, least important first), one WAV for the whole ad and
// captions cued to the words.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Scene, Storyboard } from "../render/types.ts";
import type { SpokenWord, VoiceSynthesizer } from "./types.ts";
import { encodeWav, parseWav } from "./wav.ts";

export type NarrationStyle = "presenter" | "selfie";

/** A part of a scene's line; parts with a lower priority lose words first when the ad is too long. */
export interface LinePart {
  text: string;
  priority: number;
}

export interface CaptionCue {
  startSec: number;
  endSec: number;
  /** The phrase: its words as spoken, in order. */
  text: string;
  /** Each word of the phrase and when it is heard, in seconds from the start of the ad. */
  words?: SpokenWord[];
}

export interface NarratedLine {
  sceneId: string;
  /** What is said (empty when the scene has no speech). */
  text: string;
  /** When the line starts in the ad, and how long its speech lasts. */
  startSec: number;
  durationSec: number;
}

export interface Narration {
  style: NarrationStyle;
  voice: string;
  /** The storyboard with each scene timed to its line. */
  storyboard: Storyboard;
  lines: NarratedLine[];
  cues: CaptionCue[];
  /** The ad's length (sum of scene durations). */
  durationSec: number;
  /** The voice-over over the whole ad (null when nothing could be said in the time). */
  wavPath: string | null;
}

/** Silence before a line starts inside its scene, and after it ends. */
export const LEAD_SEC = 0.2;
export const PAUSE_SEC = 0.4;
/** The last scene also holds for the fade to black. */
const TAIL_SEC = 0.35;
/** A scene with nothing said still shows this long. */
const QUIET_SCENE_SEC = 0.8;
/** When the narration is shorter than the ad, a scene holds at most this much longer than its line. */
const MAX_SLACK_SEC = 0.8;
/** Longest caption phrase, in words and in characters. */
const CUE_WORDS = 5;
const CUE_CHARS = 26;

const WORDS_PER_MINUTE: Record<NarrationStyle, number> = { presenter: 165, selfie: 180 };
const VOICES: Record<NarrationStyle, string> = { presenter: "en-us", selfie: "en-us+f3" };

export function narrationStyleFor(type: string): NarrationStyle | null {
  return type === "avatar" ? "presenter" : type === "influencer" ? "selfie" : null;
}

export function defaultVoiceFor(style: NarrationStyle): string {
  return VOICES[style];
}

const clean = (s: string | undefined) =>
  (s ?? "")
    .replace(/…/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.!?;:])/g, "$1")
    .trim();

/** `Shop now` → `shop now`; leaves names and acronyms (`Acme`, `NASA`) alone only when they look like them. */
function lowerFirst(s: string): string {
  const first = s.split(" ")[0] ?? "";
  if (
    /^[A-Z][a-z']*$/.test(first) &&
    ["Shop", "Visit", "Book", "Get", "Try", "Order", "Join", "Start", "Buy", "Sign", "Call", "Discover"].includes(first)
  ) {
    return s[0]!.toLowerCase() + s.slice(1);
  }
  return s;
}

/** The script: for each scene, the parts of its line, from the copy the art direction wrote. */
export function writeScript(storyboard: Storyboard, style: NarrationStyle): LinePart[][] {
  const brand = clean(storyboard.brand.name);
  const last = storyboard.scenes.length - 1;
  return storyboard.scenes.map((scene, i) => {
    const headline = clean(scene.headline);
    const body = clean(scene.body);
    const cta = clean(scene.cta);
    const parts: LinePart[] = [];
    const key = (t: string) =>
      t
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, " ")
        .trim();
    const add = (text: string, priority: number) => {
      // A part the line already says (the headline repeating the product name) is said once.
      if (text && !parts.some((p) => key(p.text).includes(key(text)))) parts.push({ text, priority });
    };
    if (style === "presenter") {
      // Spoken to camera: a greeting, then the copy as the presenter's sentences, the call to action last.
      if (i === 0 && brand) add(`Hi! Let me show you ${brand}.`, 0);
      add(headline, i === last ? 2 : 3);
      add(body, 1);
      if (cta) add(i === last ? `${cta}, today.` : cta, 4);
    } else {
      // First person, as a creator talking to their phone.
      if (i === 0) add(brand ? `Okay, so I tried ${brand}.` : "Okay, so I tried this.", 3);
      else if (i < last) add(i === 1 ? "Honestly?" : "And,", 0);
      add(headline, 2);
      add(body, 1);
      if (cta) add(`Trust me, ${lowerFirst(cta)}.`, 4);
    }
    return parts;
  });
}

interface Word {
  text: string;
  part: number;
}

function wordsOf(parts: LinePart[]): Word[] {
  return parts.flatMap((p, part) =>
    p.text
      .split(" ")
      .filter(Boolean)
      .map((text) => ({ text, part })),
  );
}

const DANGLING = new Set([
  "and",
  "or",
  "but",
  "the",
  "a",
  "an",
  "to",
  "of",
  "for",
  "with",
  "your",
  "our",
  "my",
  "in",
  "on",
  "at",
  "by",
  "&",
  "-",
  "–",
  "—",
  "so",
  "is",
  "are",
]);

/** The line as spoken: each part ends as a sentence (a part cut short loses the words that would dangle). */
function lineText(parts: LinePart[], words: Word[]): string {
  return parts
    .map((_, index) => {
      const own = words.filter((w) => w.part === index).map((w) => w.text);
      const complete = own.length === parts[index]!.text.split(" ").filter(Boolean).length;
      if (!complete) {
        // A part cut down to a stub says nothing: drop it whole.
        if (own.length < 3) return "";
        while (
          own.length &&
          DANGLING.has(
            own
              .at(-1)!
              .toLowerCase()
              .replace(/[^\p{L}&\-–—]/gu, ""),
          )
        )
          own.pop();
        if (own.length) own[own.length - 1] = own.at(-1)!.replace(/[,;:\-–—]+$/, "");
      }
      let text = own.join(" ");
      if (text && !/[.!?]$/.test(text)) text += ".";
      return text;
    })
    .filter(Boolean)
    .join(" ");
}

interface Spoken {
  text: string;
  pcm: Int16Array | null;
  sampleRate: number;
  /** Length of the speech (from the start of the clip to the end of the last word). */
  durationSec: number;
  words: SpokenWord[];
}

export interface NarrateOptions {
  style: NarrationStyle;
  voice?: string;
  maxAdSeconds: number;
  /** A folder for work files; the WAV of the whole ad is written here as `narration.wav`. */
  workDir: string;
  signal?: AbortSignal;
}

const ceil2 = (n: number) => Math.ceil(n * 100 - 1e-6) / 100;

/** Narrates a storyboard: script, speech, timing, captions, one WAV. */
export async function narrate(storyboard: Storyboard, synthesizer: VoiceSynthesizer, options: NarrateOptions): Promise<Narration> {
  const { style, maxAdSeconds, workDir, signal } = options;
  const voice = options.voice ?? VOICES[style];
  const scenes = storyboard.scenes;
  const n = scenes.length;
  const script = writeScript(storyboard, style);
  const words = script.map(wordsOf);
  const quiet = Math.max(0.5, Math.min(QUIET_SCENE_SEC, Math.floor((maxAdSeconds / n) * 100) / 100));
  const cache = new Map<string, Spoken>();
  let utterance = 0;

  async function speak(text: string): Promise<Spoken> {
    const known = cache.get(text);
    if (known) return known;
    let spoken: Spoken;
    if (!text) spoken = { text, pcm: null, sampleRate: 22050, durationSec: 0, words: [] };
    else {
      const result = await synthesizer.synthesize(text, {
        voice,
        wordsPerMinute: WORDS_PER_MINUTE[style],
        outPath: join(workDir, `line-${utterance++}.wav`),
        signal,
      });
      const pcm = parseWav(await readFile(result.wavPath));
      await rm(result.wavPath, { force: true });
      spoken = { text, pcm: pcm.samples, sampleRate: pcm.sampleRate, durationSec: result.speech.endSec, words: result.words };
    }
    cache.set(text, spoken);
    return spoken;
  }

  const need = (i: number, spokenSec: number) =>
    spokenSec > 0 ? ceil2(LEAD_SEC + spokenSec + PAUSE_SEC + (i === n - 1 ? TAIL_SEC : 0)) : quiet;

  let spoken: Spoken[] = [];
  for (let round = 0; ; round++) {
    spoken = [];
    for (let i = 0; i < n; i++) spoken.push(await speak(lineText(script[i]!, words[i]!)));
    const total = spoken.reduce((sum, s, i) => sum + need(i, s.durationSec), 0);
    if (total <= maxAdSeconds + 1e-9) break;
    if (round >= 5 || words.every((w) => w.length === 0)) {
      // Too short for a line per scene: one line said across the whole ad instead.
      return narrateAcross(storyboard, script, speak, { style, voice, maxAdSeconds, workDir });
    }
    // Estimate each word's share of its line from this round's timings and drop words (the least important
    // part's last word of the longest line) until the estimate fits, with a little margin.
    const costs = spoken.map((s, i) => {
      const own = words[i]!;
      const perWord =
        s.words.length === own.length ? s.words.map((w, k) => (s.words[k + 1]?.startSec ?? s.durationSec) - w.startSec) : null;
      const even = own.length ? s.durationSec / own.length : 0;
      return own.map((_, k) => perWord?.[k] ?? even);
    });
    const estimate = () =>
      costs.reduce(
        (sum, c, i) =>
          sum +
          need(
            i,
            c.reduce((a, b) => a + b, 0),
          ),
        0,
      );
    let guard = 0;
    while (estimate() > maxAdSeconds * 0.97 && guard++ < 10_000) {
      let longest = -1;
      let longestSec = 0;
      costs.forEach((c, i) => {
        const sec = c.reduce((a, b) => a + b, 0);
        if (c.length && sec > longestSec) {
          longest = i;
          longestSec = sec;
        }
      });
      if (longest < 0) break;
      const own = words[longest]!;
      const low = Math.min(...own.map((w) => script[longest]![w.part]!.priority));
      let at = -1;
      own.forEach((w, k) => {
        if (script[longest]![w.part]!.priority === low) at = k;
      });
      own.splice(at, 1);
      costs[longest]!.splice(at, 1);
    }
  }

  // An ad so short that its scenes keep only scraps of their lines (or none) says more with one line across.
  const wordCount = (texts: string[]) => texts.join(" ").split(" ").filter(Boolean).length;
  const perScene = wordCount(spoken.map((s) => s.text));
  if (perScene < wordCount(script.flat().map((p) => p.text)) / 3) {
    const across = await narrateAcross(storyboard, script, speak, { style, voice, maxAdSeconds, workDir });
    if (wordCount(across.lines.map((l) => l.text)) > perScene) return across;
  }

  // Scene timing: each scene as long as its line needs; spare time (up to a limit) shared out evenly.
  const needs = spoken.map((s, i) => need(i, s.durationSec));
  const spare = Math.max(0, maxAdSeconds - needs.reduce((a, b) => a + b, 0));
  const extra = Math.floor(Math.min(MAX_SLACK_SEC, spare / n) * 100) / 100;
  const durations = needs.map((d) => Math.round((d + extra) * 100) / 100);
  const timed: Scene[] = scenes.map((scene, i) => ({ ...scene, durationSec: durations[i]! }));
  const starts: number[] = [];
  let elapsed = 0;
  for (const d of durations) {
    starts.push(elapsed);
    elapsed += d;
  }
  const durationSec = Math.round(elapsed * 1000) / 1000;

  const lines: NarratedLine[] = spoken.map((s, i) => ({
    sceneId: scenes[i]!.id,
    text: s.text,
    startSec: Math.round((starts[i]! + LEAD_SEC) * 1000) / 1000,
    durationSec: Math.round(s.durationSec * 1000) / 1000,
  }));
  const cues = spoken.flatMap((s, i) => cueLine(s.words, lines[i]!.startSec, starts[i]! + durations[i]! - 0.05));

  const wavPath = await mixLines(spoken, lines, durationSec, workDir);
  return { style, voice, storyboard: { ...storyboard, scenes: timed }, lines, cues, durationSec, wavPath };
}

/** One WAV of the whole ad: each line's speech placed at its start. Null when nothing is said. */
async function mixLines(spoken: Spoken[], lines: NarratedLine[], durationSec: number, workDir: string): Promise<string | null> {
  let wavPath: string | null = null;
  if (spoken.some((s) => s.pcm)) {
    const rate = spoken.find((s) => s.pcm)!.sampleRate;
    const out = new Int16Array(Math.ceil(durationSec * rate));
    spoken.forEach((s, i) => {
      if (!s.pcm) return;
      if (s.sampleRate !== rate) throw new Error("The voice changed its sample rate between lines");
      const at = Math.round(lines[i]!.startSec * rate);
      const room = Math.max(0, Math.min(s.pcm.length, out.length - at, Math.ceil((s.durationSec + 0.05) * rate)));
      out.set(s.pcm.subarray(0, room), at);
    });
    wavPath = join(workDir, "narration.wav");
    await writeFile(wavPath, encodeWav({ sampleRate: rate, samples: out }));
  }
  return wavPath;
}

/**
 * An ad too short for a line in each scene (a few seconds over three or four scenes) still speaks: one
 * line, the most important words of the whole script (the call to action, then the headlines), said from
 * the first scene on and running over the cuts, the scenes sharing the ad's length evenly.
 */
async function narrateAcross(
  storyboard: Storyboard,
  script: LinePart[][],
  speak: (text: string) => Promise<Spoken>,
  options: { style: NarrationStyle; voice: string; maxAdSeconds: number; workDir: string },
): Promise<Narration> {
  const { style, voice, maxAdSeconds, workDir } = options;
  const scenes = storyboard.scenes;
  const n = scenes.length;
  const each = Math.max(0.5, Math.floor((maxAdSeconds / n) * 100) / 100);
  const durations = scenes.map(() => each);
  const durationSec = Math.round(each * n * 1000) / 1000;
  const room = durationSec - LEAD_SEC - TAIL_SEC;
  // The script's headlines and calls to action, most important first; a candidate line keeps the k most
  // important of them, said in the script's order, each a sentence of its own.
  const parts = script.flat().filter((p) => p.priority >= 2);
  const ranked = parts.map((part, at) => ({ part, at })).sort((a, b) => b.part.priority - a.part.priority || a.at - b.at);
  const candidates: string[] = [];
  for (let k = ranked.length; k >= 1; k--) {
    const kept = ranked
      .slice(0, k)
      .sort((a, b) => a.at - b.at)
      .map((r) => r.part);
    candidates.push(lineText(kept, wordsOf(kept)));
  }
  // Then the most important part alone, cut down a word at a time.
  const top = ranked[0]?.part;
  const topWords = top ? top.text.split(" ").filter(Boolean) : [];
  for (let k = topWords.length - 1; k >= 1; k--)
    candidates.push(
      `${topWords
        .slice(0, k)
        .join(" ")
        .replace(/[,;:\-–—]+$/, "")}.`,
    );
  let said: Spoken = { text: "", pcm: null, sampleRate: 22050, durationSec: 0, words: [] };
  for (const text of candidates) {
    if (!text) continue;
    const spoken = await speak(text);
    if (spoken.durationSec <= room) {
      said = spoken;
      break;
    }
  }
  const startSec = said.pcm ? LEAD_SEC : 0;
  const lines: NarratedLine[] = scenes.map((scene, i) => ({
    sceneId: scene.id,
    text: i === 0 ? said.text : "",
    startSec: i === 0 ? startSec : Math.round(each * i * 1000) / 1000,
    durationSec: i === 0 ? Math.round(said.durationSec * 1000) / 1000 : 0,
  }));
  const cues = cueLine(said.words, startSec, durationSec - 0.05);
  const silent: Spoken = { text: "", pcm: null, sampleRate: said.sampleRate, durationSec: 0, words: [] };
  const wavPath = await mixLines([said, ...scenes.slice(1).map(() => silent)], lines, durationSec, workDir);
  const timed: Scene[] = scenes.map((scene, i) => ({ ...scene, durationSec: durations[i]! }));
  return { style, voice, storyboard: { ...storyboard, scenes: timed }, lines, cues, durationSec, wavPath };
}

/** Words of a caption phrase: runs between punctuation, long runs cut into balanced pieces of 2–5 words. */
export function phrases<T extends { text: string }>(words: T[]): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  for (const word of words) {
    run.push(word);
    if (/[.!?,;:\u2013\u2014]["'\u201d\u2019)]*$/.test(word.text) || /^[-\u2013\u2014]$/.test(word.text)) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  const chars = (ws: T[]) => ws.map((w) => w.text).join(" ").length;
  const pieces: T[][] = [];
  for (const r of runs) {
    const k = Math.max(Math.ceil(r.length / CUE_WORDS), Math.min(Math.floor(r.length / 2), Math.ceil(chars(r) / CUE_CHARS)), 1);
    for (let i = 0; i < k; i++) pieces.push(r.slice(Math.round((i * r.length) / k), Math.round(((i + 1) * r.length) / k)));
  }
  // A lone word before a comma ("Okay,") joins the phrase after it when that stays short; a sentence of one
  // word ("Hi!") stands alone.
  const out: T[][] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const nextPiece = pieces[i + 1];
    if (piece.length === 1 && !/[.!?]["'\u201d\u2019)]*$/.test(piece[0]!.text) && nextPiece && nextPiece.length < CUE_WORDS) {
      pieces[i + 1] = [...piece, ...nextPiece];
      continue;
    }
    out.push(piece);
  }
  return out;
}

/**
 * Caption cues for one line: short phrases (phrases()), each shown from its first word until the next phrase,
 * carrying its words' times (shifted by `offsetSec` into the ad) so the word being said can be marked.
 */
export function cueLine(words: SpokenWord[], offsetSec: number, limitSec: number): CaptionCue[] {
  const round = (t: number) => Math.round(t * 1000) / 1000;
  const groups = phrases(words);
  return groups
    .map((g, k) => {
      const start = offsetSec + g[0]!.startSec;
      const next = groups[k + 1];
      const end = Math.min(next ? offsetSec + next[0]!.startSec : offsetSec + g.at(-1)!.endSec + 0.3, limitSec);
      const timed = g.map((w) => ({
        text: w.text,
        startSec: round(Math.min(offsetSec + w.startSec, end)),
        endSec: round(Math.min(offsetSec + w.endSec, end)),
      }));
      return { startSec: round(start), endSec: round(end), text: g.map((w) => w.text).join(" "), words: timed };
    })
    .filter((c) => c.endSec > c.startSec);
}

const vttTime = (t: number) => {
  const ms = Math.max(0, Math.round(t * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (v: number, w = 2) => String(v).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** A WebVTT document of the cues. */
export function toWebVtt(cues: CaptionCue[]): string {
  const body = cues
    .map((c, i) => `${i + 1}\n${vttTime(c.startSec)} --> ${vttTime(c.endSec)}\n${c.text.replace(/-->/g, "→").replace(/\n+/g, " ")}`)
    .join("\n\n");
  return `WEBVTT\n\n${body}${body ? "\n" : ""}`;
}
