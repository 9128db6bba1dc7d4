// Ads that stop the scroll, judged on the rendered file as TikTok and Reels would show it: the hook is readable in
// the very first frame, no word sits where the platform's interface covers a 9:16 frame, the frame never holds
// still for more than 2.5 s, the cuts land on the music bed's beats, and the video stream carries at least the
// 516 kb/s TikTok asks for.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import eng from "@tesseract.js-data/eng";
import { createWorker, type Worker } from "tesseract.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStudioRenderer,
  cutBeat,
  locateFfmpeg,
  onTheBeat,
  type RenderResult,
  type Storyboard,
  VIDEO_BITRATE_FLOOR_KBPS,
} from "../src/modules/render/index.ts";
import { locateFfprobe } from "./support/ffprobe.ts";
import { writeTestPictures } from "./support/frames.ts";
import { normalizeText } from "./support/ocr.ts";

const run = promisify(execFile);
const brand = { name: "Glacier", primary: "#0f3b5f", secondary: "#7fc8f8", accent: "#f4b400", text: "#ffffff" };
const HOOK = "Still drinking warm water?";

let dir: string;
let ad: RenderResult;
let storyboard: Storyboard;
let ocr: Worker;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-scroll-"));
  const { picture, logo } = await writeTestPictures(dir);
  const scene = { background: "#0f3b5f", accent: "#f4b400", transition: "fade" as const };
  storyboard = {
    title: "Glacier bottle",
    brand: { ...brand, logoPath: logo },
    mood: "energetic",
    style: "split",
    scenes: [
      { ...scene, id: "hook", durationSec: 2.2, headline: HOOK, emphasis: "warm water", imagePath: picture },
      {
        ...scene,
        id: "proof",
        durationSec: 2.4,
        headline: "Ice-cold for 24 hours",
        imagePath: picture,
        stickers: [{ kind: "rating", stars: 4.8, count: 2314, text: "4.8 from 2,314 reviews" }],
      },
      // No picture and one short line: the stretch most likely to hold still.
      { ...scene, id: "plain", durationSec: 2.6, headline: "Fits every cup holder" },
      { ...scene, id: "cta", durationSec: 2, headline: "Cold at the summit.", cta: "Shop now" },
    ],
  };
  ad = await createStudioRenderer().render({ storyboard, format: "9:16", outputDir: dir, fileStem: "ad" });
  ocr = await createWorker("eng", 1, { langPath: eng.langPath, gzip: eng.gzip, cacheMethod: "none" });
}, 240_000);
afterAll(async () => {
  await ocr?.terminate();
  rmSync(dir, { recursive: true, force: true });
});

/** The frame shown at `atSec` as a PNG file. */
async function png(atSec: number): Promise<string> {
  const file = join(dir, `f-${atSec.toFixed(3)}.png`);
  await run(locateFfmpeg(), ["-v", "error", "-ss", atSec.toFixed(3), "-i", ad.videoPath, "-frames:v", "1", "-y", file]);
  return file;
}

/** Every frame, grey and 36×64, for measuring change. */
async function greyFrames(): Promise<Buffer[]> {
  const { stdout } = await run(
    locateFfmpeg(),
    ["-v", "error", "-i", ad.videoPath, "-vf", "scale=36:64,format=gray", "-f", "rawvideo", "-"],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  const size = 36 * 64;
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
}

const meanDiff = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;

describe("a 9:16 ad from the motion engine", () => {
  it("shows the hook, readable, in its first frame", async () => {
    const { data } = await ocr.recognize(await png(0));
    const read = normalizeText(data.text);
    for (const word of normalizeText(HOOK).split(" ")) expect(read, `frame 0 reads "${data.text}"`).toContain(word);
  });

  it("puts no word in the part of the frame the Reels and TikTok interface covers", { timeout: 120_000 }, async () => {
    const W = ad.width;
    const H = ad.height;
    const outside: string[] = [];
    let words = 0;
    for (let t = 0; t < ad.durationSec - 0.05; t += 1) {
      const { data } = await ocr.recognize(await png(t), {}, { blocks: true });
      for (const block of data.blocks ?? [])
        for (const paragraph of block.paragraphs)
          for (const line of paragraph.lines)
            for (const word of line.words) {
              if (word.confidence < 70 || word.text.replace(/[^A-Za-z0-9]/g, "").length < 3) continue;
              words++;
              const { x0, y0, x1, y1 } = word.bbox;
              if (y0 < 0.14 * H || y1 > 0.65 * H || x0 < 0.06 * W || x1 > 0.94 * W)
                outside.push(`${t}s "${word.text}" at ${x0},${y0}–${x1},${y1}`);
            }
    }
    expect(words, "OCR read the ad's words").toBeGreaterThan(8);
    expect(outside).toEqual([]);
  });

  it("never holds a frame that hardly changes for more than 2.5 s", async () => {
    const frames = await greyFrames();
    const fps = 30;
    expect(frames.length).toBe(Math.round(ad.durationSec * fps));
    // A stretch lasts while every frame stays within 1.5 grey levels (mean) of the stretch's first frame.
    let longest = 0;
    let start = 0;
    for (let i = 1; i < frames.length; i++) {
      if (meanDiff(frames[i]!, frames[start]!) >= 1.5) start = i;
      longest = Math.max(longest, (i - start + 1) / fps);
    }
    expect(longest).toBeLessThanOrEqual(2.5);
  });

  it("cuts on the beats of its music bed, within one frame", async () => {
    const frames = await greyFrames();
    const fps = 30;
    const beat = cutBeat(storyboard);
    // A cut: a frame far from the one before it (a new picture, a new page), where the scenes change.
    // (A fast entrance moves the frames just after it as much: a run of such frames is one cut, at its start.)
    const jumps = frames.flatMap((f, i) => (i > 0 && meanDiff(f, frames[i - 1]!) > 12 ? [i] : []));
    const cuts = jumps.filter((frame, k) => k === 0 || jumps[k - 1] !== frame - 1);
    expect(cuts.length).toBeGreaterThanOrEqual(storyboard.scenes.length - 1);
    for (const cut of cuts) {
      const beats = cut / fps / beat;
      expect(Math.abs(beats - Math.round(beats)) * beat * fps, `cut at frame ${cut}, beat ${beat.toFixed(3)} s`).toBeLessThanOrEqual(1);
    }
    // The ad ends on a beat of the bed too (the storyboard's length, moved onto the grid).
    const onBeat = onTheBeat(storyboard, fps, false);
    const total = onBeat.scenes.reduce((sum, scene) => sum + scene.durationSec, 0);
    expect(Math.abs(ad.durationSec - total)).toBeLessThan(1 / fps);
    const beats = total / beat;
    expect(Math.abs(beats - Math.round(beats)) * beat * fps).toBeLessThanOrEqual(1);
  });

  it("carries at least 516 kb/s of video, as H.264 yuv420p", async () => {
    const { stdout } = await run(locateFfprobe(), [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=codec_name,pix_fmt,bit_rate",
      "-of",
      "json",
      ad.videoPath,
    ]);
    const stream = JSON.parse(stdout).streams[0];
    expect(stream.codec_name).toBe("h264");
    expect(stream.pix_fmt).toBe("yuv420p");
    expect(Number(stream.bit_rate)).toBeGreaterThanOrEqual(VIDEO_BITRATE_FLOOR_KBPS * 1000);
  });
});
