// Render by scene: each scene is encoded as its own segment and the segments are joined without
// encoding again. The joined MP4 has every frame once, at its time, with the sound unbroken across the cuts;
// and a render after an edit of one scene encodes only that scene, taking the others from the cache.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudioRenderer, locateFfmpeg, type Storyboard } from "../src/modules/render/index.ts";
import type { SegmentCache } from "../src/modules/render/scene-segments.ts";
import { difference, frameAt } from "./support/frames.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";

const run = promisify(execFile);
/** The middle of the frame, where these scenes' lines are (OCR reads a band better than a whole frame). */
// The text part of a 9:16 frame: the Reels safe zone (below the top 14 %, above the bottom 35 %).
// Its light type made black on white for OCR: the scene's moving gradient behind a two-line headline reads as noise.
const WHITE = "'if(gt(r(X,Y),185)*gt(g(X,Y),185)*gt(b(X,Y),185),0,255)'";
const TEXT_BAND = `crop=iw:ih*0.51:0:ih*0.14,format=rgb24,geq=r=${WHITE}:g=${WHITE}:b=${WHITE}`;
/** A moment late in scene b (2 s to 4 s), when every word of its headline is in (the choreography's rest). */
const B_AT_REST = 3.85;
let dir: string;

/** A segment cache in a folder, counting what it was asked. */
function folderCache(folder: string): SegmentCache & { hits: number; misses: number } {
  return {
    hits: 0,
    misses: 0,
    async get(key) {
      const file = join(folder, key);
      if (existsSync(file)) {
        this.hits++;
        return file;
      }
      if (!key.endsWith(".thumb")) this.misses++;
      return null;
    },
    async put(key, file) {
      await copyFile(file, join(folder, key));
    },
  };
}

const brand = { name: "Acme", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" };
const storyboard: Storyboard = {
  title: "Segments",
  brand,
  scenes: [
    { id: "a", durationSec: 2, headline: "Fresh coffee beans", background: "#1d3557", accent: "#e63946", transition: "fade" },
    { id: "b", durationSec: 2, headline: "Roasted every morning", background: "#457b9d", accent: "#e63946", transition: "fade" },
    { id: "c", durationSec: 2, headline: "Acme", cta: "Shop now", background: "#1d3557", accent: "#e63946", transition: "fade" },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "adgen-segments-"));
});
afterAll(async () => {
  await stopOcr();
  await rm(dir, { recursive: true, force: true });
});

/** Each decoded frame's time and pixel hash (ffmpeg's framemd5 muxer). */
async function framesOf(file: string): Promise<{ pts: number; hash: string }[]> {
  const { stdout } = await run(locateFfmpeg(), ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], { maxBuffer: 64 << 20 });
  return stdout
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(",").map((part) => part.trim()))
    .map((parts) => ({ pts: Number(parts[2]), hash: parts[5]! }));
}

