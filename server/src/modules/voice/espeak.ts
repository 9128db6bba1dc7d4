// The built-in voice: eSpeak NG compiled to WebAssembly (the `espeak-ng` package carries its voices), fully
// offline. Synthesis runs in one worker thread, one utterance at a time, so the event loop stays free.
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type { SynthesisOptions, SynthesisResult, VoiceSynthesizer } from "./types.ts";
import { estimateWordTimings, parseWav, speechSpan } from "./wav.ts";
import { alignWords, measureIslands, separatedSsml } from "./word-timing.ts";

/** eSpeak NG voice names: a language (`en`, `en-us`) with an optional variant (`+f3`, `+m3`). */
const VOICE_NAME = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*(?:\+[a-z0-9_]{1,16})?$/i;

export class VoiceError extends Error {
  override readonly name = "VoiceError";
}

/** Text as eSpeak reads it best: one line, no control characters, no ellipsis glyphs. */
export function speakableText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\p{Cc}\u200b-\u200f\u2028\u2029\ufeff]/gu, " ")
    .replace(/…/g, ".")
    .replace(/\s+/g, " ")
    .trim();
}

interface Pending {
  resolve(wav: Uint8Array): void;
  reject(error: Error): void;
}

export function createEspeakSynthesizer(options: { defaultWordsPerMinute?: number } = {}): VoiceSynthesizer {
  let worker: Worker | null = null;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker = null;
  };

  function start(): Worker {
    if (worker) return worker;
    const w = new Worker(new URL("./espeak-worker.mjs", import.meta.url));
    w.unref();
    w.on("message", (m: { id: number; wav?: Uint8Array; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.wav) p.resolve(m.wav);
      else p.reject(new VoiceError(`Speech synthesis failed: ${m.error ?? "unknown error"}`));
    });
    w.on("error", (error) => failAll(new VoiceError(`Speech synthesis worker failed: ${error.message}`)));
    w.on("exit", (code) => {
      if (worker === w) failAll(new VoiceError(`Speech synthesis worker exited (${code})`));
    });
    worker = w;
    return w;
  }

  function speak(text: string, voice: string, wordsPerMinute: number, ssml = false): Promise<Uint8Array> {
    // One utterance at a time: the worker is single-threaded anyway, and order keeps memory flat.
    const run = chain.then(
      () =>
        new Promise<Uint8Array>((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          start().postMessage({ id, text, voice, wordsPerMinute, ssml });
        }),
    );
    chain = run.catch(() => {});
    return run;
  }

  return {
    name: "espeak-ng",
    async synthesize(text: string, opts: SynthesisOptions): Promise<SynthesisResult> {
      const spoken = speakableText(text);
      if (!spoken) throw new VoiceError("Nothing to say: the text is empty");
      if (!VOICE_NAME.test(opts.voice)) throw new VoiceError(`Unknown voice ${JSON.stringify(opts.voice)}`);
      const wpm = Math.round(Math.min(450, Math.max(80, opts.wordsPerMinute ?? options.defaultWordsPerMinute ?? 170)));
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
      const tokens = spoken.split(" ");
      const wav = await speak(spoken, opts.voice, wpm);
      // The same words again, a break after each, to measure each word's length (word-timing.ts).
      const separated = tokens.length > 1 ? await speak(separatedSsml(tokens), opts.voice, wpm, true) : null;
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
      const pcm = parseWav(wav);
      const durationSec = pcm.samples.length / pcm.sampleRate;
      const span = speechSpan(pcm);
      if (!span) throw new VoiceError(`Speech synthesis produced silence (voice ${opts.voice})`);
      const wavPath = resolve(opts.outPath ?? join(tmpdir(), `adgen-voice-${randomUUID()}.wav`));
      await mkdir(dirname(wavPath), { recursive: true });
      await writeFile(wavPath, wav);
      const islands = separated ? measureIslands(parseWav(separated), tokens.length) : [{ soundSec: 1, pauseSec: 0 }];
      return {
        wavPath,
        durationSec,
        sampleRate: pcm.sampleRate,
        speech: span,
        // When the separated take cannot be split into the words (a token eSpeak reads as a pause and a word),
        // the letter-count estimate is the fallback.
        words: islands ? alignWords(tokens, pcm, span, islands) : estimateWordTimings(tokens, span),
      };
    },
    async close() {
      const w = worker;
      worker = null;
      failAll(new VoiceError("The speech synthesizer was closed"));
      await w?.terminate();
    },
  };
}
