// Speech through ElevenLabs' text-to-speech with timestamps
// (https://elevenlabs.io/docs/api-reference/text-to-speech/convert-with-timestamps):
// `POST https://api.elevenlabs.io/v1/text-to-speech/{voice_id}/with-timestamps?output_format=pcm_22050`
// with `xi-api-key`, answering `{ audio_base64, alignment: { characters, character_start_times_seconds,
// character_end_times_seconds } }`. The audio is raw 16-bit little-endian PCM at 22.05 kHz; the words'
// timings come from the characters'. It fills the same VoiceSynthesizer contract as the offline voice.
// The account's voices come from `GET https://api.elevenlabs.io/v1/voices` (with `xi-api-key`), answering
// `{ voices: [{ voice_id, name, category, labels: { gender, accent, … } }] }`
// (https://elevenlabs.io/docs/api-reference/voices/search), read at most once an hour.
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { SpokenWord, SynthesisResult, VoiceSynthesizer } from "../voice/types.ts";
import { encodeWav, speechSpan } from "../voice/wav.ts";
import { ProviderError } from "./provider-error.ts";
import { providerJson, withRetries } from "./provider-http.ts";

const SAMPLE_RATE = 22_050;
const SERVICE = "The voice service";

const Answer = z.object({
  audio_base64: z.string().min(1),
  alignment: z
    .object({
      characters: z.array(z.string()),
      character_start_times_seconds: z.array(z.number()),
      character_end_times_seconds: z.array(z.number()),
    })
    .nullish(),
});

/**
 * The pipeline asks for the offline voice's names (`en-us` for a presenter, `en-us+f3` for a creator); each
 * maps to one of the provider's premade voices of the same kind.
 */
const VOICE_IDS: Record<string, string> = {
  "en-us": "pNInz6obpgDQGcFmaJgB",
  "en-us+f3": "EXAVITQu4vr4xnSDxMaL",
};
const DEFAULT_VOICE_ID = "21m00Tcm4TlvDq8ikWAM";

const ProviderVoices = z.object({
  voices: z.array(
    z.object({
      voice_id: z.string().min(1),
      name: z.string(),
      category: z.string().nullish(),
      labels: z.record(z.string(), z.string().nullish()).nullish(),
    }),
  ),
});

export interface ProviderVoice {
  id: string;
  name: string;
  gender: string | null;
}

/** How long the account's voice list is kept before it is read again. */
export const VOICE_LIST_TTL_MS = 3_600_000;

/**
 * The voices the key's account can speak with, read from the provider at most once per `ttlMs` (a failed
 * read is not kept, so the next call tries again). The synthesizer picks its voice from this list.
 */
export function cachedVoiceList(
  apiKey: string,
  options: { ttlMs?: number; timeoutMs?: number; now?: () => number } = {},
): (signal?: AbortSignal) => Promise<ProviderVoice[]> {
  const now = options.now ?? Date.now;
  let kept: { at: number; voices: Promise<ProviderVoice[]> } | null = null;
  return (signal) => {
    if (kept && now() - kept.at < (options.ttlMs ?? VOICE_LIST_TTL_MS)) return kept.voices;
    const voices = providerJson("https://api.elevenlabs.io/v1/voices", ProviderVoices, {
      method: "GET",
      headers: { "xi-api-key": apiKey },
      timeoutMs: options.timeoutMs ?? 15_000,
      signal,
      service: SERVICE,
    }).then((answer) => answer.voices.map((v) => ({ id: v.voice_id, name: v.name, gender: v.labels?.gender?.toLowerCase() ?? null })));
    const entry = { at: now(), voices };
    kept = entry;
    voices.catch(() => {
      if (kept === entry) kept = null;
    });
    return voices;
  };
}

/**
 * The provider voice for one of the pipeline's voice names: the premade voice it maps to when the account
 * has it, else the account's first voice of the same kind (`+f…`: female), else its first voice.
 */
