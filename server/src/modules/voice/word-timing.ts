// Where each word is in eSpeak NG's speech, measured from the engine's own audio. The WebAssembly build
// exports only the command line's main(), so the library's word events (espeakEVENT_WORD) cannot be reached,
// and the command line prints none. What the engine does give: the same text said again as SSML with a long
// <break/> after every word. In that "separated" take each word is an island of sound, so its spoken length
// (and any pause its punctuation asks for) is read off the samples exactly. Those measured lengths place the
// word boundaries in the natural take (scaled to its speech span), and each boundary is then moved to the
// quietest moment near it in the natural take's own samples (the gap between two words, or the silence after
// a comma), so the times follow the audio that is heard, not an estimate from letter counts.
import type { SpokenWord } from "./types.ts";
import type { Pcm } from "./wav.ts";

/** The break put after every word in the separated take. */
export const WORD_BREAK_MS = 1000;
/** Analysis window and hop for the loudness envelope. */
const WINDOW_SEC = 0.01;
/** Quieter than this is silence between words (the separated take is clean synthetic audio). */
const SILENCE_DB = -50;

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The text as SSML with a long break after each word (eSpeak NG `-m`). */
export function separatedSsml(words: string[]): string {
  return `<speak>${words.map(escapeXml).join(`<break time="${WORD_BREAK_MS}ms"/> `)}</speak>`;
}

/** Loudness in dBFS of consecutive 10 ms windows. */
export function envelope(pcm: Pcm): Float64Array {
  const win = Math.max(1, Math.round(pcm.sampleRate * WINDOW_SEC));
  const frames = Math.floor(pcm.samples.length / win);
  const out = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * win; i < (f + 1) * win; i++) sum += pcm.samples[i]! * pcm.samples[i]!;
    out[f] = 20 * Math.log10(Math.sqrt(sum / win) / 32768 + 1e-9);
  }
  return out;
}

interface Island {
  /** Seconds of sound. */
  soundSec: number;
  /** Silence after it beyond the inserted break (the pause its punctuation asks for). */
  pauseSec: number;
}

/**
 * Each word's sound in the separated take. Silences longer than half a break separate words; a silence of
 * about two breaks means a word between them made no sound (a dash), which then gets no length.
 */
export function measureIslands(separated: Pcm, wordCount: number): Island[] | null {
  const env = envelope(separated);
  const runs: { start: number; end: number }[] = [];
  let first = -1;
  let last = -1;
  for (let f = 0; f < env.length; f++) {
    if (env[f]! > SILENCE_DB) {
      if (first < 0) first = f;
      last = f;
    }
  }
  if (first < 0) return null;
  let silentFrom = -1;
  for (let f = first; f <= last + 1; f++) {
    const silent = f <= last && env[f]! <= SILENCE_DB;
    if (silent && silentFrom < 0) silentFrom = f;
    if (!silent && silentFrom >= 0) {
      if ((f - silentFrom) * WINDOW_SEC >= (WORD_BREAK_MS / 1000) * 0.5) runs.push({ start: silentFrom, end: f });
      silentFrom = -1;
    }
  }
  const breakSec = WORD_BREAK_MS / 1000;
  const islands: Island[] = [];
  let at = first;
  for (const run of runs) {
    const len = (run.end - run.start) * WINDOW_SEC;
    // A punctuation pause is well under 0.7 of a break, so this counts the breaks the silence holds.
    const breaks = Math.max(1, Math.floor((len + 0.3 * breakSec) / breakSec));
    islands.push({ soundSec: (run.start - at) * WINDOW_SEC, pauseSec: Math.max(0, len - breaks * breakSec) });
    for (let k = 1; k < breaks; k++) islands.push({ soundSec: 0, pauseSec: 0 });
    at = run.end;
  }
  islands.push({ soundSec: (last + 1 - at) * WINDOW_SEC, pauseSec: 0 });
  return islands.length === wordCount ? islands : null;
}

/**
 * Word times in the natural take from the separated take's measured word lengths: boundaries placed by those
 * lengths over the natural speech span, each then moved to the quietest 10 ms within reach (a third of the
 * shorter neighbour, at most 120 ms; after punctuation up to 600 ms later, where the pause is); where that is true silence, the word before ends where it starts and
 * the next word starts where it ends.
 */
export function alignWords(words: string[], natural: Pcm, span: { startSec: number; endSec: number }, islands: Island[]): SpokenWord[] {
  const env = envelope(natural);
  // Anchors first: the natural take's pauses (150 ms of silence or more) are where its punctuation is. When
  // there are as many as there are punctuation marks inside the line, each pause ends the word before it and
  // starts the word after it, and the words between two pauses are placed inside that stretch alone.
  const pauses = quietRuns(env, span, 0.15);
  const marks = words.flatMap((w, k) => (k < words.length - 1 && PUNCTUATED.test(w) ? [k] : []));
  if (!marks.length || pauses.length !== marks.length) return alignStretch(words, env, span, islands);
  const out: SpokenWord[] = [];
  let from = 0;
  let at = span.startSec;
  marks.forEach((k, i) => {
    const pause = pauses[i]!;
    out.push(...alignStretch(words.slice(from, k + 1), env, { startSec: at, endSec: pause.startSec }, islands.slice(from, k + 1)));
    from = k + 1;
    at = pause.endSec;
  });
  out.push(...alignStretch(words.slice(from), env, { startSec: at, endSec: span.endSec }, islands.slice(from)));
  return out;
}

