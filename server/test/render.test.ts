// The studio renderer: real ffmpeg renders (system ffmpeg and the npm static build), probed with ffprobe.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FORMATS, tierFrameSize } from "@adgen/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fontMetrics } from "../src/modules/render/font-metrics.ts";
import { escapeValue } from "../src/modules/render/graph.ts";
import { wrapText } from "../src/modules/render/layout.ts";
import {
  createStudioRenderer,
  detectCapabilities,
  FfmpegError,
  layoutScene,
  locateFfmpeg,
  locateFont,
  planTimeline,
  type Scene,
  type Storyboard,
  StoryboardValidationError,
} from "../src/modules/render/index.ts";
import { probe } from "./support/ffprobe.ts";

const require = createRequire(import.meta.url);
const STATIC_FFMPEG = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;

const brand = { name: "Acme Coffee Co.", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" };

function scene(overrides: Partial<Scene> = {}): Scene {
  return {
    id: "s",
    durationSec: 1,
    headline: "Wake up to better coffee",
    body: "Single-origin beans, delivered in 48 hours.",
    background: "#1d3557",
    accent: "#e63946",
    transition: "fade",
    ...overrides,
  };
}

function twoScenes(): Storyboard {
  return {
    title: "Test ad",
    brand,
    scenes: [
      scene({ id: "a" }),
      scene({ id: "b", headline: "Order now", body: undefined, cta: "Shop now", background: "#f1faee", transition: "slide" }),
    ],
  };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "adgen-render-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function outDir(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

describe("layout and escaping (no ffmpeg)", () => {
  const metrics = fontMetrics(locateFont());
  const long = `${"Supercalifragilisticexpialidocious ".repeat(3)}and a headline that goes on and on well past two lines`;

  it.each(FORMATS.map((f) => f.ratio))("keeps every text line and panel inside the %s safe area", (format) => {
    const { width, height } = FORMATS.find((f) => f.ratio === format)!;
    for (const hasImage of [false, true]) {
      const layout = layoutScene({
        scene: scene({ headline: long, body: "Body ".repeat(120), cta: "Get 50% off: today only, while stocks last" }),
        brand,
        format,
        width,
        height,
        metrics,
        hasImage,
      });
      const { safe } = layout;
      expect(layout.texts.length).toBeGreaterThan(5);
      for (const t of layout.texts) {
        expect(t.centerX - t.width / 2).toBeGreaterThanOrEqual(safe.x);
        expect(t.centerX + t.width / 2).toBeLessThanOrEqual(safe.x + safe.w);
        expect(t.baseline - metrics.ascent * t.size).toBeGreaterThanOrEqual(safe.y);
        expect(t.baseline + metrics.descent * t.size).toBeLessThanOrEqual(safe.y + safe.h);
      }
      // Every box but the decorative top stripe is inside the safe area too.
      for (const b of layout.boxes.slice(1)) {
        expect(b.x).toBeGreaterThanOrEqual(safe.x);
        expect(b.x + b.w).toBeLessThanOrEqual(safe.x + safe.w);
        expect(b.y).toBeGreaterThanOrEqual(safe.y);
        expect(b.y + b.h).toBeLessThanOrEqual(safe.y + safe.h);
      }
    }
  });

  it("wraps to the width, breaking over-long words with a hyphen, and keeps every character", () => {
    const measure = (s: string) => metrics.measure(s, 80);
    const text = "Pneumonoultramicroscopicsilicovolcanoconiosis is a word; so is anti-establishment-arianism.";
    const lines = wrapText(text, 500, measure);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(measure(line)).toBeLessThanOrEqual(500);
    const joined = lines.map((l) => l.replace(/-$/, "")).join("");
    expect(joined).toContain("Pneumonoultramicroscopicsilicovolcanoconiosis");
    expect(wrapText("one\ntwo three", 10_000, measure)).toEqual(["one", "two three"]);
  });

  it("escapes filter option values for both parser levels", () => {
    expect(escapeValue("a:b")).toBe("a\\\\:b");
    expect(escapeValue("it's")).toBe("it\\\\\\'s");
    expect(escapeValue("x,y[z];")).toBe("x\\,y\\[z\\]\\;");
    expect(escapeValue("c:\\path")).toBe("c\\\\:\\\\\\\\path");
  });

  it("plans frame-exact scene boundaries that sum to the total", () => {
    const t = planTimeline([scene({ durationSec: 1.01 }), scene({ durationSec: 0.5, transition: "none" }), scene({ durationSec: 2.333 })]);
    expect(t.totalFrames).toBe(Math.round((1.01 + 0.5 + 2.333) * 30));
    expect(t.frames.reduce((a, b) => a + b, 0)).toBe(t.totalFrames);
    expect(t.transitions[1]).toBe(0);
  });
});

describe("validation", () => {
  const renderer = createStudioRenderer();

  it("rejects an invalid colour, bad durations and an empty storyboard with a clear error", async () => {
    const bad = twoScenes();
    bad.scenes[0]!.background = "red";
    bad.scenes[1]!.durationSec = 0.1;
    const error = await renderer
      .render({ storyboard: bad, format: "1:1", outputDir: outDir("invalid"), fileStem: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoryboardValidationError);
    expect((error as Error).message).toMatch(/scenes\[0\]\.background must be a #rrggbb colour/);
    expect((error as Error).message).toMatch(/scenes\[1\]\.durationSec must be between 0.5 and 60/);
    await expect(
      renderer.render({ storyboard: { ...twoScenes(), scenes: [] }, format: "1:1", outputDir: outDir("invalid"), fileStem: "x" }),
    ).rejects.toThrow(/at least one scene/);
    await expect(
      renderer.render({
        storyboard: { ...twoScenes(), brand: { ...brand, text: "#fff" } },
        format: "1:1",
        outputDir: outDir("invalid"),
        fileStem: "x",
      }),
    ).rejects.toThrow(/brand\.text/);
    await expect(
      renderer.render({ storyboard: twoScenes(), format: "1:1", outputDir: outDir("invalid"), fileStem: "../x" }),
    ).rejects.toThrow(/fileStem/);
    await expect(renderer.previewFrame(twoScenes(), 5, "1:1", join(outDir("invalid"), "p.png"))).rejects.toThrow(/out of range/);
    expect(readdirSync(outDir("invalid"))).toEqual([]);
  });

  it("rejects a missing scene image", async () => {
    const storyboard = twoScenes();
    storyboard.scenes[0]!.imagePath = join(dir, "nope.png");
    await expect(renderer.render({ storyboard, format: "1:1", outputDir: outDir("invalid"), fileStem: "x" })).rejects.toThrow(
      /imagePath is not a readable file/,
    );
  });
});

describe("capabilities", () => {
  it("finds xfade in the system ffmpeg but not in the npm static build", async () => {
    const system = await detectCapabilities(locateFfmpeg());
    const npm = await detectCapabilities(STATIC_FFMPEG);
    for (const caps of [system, npm]) expect(caps).toMatchObject({ drawtext: true, libx264: true, aac: true });
    expect(npm.xfade).toBe(false);
    if (locateFfmpeg() === "/usr/bin/ffmpeg") expect(system.xfade).toBe(true);
    // Cached: the same promise-backed result comes back.
    expect(await detectCapabilities(STATIC_FFMPEG)).toBe(npm);
  });
});

describe("rendering", () => {
  const renderer = createStudioRenderer({ threads: 2 });

  // A standard render (the default) is 720p at 30 fps; premium (render-tiers.test.ts) is the format's full size.
  it.each(FORMATS.map((f) => [f.ratio, tierFrameSize(f.ratio, "standard").width, tierFrameSize(f.ratio, "standard").height] as const))(
    "renders %s at %ix%i: H.264 + AAC, the scenes' total duration, a same-aspect thumbnail",
    async (format, width, height) => {
      const out = outDir(`format-${format.replace(":", "x")}`);
      const progress: number[] = [];
      const result = await renderer.render({
        storyboard: twoScenes(),
        format,
        outputDir: out,
        fileStem: "ad",
        onProgress: (f) => progress.push(f),
      });
      expect(result).toMatchObject({
        width,
        height,
        format,
        durationSec: 2,
        videoPath: join(out, "ad.mp4"),
        thumbnailPath: join(out, "ad.jpg"),
      });
      const video = await probe(result.videoPath);
      expect(video).toMatchObject({
        width,
        height,
        videoCodec: "h264",
        audioCodec: "aac",
        pixFmt: "yuv420p",
        frameRate: "30/1",
        videoFrames: 60,
      });
      expect(video.durationSec).toBeGreaterThan(1.7);
      expect(video.durationSec).toBeLessThan(2.3);
      expect(result.bytes).toBeGreaterThan(1000);
      const thumb = await probe(result.thumbnailPath);
      expect(thumb.videoCodec).toBe("mjpeg");
      expect(thumb.width / thumb.height).toBeCloseTo(width / height, 2);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(readdirSync(out).sort()).toEqual(["ad.jpg", "ad.mp4"]);
    },
    30_000,
  );

  it("renders special characters, a very long headline, an image and every transition", async () => {
    const image = join(dir, "photo 100%.png");
    execFileSync(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1", "-update", "1", "-y", image]);
    const storyboard: Storyboard = {
      title: `It's "quoted": 100%`,
      brand: { ...brand, name: "Brand, Inc.: [test] 'quoted' 50%" },
      scenes: [
        scene({
          id: "a",
          headline: '50% off: "Best" deal, today\n',
          body: "Back\\slash \\n, colon: comma, percent %{pts} 'single' [brackets]; semi",
          transition: "none",
        }),
        scene({
          id: "b",
          headline: `${"Extraordinarily long headline that keeps going ".repeat(5)}Pneumonoultramicroscopicsilicovolcanoconiosis`,
          cta: "Buy → now",
          transition: "wipe",
          durationSec: 0.75,
        }),
        scene({ id: "c", headline: "With a photo", imagePath: image, transition: "slide", durationSec: 0.5 }),
        scene({ id: "d", headline: "Ünïcödé — “typographic” quotes…", background: "#ffd166", transition: "fade", durationSec: 0.75 }),
      ],
    };
    const out = outDir("special");
    const result = await renderer.render({ storyboard, format: "9:16", outputDir: out, fileStem: "special" });
    const video = await probe(result.videoPath);
    expect(video).toMatchObject({ width: 720, height: 1280, videoCodec: "h264", audioCodec: "aac", videoFrames: 90 });
    expect(Math.abs(video.durationSec - 3)).toBeLessThan(0.3);
  }, 30_000);

  it("renders with the npm static ffmpeg (no xfade: scenes are cut on the beat)", async () => {
    const staticRenderer = createStudioRenderer({ ffmpegPath: STATIC_FFMPEG, threads: 2 });
    const storyboard = twoScenes();
    storyboard.scenes.push(scene({ id: "c", headline: "Wipe", transition: "wipe", body: '50% off: "Best" deal, today' }));
    const out = outDir("static");
    const progress: number[] = [];
    const result = await staticRenderer.render({
      storyboard,
      format: "16:9",
      outputDir: out,
      fileStem: "static",
      onProgress: (f) => progress.push(f),
    });
    expect(progress.at(-1)).toBe(1);
    const video = await probe(result.videoPath);
    expect(video).toMatchObject({ width: 1280, height: 720, videoCodec: "h264", audioCodec: "aac", pixFmt: "yuv420p", videoFrames: 90 });
    expect(Math.abs(video.durationSec - 3)).toBeLessThan(0.3);
    const preview = await staticRenderer.previewFrame(storyboard, 2, "9:16", join(out, "preview.png"));
    expect(await probe(preview)).toMatchObject({ width: 1080, height: 1920, videoCodec: "png" });
  }, 30_000);

  it("previewFrame writes a PNG of the format's size", async () => {
    const out = outDir("preview");
    const path = await renderer.previewFrame(twoScenes(), 1, "4:5", join(out, "scene-1.png"));
    expect(path).toBe(join(out, "scene-1.png"));
    expect(await probe(path)).toMatchObject({ width: 1080, height: 1350, videoCodec: "png" });
    expect(readdirSync(out)).toEqual(["scene-1.png"]);
  });

  it("aborting kills ffmpeg, rejects with an AbortError and leaves no mp4 behind", async () => {
    const out = outDir("abort");
    const long: Storyboard = { ...twoScenes(), scenes: [scene({ durationSec: 60 }), scene({ durationSec: 60 })] };
    const controller = new AbortController();
    const started = Date.now();
    const pending = renderer.render({
      storyboard: long,
      format: "9:16",
      outputDir: out,
      fileStem: "aborted",
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0) controller.abort();
      },
    });
    setTimeout(() => controller.abort(), 3000);
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error.name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(readdirSync(out)).toEqual([]);
    // An already-aborted signal never starts ffmpeg.
    await expect(
      renderer.render({ storyboard: twoScenes(), format: "1:1", outputDir: out, fileStem: "x", signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
  }, 20_000);

  it("a picture that cannot be decoded, or a failing ffmpeg run, rejects with a reason and leaves nothing", async () => {
    const corrupt = join(dir, "corrupt.png");
    writeFileSync(corrupt, "this is not a PNG");
    const storyboard = twoScenes();
    storyboard.scenes[1]!.imagePath = corrupt;
    const out = outDir("failure");
    const error = (await renderer.render({ storyboard, format: "1:1", outputDir: out, fileStem: "x" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/picture .* cannot be decoded .*PNG, JPEG or WebP/);
    expect(readdirSync(out)).toEqual([]);
    // A clip ffmpeg cannot read fails in ffmpeg, with the tail of its stderr.
    const clipped = twoScenes();
    clipped.scenes[1]!.videoPath = corrupt;
    const failed = (await renderer
      .render({ storyboard: clipped, format: "1:1", outputDir: out, fileStem: "x" })
      .catch((e: unknown) => e)) as Error;
    expect(failed).toBeInstanceOf(FfmpegError);
    expect(failed.message).toMatch(/^ffmpeg exited with code \d+\n/);
    expect(failed.message.split("\n").length).toBeGreaterThan(1);
    expect(failed.message.split("\n").length).toBeLessThanOrEqual(21);
    expect(readdirSync(out)).toEqual([]);
    await expect(
      createStudioRenderer({ fontPath: join(dir, "missing.ttf") }).render({
        storyboard: twoScenes(),
        format: "1:1",
        outputDir: out,
        fileStem: "x",
      }),
    ).rejects.toThrow(/Font file not found/);
  });
});