export function pickVoiceId(voice: string, available: readonly ProviderVoice[]): string {
  const wanted = VOICE_IDS[voice] ?? DEFAULT_VOICE_ID;
  if (available.length === 0 || available.some((v) => v.id === wanted)) return wanted;
  const gender = /\+f\d*$/.test(voice) ? "female" : "male";
  return (available.find((v) => v.gender === gender) ?? available[0]!).id;
}

/** The words of `text` and when each is heard, from the characters' timings. */
export function wordsFromAlignment(alignment: z.infer<typeof Answer>["alignment"]): SpokenWord[] {
  if (!alignment) return [];
  const words: SpokenWord[] = [];
  let current: SpokenWord | null = null;
  alignment.characters.forEach((char, i) => {
    const start = alignment.character_start_times_seconds[i] ?? 0;
    const end = alignment.character_end_times_seconds[i] ?? start;
    if (/\s/.test(char)) {
      if (current) words.push(current);
      current = null;
      return;
    }
    if (current) {
      current.text += char;
      current.endSec = end;
    } else current = { text: char, startSec: start, endSec: end };
  });
  if (current) words.push(current);
  return words;
}

export function createElevenLabsVoice(
  apiKey: string,
  options: { model?: string; timeoutMs?: number; tries?: number } = {},
): VoiceSynthesizer {
  const model = options.model ?? "eleven_multilingual_v2";
  const voices = cachedVoiceList(apiKey);
  return {
    name: "natural-voice",
    async synthesize(text, { voice, wordsPerMinute, outPath, signal }): Promise<SynthesisResult> {
      // The account's list only steers the choice: when it cannot be read, the premade voice is tried as is.
      const voiceId = pickVoiceId(voice, await voices(signal).catch(() => []));
      // The offline voice's pace (165 words a minute for a presenter) as the provider's speed (0.7–1.2).
      const speed = wordsPerMinute ? Math.min(1.2, Math.max(0.7, wordsPerMinute / 165)) : 1;
      const answer = await withRetries(
        () =>
          providerJson(`https://api.elevenlabs.io/v1/text-to-speech/${voiceId}/with-timestamps?output_format=pcm_22050`, Answer, {
            headers: { "xi-api-key": apiKey },
            json: { text, model_id: model, voice_settings: { stability: 0.5, similarity_boost: 0.75, speed } },
            timeoutMs: options.timeoutMs ?? 60_000,
            signal,
            service: SERVICE,
          }),
        { tries: options.tries ?? 3, backoffMs: 1000, signal },
      );
      const raw = Buffer.from(answer.audio_base64, "base64");
      if (raw.length < 2 || raw.length % 2 !== 0) throw new ProviderError(`${SERVICE} answered audio that is not 16-bit PCM`, "malformed");
      const samples = new Int16Array(raw.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = raw.readInt16LE(i * 2);
      const pcm = { sampleRate: SAMPLE_RATE, samples };
      const span = speechSpan(pcm);
      if (!span) throw new ProviderError(`${SERVICE} answered silence`, "malformed");
      const wavPath = outPath ?? join(tmpdir(), `voice-${randomUUID()}.wav`);
      await writeFile(wavPath, encodeWav(pcm));
      const durationSec = samples.length / SAMPLE_RATE;
      let words = wordsFromAlignment(answer.alignment);
      // Without timings, the words share the speech evenly (as the offline voice's estimate does).
      if (words.length === 0) {
        const plain = text.split(/\s+/).filter(Boolean);
        const each = (span.endSec - span.startSec) / Math.max(1, plain.length);
        words = plain.map((w, i) => ({ text: w, startSec: span.startSec + i * each, endSec: span.startSec + (i + 1) * each }));
      }
      return {
        wavPath,
        durationSec,
        sampleRate: SAMPLE_RATE,
        speech: { startSec: span.startSec, endSec: Math.min(durationSec, span.endSec) },
        words,
      };
    },
  };
}