const PUNCTUATED = /[.!?,;:\u2026\u2013\u2014]["')\u201d\u2019]*$/;

/** Silences of at least `minSec` (below −50 dBFS) strictly inside the span. */
function quietRuns(env: Float64Array, span: { startSec: number; endSec: number }, minSec: number) {
  const runs: { startSec: number; endSec: number }[] = [];
  const first = Math.ceil(span.startSec / WINDOW_SEC);
  const last = Math.min(env.length, Math.floor(span.endSec / WINDOW_SEC));
  let from = -1;
  for (let f = first; f <= last; f++) {
    const quiet = f < last && env[f]! <= SILENCE_DB;
    if (quiet && from < 0) from = f;
    if (!quiet && from >= 0) {
      if ((f - from) * WINDOW_SEC >= minSec && from > first && f < last) runs.push({ startSec: from * WINDOW_SEC, endSec: f * WINDOW_SEC });
      from = -1;
    }
  }
  return runs;
}

/** The words of one stretch of speech (no anchors inside), placed by their measured lengths and snapped. */
function alignStretch(words: string[], env: Float64Array, span: { startSec: number; endSec: number }, islands: Island[]): SpokenWord[] {
  const n = words.length;
  const pauses = islands.slice(0, -1).reduce((s, w) => s + w.pauseSec, 0);
  const length = span.endSec - span.startSec;
  const pauseScale = pauses > length * 0.5 ? (length * 0.5) / pauses : 1;
  const starts: number[] = [span.startSec];
  const ends: number[] = [];
  let t = span.startSec;
  for (let k = 1; k < n; k++) {
    // The words still to say share the time still left, in proportion to their measured lengths.
    const rest = islands.slice(k - 1);
    const restSound = rest.reduce((s, w) => s + w.soundSec, 0);
    const restPause = rest.slice(0, -1).reduce((s, w) => s + w.pauseSec * pauseScale, 0);
    const scale = restSound > 0 ? Math.max(0, span.endSec - t - restPause) / restSound : 0;
    const dur = (j: number) => islands[j]!.soundSec * scale;
    const prev = islands[k - 1]!;
    const endGuess = t + dur(k - 1);
    const startGuess = endGuess + prev.pauseSec * pauseScale;
    const reach = Math.min(0.12, Math.max(0.02, Math.min(dur(k - 1), dur(k) || dur(k - 1)) / 3));
    const lo = Math.max(Math.ceil((endGuess - reach) / WINDOW_SEC), Math.ceil(starts[k - 1]! / WINDOW_SEC) + 2);
    // After punctuation the natural take pauses for as long as the engine likes (the separated take's break
    // can swallow that pause), so the search reaches further for it.
    const after = PUNCTUATED.test(words[k - 1]!) ? 0.6 : 0;
    const hi = Math.min(Math.floor((startGuess + reach + after) / WINDOW_SEC), env.length - 1);
    let end = endGuess;
    let start = startGuess;
    if (hi > lo && dur(k - 1) > 0) {
      // The longest quiet run within reach (a pause or the gap between two words, not a stop consonant's
      // short closure), taken whole even where it runs past the window; without one, the quietest frame.
      const floor = Math.ceil(starts[k - 1]! / WINDOW_SEC) + 2;
      const quiet = (f: number) => env[f]! <= SILENCE_DB + 10;
      let run: { a: number; b: number } | null = null;
      for (let f = lo; f <= hi; f++) {
        if (!quiet(f) || (f > lo && quiet(f - 1))) continue;
        let a = f;
        let b = f;
        while (a - 1 >= floor && quiet(a - 1)) a--;
        while (b + 1 < env.length && quiet(b + 1)) b++;
        if (!run || b - a > run.b - run.a) run = { a, b };
      }
      if (run) {
        end = run.a * WINDOW_SEC;
        start = (run.b + 1) * WINDOW_SEC;
      } else {
        let best = lo;
        for (let f = lo; f <= hi; f++) if (env[f]! < env[best]!) best = f;
        end = start = (best + 0.5) * WINDOW_SEC;
      }
    }
    start = Math.max(start, starts[k - 1]! + 0.01);
    ends.push(Math.max(starts[k - 1]!, Math.min(end, start)));
    starts.push(start);
    t = start;
  }
  ends.push(Math.max(starts[n - 1]!, span.endSec));
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return words.map((text, k) => ({ text, startSec: r(starts[k]!), endSec: r(ends[k]!) }));
}