describe("an ad rendered scene by scene", () => {
  it("has every frame once, at its time, and the sound runs on across the cuts", { timeout: 120_000 }, async () => {
    const renderer = createStudioRenderer({ preset: "ultrafast" });
    const result = await renderer.render({ storyboard, format: "9:16", outputDir: dir, fileStem: "joined" });
    const frames = await framesOf(result.videoPath);
    expect(frames).toHaveLength(Math.round(result.durationSec * 30));
    // The times step by exactly one frame: nothing repeated or dropped where the segments meet.
    const steps = new Set(frames.slice(1).map((f, i) => f.pts - frames[i]!.pts));
    expect([...steps]).toHaveLength(1);
    // The scenes' own lines, in their own scenes: scene b's headline once all its words have arrived (the motion
    // engine brings them in one by one over the scene's first part), just before the cut at 4 s.
    const still = join(dir, "b.png");
    await run(locateFfmpeg(), [
      "-v",
      "error",
      "-ss",
      String(B_AT_REST),
      "-i",
      result.videoPath,
      "-frames:v",
      "1",
      "-vf",
      TEXT_BAND,
      "-y",
      still,
    ]);
    expect(normalizeText((await readText(still)).join(" "))).toContain("roasted every morning");
    // The music bed plays on through the cuts (at 2 s and 4 s): no silence anywhere.
    const { stderr } = await run(locateFfmpeg(), [
      "-i",
      result.videoPath,
      "-map",
      "0:a",
      "-af",
      "silencedetect=n=-50dB:d=0.1",
      "-f",
      "null",
      "-",
    ]);
    expect(stderr).not.toMatch(/silence_start/);
    expect(existsSync(result.thumbnailPath)).toBe(true);

    // At premium's 60 fps as well.
    const premium = await renderer.render({ storyboard, format: "1:1", outputDir: dir, fileStem: "premium", quality: "premium" });
    const premiumFrames = await framesOf(premium.videoPath);
    expect(premiumFrames).toHaveLength(Math.round(premium.durationSec * 60));
    expect(new Set(premiumFrames.slice(1).map((f, i) => f.pts - premiumFrames[i]!.pts)).size).toBe(1);
  });

  it("after an edit of one scene, encodes only that scene and takes the others from the cache", { timeout: 180_000 }, async () => {
    const folder = join(dir, "cache");
    await mkdir(folder);
    const cache = folderCache(folder);
    const renderer = createStudioRenderer({ preset: "ultrafast", segmentCache: cache });
    const first = await renderer.render({ storyboard, format: "9:16", outputDir: dir, fileStem: "first" });
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 3 });

    const edited: Storyboard = {
      ...storyboard,
      scenes: storyboard.scenes.map((s) => (s.id === "b" ? { ...s, headline: "Ground fresh to order" } : s)),
    };
    const second = await renderer.render({ storyboard: edited, format: "9:16", outputDir: dir, fileStem: "second" });
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 3, misses: 4 });
    expect(second.durationSec).toBe(first.durationSec);
    // The edited scene shows its new line; the others are the same pictures as before.
    const still = join(dir, "b2.png");
    await run(locateFfmpeg(), [
      "-v",
      "error",
      "-ss",
      String(B_AT_REST),
      "-i",
      second.videoPath,
      "-frames:v",
      "1",
      "-vf",
      TEXT_BAND,
      "-y",
      still,
    ]);
    expect(normalizeText((await readText(still)).join(" "))).toContain("ground fresh to order");
    const [a1, a2] = await Promise.all([frameAt(first.videoPath, 1, 108, 192), frameAt(second.videoPath, 1, 108, 192)]);
    expect(difference(a1, a2)).toBeLessThan(0.5);

    // The same storyboard again: every segment comes from the cache, and the file plays the same.
    await renderer.render({ storyboard: edited, format: "9:16", outputDir: dir, fileStem: "third" });
    expect(cache.misses).toBe(4);
  });

  it("renders the right film when a scene is removed or two scenes swap places", { timeout: 180_000 }, async () => {
    const folder = join(dir, "cache-order");
    await mkdir(folder);
    const cache = folderCache(folder);
    const renderer = createStudioRenderer({ preset: "ultrafast", segmentCache: cache });
    const lines = ["Fresh coffee beans", "Roasted every morning", "Ground to order", "Sent the same day", "Acme"];
    const five: Storyboard = {
      ...storyboard,
      scenes: lines.map((headline, i) => ({
        id: `s${i}`,
        durationSec: 1.5,
        headline,
        background: i % 2 ? "#457b9d" : "#1d3557",
        accent: "#e63946",
        transition: "fade" as const,
        ...(i === 4 ? { cta: "Shop now" } : {}),
      })),
    };
    await renderer.render({ storyboard: five, format: "1:1", outputDir: dir, fileStem: "five" });
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 5 });

    // Without the second scene, and with two scenes swapped: cuts land on the music's beat, and the bed's tempo
    // is fitted to the ad's length, so a scene's length (and its segment) follows its place and the ad's length;
    // a scene whose on-beat length and role are unchanged comes from the cache (the edit test above), the
    // others are encoded again. The files are right either way.
    const four = { ...five, scenes: five.scenes.filter((s) => s.id !== "s1") };
    const shorter = await renderer.render({ storyboard: four, format: "1:1", outputDir: dir, fileStem: "four" });
    expect(shorter.durationSec).toBeCloseTo(6, 2);
    const order = [0, 2, 1, 3, 4].map((i) => five.scenes[i]!);
    const swapped = await renderer.render({ storyboard: { ...five, scenes: order }, format: "1:1", outputDir: dir, fileStem: "swapped" });
    expect(swapped.durationSec).toBeCloseTo(7.5, 2);
    const still = join(dir, "swapped-2.png");
    await run(locateFfmpeg(), ["-v", "error", "-ss", "2.2", "-i", swapped.videoPath, "-frames:v", "1", "-vf", TEXT_BAND, "-y", still]);
    const seen = normalizeText((await readText(still)).join(" "));
    expect(seen).toContain("ground to");
    expect(seen).not.toContain("roasted");
  });

  it("repeats no frame where segments meet: every frame of a moving ad differs from the one before", { timeout: 120_000 }, async () => {
    const picture = join(dir, "detail.png");
    await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=1600x1200", "-frames:v", "1", "-y", picture]);
    const moving: Storyboard = {
      ...storyboard,
      scenes: storyboard.scenes.map((scene, i) => ({
        ...scene,
        imagePath: picture,
        motion: i % 2 ? ("pull-out" as const) : ("push-in" as const),
        transition: "none" as const,
      })),
    };
    const result = await createStudioRenderer({ preset: "ultrafast" }).render({
      storyboard: moving,
      format: "1:1",
      outputDir: dir,
      fileStem: "moving",
    });
    const frames = await framesOf(result.videoPath);
    expect(frames).toHaveLength(Math.round(result.durationSec * 30));
    const repeated = frames.slice(1).flatMap((f, i) => (f.hash === frames[i]!.hash ? [i + 1] : []));
    expect(repeated).toEqual([]);
  });
});
