// The studio's sound as a listener hears it: every ad at −14 LUFS with its true peak under −1 dBTP (narrated or
// not), the music ducking under the voice, and two ads of one mood carrying different music.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audioTrack } from "../src/modules/render/audio-track.ts";
import { createStudioRenderer, locateFfmpeg, type Storyboard } from "../src/modules/render/index.ts";
import { createEspeakSynthesizer, encodeWav } from "../src/modules/voice/index.ts";

const run = promisify(execFile);
const ffmpeg = locateFfmpeg();

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "adgen-sound-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const brand = { name: "Acme Coffee Co.", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" };

function board(headline: string, cta: string, mood: Storyboard["mood"] = "calm"): Storyboard {
  const scene = { background: "#1d3557", accent: "#e63946", transition: "fade" as const };
  return {
    title: headline,
    brand,
    mood,
    scenes: [
      { ...scene, id: "a", durationSec: 3, headline },
      { ...scene, id: "b", durationSec: 3, headline: "Order now", cta },
    ],
  };
}

/** Integrated loudness (LUFS) and true peak (dBTP) as ffmpeg's EBU R128 meter reports them. */
async function loudness(file: string): Promise<{ integrated: number; truePeak: number }> {
  const { stderr } = await run(
    ffmpeg,
    ["-hide_banner", "-nostats", "-i", file, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"],
    {
      maxBuffer: 32 * 1024 * 1024,
    },
  );
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const integrated = Number(/I:\s*(-?[\d.]+) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/True peak:\s*Peak:\s*(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  return { integrated, truePeak };
}

/** The sound as mono 16-bit samples at 22.05 kHz, after the given audio filter. */
async function samples(file: string, af = "anull"): Promise<Int16Array> {
  const { stdout } = await run(
    ffmpeg,
    ["-loglevel", "error", "-i", file, "-map", "0:a", "-af", af, "-ac", "1", "-ar", "22050", "-f", "s16le", "-"],
    {
      encoding: "buffer",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
}

const rms = (pcm: Int16Array, fromSec: number, toSec: number, rate = 22050) => {
  let sum = 0;
  const from = Math.floor(fromSec * rate);
  const to = Math.min(pcm.length, Math.floor(toSec * rate));
  for (let i = from; i < to; i++) sum += pcm[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
};
const db = (ratio: number) => 20 * Math.log10(ratio);

describe("loudness", () => {
  it("a music-only ad and a narrated ad both play at −14 LUFS (±1) with the true peak at or below −1 dBTP", async () => {
    const renderer = createStudioRenderer({ threads: 2, audioCacheDir: join(dir, "cache") });
    const voice = createEspeakSynthesizer();
    const said = await voice
      .synthesize("Wake up to better coffee. Single origin beans, roasted this week and delivered in two days.", {
        voice: "en-us",
        outPath: join(dir, "voice.wav"),
      })
      .finally(() => voice.close?.());
    const music = await renderer.render({
      storyboard: board("Wake up to better coffee", "Shop now"),
      format: "1:1",
      outputDir: dir,
      fileStem: "music",
    });
    const narrated = await renderer.render({
      storyboard: board("Wake up to better coffee", "Shop now"),
      format: "1:1",
      outputDir: dir,
      fileStem: "narrated",
      narration: { wavPath: said.wavPath, cues: [] },
    });
    for (const file of [music.videoPath, narrated.videoPath]) {
      const { integrated, truePeak } = await loudness(file);
      expect(Math.abs(integrated - -14), `${file}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
      expect(truePeak, `${file}: true peak ${truePeak} dBTP`).toBeLessThanOrEqual(-1);
    }
  }, 120_000);
});

describe("the music", () => {
  it("ducks under speech: the bed is at least 8 dB quieter while the voice speaks than where it is alone", async () => {
    // A "voice" above the bed's spectrum (an 8 kHz tone, 1–5 s), so low-passing the mix leaves the bed alone.
    const rate = 44100;
    const voice = new Int16Array(10 * rate);
    for (let n = rate; n < 5 * rate; n++) voice[n] = Math.round(9000 * Math.sin((2 * Math.PI * 8000 * n) / rate));
    const wavPath = join(dir, "tone.wav");
    writeFileSync(wavPath, encodeWav({ sampleRate: rate, samples: voice }));
    const track = await audioTrack(
      ffmpeg,
      { durationSec: 10, mood: "calm", seed: "ducking", bitrate: "128k", narration: { wavPath, cues: [] } },
      join(dir, "cache"),
    );
    const bed = await samples(track, "lowpass=f=900,lowpass=f=900,lowpass=f=900,lowpass=f=900");
    const underSpeech = rms(bed, 2, 4.8);
    const alone = rms(bed, 6.2, 8.6);
    expect(db(alone / underSpeech)).toBeGreaterThanOrEqual(8);
  }, 60_000);

  it("two ads of one mood get different music (each ad's title picks its bed)", async () => {
    const renderer = createStudioRenderer({ threads: 2, audioCacheDir: join(dir, "cache") });
    const pcm: Int16Array[] = [];
    for (const [i, words] of [
      ["Fresh pasta in ten minutes", "Order tonight"],
      ["Running shoes that last", "Find your pair"],
      ["Your accountant, on call", "Book a call"],
    ].entries()) {
      const result = await renderer.render({
        storyboard: board(words[0]!, words[1]!, "energetic"),
        format: "1:1",
        outputDir: dir,
        fileStem: `mood-${i}`,
      });
      pcm.push(await samples(result.videoPath));
    }
    // Sample by sample, the difference between two ads is as loud as the music itself (not a re-encoding's noise).
    for (const [a, b] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const length = Math.min(pcm[a]!.length, pcm[b]!.length);
      const diff = new Int16Array(length);
      for (let n = 0; n < length; n++) diff[n] = (pcm[a]![n]! - pcm[b]![n]!) / 2;
      expect(db(rms(diff, 0.5, 5) / rms(pcm[a]!, 0.5, 5)), `ads ${a} and ${b}`).toBeGreaterThan(-6);
    }
  }, 120_000);

  it("keeps an ad's music when a reviewer edits a later scene's words", async () => {
    const renderer = createStudioRenderer({ threads: 2, audioCacheDir: join(dir, "cache") });
    const before = board("Fresh pasta in ten minutes", "Order tonight", "energetic");
    const after = {
      ...before,
      scenes: before.scenes.map((scene) => (scene.id === "b" ? { ...scene, headline: "Dinner is served" } : scene)),
    };
    const pcmOf = async (storyboard: Storyboard, stem: string) =>
      samples((await renderer.render({ storyboard, format: "1:1", outputDir: dir, fileStem: stem })).videoPath);
    const [a, b] = await Promise.all([pcmOf(before, "edit-before"), pcmOf(after, "edit-after")]);
    const length = Math.min(a.length, b.length);
    const diff = new Int16Array(length);
    for (let n = 0; n < length; n++) diff[n] = (a[n]! - b[n]!) / 2;
    expect(rms(a, 0.5, 5)).toBeGreaterThan(0);
    expect(rms(diff, 0.5, 5)).toBe(0);
  }, 120_000);
});
