// Narrated ads as a viewer sees them: word times measured from eSpeak NG's own audio, captions that show the
// phrase being said with the word being said marked, clear of the platform's interface, and a presenter slot
// that holds the user's own photo or clip, or nothing at all.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudioRenderer, locateFfmpeg, SAFE_MARGINS, type Storyboard } from "../src/modules/render/index.ts";
import type { Persona, RenderNarration } from "../src/modules/render/types.ts";
import { createEspeakSynthesizer, narrate, type Narration, parseWav, toWebVtt } from "../src/modules/voice/index.ts";
import type { VoiceSynthesizer } from "../src/modules/voice/types.ts";
import { envelope } from "../src/modules/voice/word-timing.ts";
import { difference, type Frame, frameAt, share } from "./support/frames.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";

const run = promisify(execFile);
const W = 360;
const H = 640;

let dir: string;
let voice: VoiceSynthesizer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "adgen-captions-"));
  voice = createEspeakSynthesizer();
});
afterAll(async () => {
  await voice.close?.();
  await stopOcr();
  rmSync(dir, { recursive: true, force: true });
});

describe("eSpeak NG word times", () => {
  it("are measured from the speech: increasing, inside the speech, at the quiet gaps between words", { timeout: 30_000 }, async () => {
    const said = await voice.synthesize("one two three four five six", {
      voice: "en-us",
      wordsPerMinute: 165,
      outPath: join(dir, "count.wav"),
    });
    const starts = said.words.map((w) => w.startSec);
    expect(said.words.map((w) => w.text)).toEqual(["one", "two", "three", "four", "five", "six"]);
    for (let k = 1; k < starts.length; k++) expect(starts[k]!).toBeGreaterThan(starts[k - 1]!);
    expect(starts[0]!).toBeGreaterThanOrEqual(said.speech.startSec - 0.011);
    expect(said.words.at(-1)!.endSec).toBeLessThanOrEqual(said.speech.endSec + 0.011);
    // Not an even split: the gaps between starts vary with the words.
    const steps = starts.slice(1).map((s, k) => s - starts[k]!);
    expect(Math.max(...steps) / Math.min(...steps)).toBeGreaterThan(1.2);
    // Each word starts where the audio has just been quiet (eSpeak leaves a short gap between these words):
    // a guess from letter counts lands inside the words.
    const env = envelope(parseWav(readFileSync(said.wavPath)));
    for (const start of starts.slice(1)) {
      const f = Math.round(start / 0.01);
      const before = Math.min(...Array.from(env.slice(Math.max(0, f - 4), f + 1)));
      const after = Math.max(...Array.from(env.slice(f, f + 8)));
      expect(before).toBeLessThan(-40);
      expect(after).toBeGreaterThan(before + 15);
    }
  });

  it("give a long word more time than a short one, and a pause after a sentence", { timeout: 30_000 }, async () => {
    const said = await voice.synthesize("Hi! A cat saw an extraordinarily unbelievable elephant.", {
      voice: "en-us",
      wordsPerMinute: 165,
      outPath: join(dir, "long.wav"),
    });
    const byText = new Map(said.words.map((w, k) => [w.text, { ...w, next: said.words[k + 1]?.startSec ?? w.endSec }]));
    const length = (t: string) => byText.get(t)!.next - byText.get(t)!.startSec;
    expect(length("extraordinarily")).toBeGreaterThan(2.5 * length("cat"));
    // The pause after "Hi!" is silence in the audio, and no word is placed in it.
    const hi = byText.get("Hi!")!;
    expect(said.words[1]!.startSec - hi.endSec).toBeGreaterThan(0.15);
    const env = envelope(parseWav(readFileSync(said.wavPath)));
    const gap = Array.from(env.slice(Math.ceil(hi.endSec / 0.01) + 1, Math.floor(said.words[1]!.startSec / 0.01) - 1));
    expect(Math.max(...gap)).toBeLessThan(-40);
  });
});

// ---- rendered ads ----

const brand = { name: "Acme", primary: "#1d3557", secondary: "#457b9d", accent: "#22dd44", text: "#f1faee" };
const storyboard: Storyboard = {
  title: "Captions",
  brand,
  scenes: [
    {
      id: "a",
      durationSec: 3,
      headline: "Fresh coffee beans",
      body: "Roasted every single morning for you",
      background: "#1d3557",
      accent: "#ff8800",
      transition: "fade",
    },
    { id: "b", durationSec: 3, headline: "Delivered weekly", background: "#1d3557", accent: "#ff8800", transition: "fade" },
    { id: "c", durationSec: 2, headline: "Acme", cta: "Shop now", background: "#1d3557", accent: "#ff8800", transition: "fade" },
  ],
};
/** The highlight box behind the word being said: the brand's accent, a green nothing else in these ads uses. */
const isAccent = (r: number, g: number, b: number) => g > 160 && r < 120 && b < 140;

let narration: Narration;
const renders = new Map<string, string>();
const renderer = createStudioRenderer({ preset: "ultrafast" });

async function render(name: string, opts: { captions: boolean; persona?: Persona }): Promise<string> {
  const known = renders.get(name);
  if (known) return known;
  const narrated: RenderNarration = { wavPath: narration.wavPath!, cues: opts.captions ? narration.cues : [] };
  const result = await renderer.render({
    storyboard: narration.storyboard,
    format: "9:16",
    outputDir: dir,
    fileStem: name,
    narration: narrated,
    ...(opts.persona ? { persona: opts.persona } : {}),
  });
  renders.set(name, result.videoPath);
  return result.videoPath;
}

const presenter: Persona = { kind: "presenter", name: "Acme", label: "Presenter" };
// Where a 9:16 frame (W×H, as fractions) holds the presenter: the name bar at the bottom left of the safe area
// (6 % from the left, its foot at the top of the platform's bottom 35 %), the slot for a photo or clip above it.
const NAME_BAR = { x: 0.08, y: 0.612, w: 0.14, h: 0.03 };
const NO_SLOT_ABOVE_BAR = { x: 0.1, y: 0.565, w: 0.16, h: 0.035 };
const PHOTO_SLOT = { x: 0.1, y: 0.34, w: 0.3, h: 0.24 };

describe("a narrated 9:16 ad", () => {
  beforeAll(async () => {
    narration = await narrate(storyboard, voice, { style: "presenter", maxAdSeconds: 12, workDir: dir });
  }, 60_000);

  it("has WebVTT cues of exactly the spoken words, in order, a short phrase each", () => {
    const vtt = toWebVtt(narration.cues);
    const cueTexts = vtt
      .split("\n\n")
      .slice(1)
      .map((block) => block.split("\n").slice(2).join(" ").trim());
    expect(cueTexts.join(" ")).toBe(
      narration.lines
        .map((l) => l.text)
        .filter(Boolean)
        .join(" "),
    );
    for (const text of cueTexts) expect(text.split(" ").length).toBeLessThanOrEqual(5);
    for (const cue of narration.cues) {
      expect(cue.words!.map((w) => w.text).join(" ")).toBe(cue.text);
      for (const w of cue.words!) expect(w.startSec).toBeGreaterThanOrEqual(cue.startSec - 1e-9);
    }
  });

  it("shows the phrase being said with the word being said marked, above the bottom 35 % and below the top 14 %", {
    timeout: 120_000,
  }, async () => {
    const captioned = await render("captioned", { captions: true, persona: presenter });
    const safe = SAFE_MARGINS["9:16"];
    // Cues before the closing scene (its call to action is on the end card, not captioned).
    const ends: number[] = [];
    let elapsed = 0;
    for (const scene of narration.storyboard.scenes) {
      elapsed += scene.durationSec;
      ends.push(elapsed);
    }
    const sceneAt = (t: number) => ends.findIndex((e) => t < e);
    const closing = ends.at(-2)!;
    const cues = narration.cues.filter((c) => c.endSec < closing - 0.3 && c.words!.length >= 2);
    expect(cues.length).toBeGreaterThanOrEqual(3);
    const wordTime = (cue: (typeof cues)[number], k: number) => (cue.words![k]!.startSec + Math.min(cue.endSec, cue.words![k]!.endSec)) / 2;
    let checked = 0;
    let compared = 0;
    for (const cue of cues.slice(0, 4)) {
      const k = cue.words!.length - 1;
      const at = wordTime(cue, k);
      const frame = await frameAt(captioned, at, W, H);
      // Another phrase of the same (still) scene: the platform's bands, the bottom 35 % and the top 14 % of a
      // 9:16 frame, are the same with either phrase on screen, so nothing of the captions is drawn there.
      const other = cues.find((c) => c !== cue && sceneAt(wordTime(c, 0)) === sceneAt(at));
      if (other) {
        const otherFrame = await frameAt(captioned, wordTime(other, 0), W, H);
        expect(difference(frame, otherFrame, { x: 0, y: 1 - safe.bottom, w: 1, h: safe.bottom })).toBeLessThan(0.5);
        expect(difference(frame, otherFrame, { x: 0, y: 0, w: 1, h: safe.top })).toBeLessThan(0.5);
        expect(difference(frame, otherFrame, { x: 0, y: safe.top, w: 1, h: 1 - safe.top - safe.bottom })).toBeGreaterThan(0.5);
        compared++;
      }
      // The marked word: a box in the accent colour, inside the safe band.
      const rows = accentRows(frame);
      expect(rows, `accent box at ${at}s`).not.toBeNull();
      expect(rows!.top / H).toBeGreaterThan(safe.top);
      expect(rows!.bottom / H).toBeLessThan(1 - safe.bottom);
      // The caption band reads as the phrase being said.
      const band = await crop(captioned, at, rows!.top - 5, rows!.bottom + 5);
      const read = normalizeText((await readText(band)).join(" "));
      const spoken = normalizeText(cue.text).split(" ");
      const found = spoken.filter((w) => read.split(" ").includes(w));
      expect(found.length, `"${read}" for "${cue.text}"`).toBeGreaterThanOrEqual(Math.ceil(spoken.length * 0.6));
      // The box sits behind the last word: it is in the right part of the phrase.
      const cols = accentCols(frame, rows!);
      const first = await frameAt(captioned, (cue.words![0]!.startSec + cue.words![1]!.startSec) / 2, W, H);
      const firstCols = accentCols(first, rows!);
      expect(firstCols).not.toBeNull();
      expect(cols!.left).toBeGreaterThan(firstCols!.left);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(compared).toBeGreaterThanOrEqual(2);
  });

  it("has no stand-in person when the presenter has no photo or clip", { timeout: 120_000 }, async () => {
    const plain = await render("plain", { captions: false, persona: presenter });
    const nobody = await render("nobody", { captions: false });
    const at = 1.5;
    const a = await frameAt(plain, at, W, H);
    const b = await frameAt(nobody, at, W, H);
    // Just above the name bar (where a photo's slot would be, left of the safe area): the scene itself.
    expect(difference(a, b, NO_SLOT_ABOVE_BAR)).toBeLessThan(1.5);
    // The name bar is there (the bottom-left of the safe area differs from the ad without a presenter).
    expect(difference(a, b, NAME_BAR)).toBeGreaterThan(10);
  });

  it("puts the presenter's photo in a slot with a slow push-in", { timeout: 120_000 }, async () => {
    const photo = join(dir, "face.png");
    await writeFace(photo);
    const withPhoto = await render("photo", { captions: false, persona: { ...presenter, photoPath: photo } });
    const nobody = await render("nobody", { captions: false });
    const early = await frameAt(withPhoto, 0.6, W, H);
    const late = await frameAt(withPhoto, narration.durationSec - 0.6, W, H);
    const slot = PHOTO_SLOT;
    // The photo's own colours fill the slot (magenta background, yellow face); the plain ad has none there.
    const photoColour = (r: number, g: number, b: number) => (r > 180 && b > 180 && g < 90) || (r > 200 && g > 180 && b < 90);
    expect(share(early, photoColour, slot)).toBeGreaterThan(0.45);
    expect(share(await frameAt(nobody, 0.6, W, H), photoColour, slot)).toBeLessThan(0.02);
    // It moves: the stripes on the face are not where they were.
    expect(
      difference(early, late, { x: PHOTO_SLOT.x + 0.02, y: PHOTO_SLOT.y + 0.02, w: PHOTO_SLOT.w - 0.04, h: PHOTO_SLOT.h - 0.04 }),
    ).toBeGreaterThan(8);
    // Outside the slot the frame is the scene as before (no slot frame, no badge).
    expect(difference(early, await frameAt(nobody, 0.6, W, H), { x: 0.55, y: 0.3, w: 0.3, h: 0.3 })).toBeLessThan(3);
  });

  it("plays the presenter's clip in the slot, looped past its end", { timeout: 120_000 }, async () => {
    const clip = join(dir, "selfie.mp4");
    await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x400:d=2:r=30", "-pix_fmt", "yuv420p", "-y", clip]);
    const withClip = await render("clip", { captions: false, persona: { ...presenter, videoPath: clip } });
    const nobody = await render("nobody", { captions: false });
    const slot = PHOTO_SLOT;
    for (const at of [0.5, 2.5]) {
      const a = await frameAt(withClip, at, W, H);
      const b = await frameAt(withClip, at + 0.4, W, H);
      expect(difference(a, await frameAt(nobody, at, W, H), slot)).toBeGreaterThan(20);
      // testsrc2 moves: two moments of the clip differ in the slot, before and after the clip's 2 s end.
      expect(difference(a, b, slot)).toBeGreaterThan(3);
    }
  });
});

describe("a narrated ad rendered scene by scene", () => {
  beforeAll(async () => {
    narration ??= await narrate(storyboard, voice, { style: "presenter", maxAdSeconds: 12, workDir: dir });
  }, 60_000);

  /** Each decoded frame's time (ffmpeg's framemd5 muxer). */
  async function frameTimes(file: string): Promise<number[]> {
    const { stdout } = await run(locateFfmpeg(), ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], {
      maxBuffer: 64 << 20,
    });
    return stdout
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => Number(line.split(",")[2]));
  }

  it("looks as the one-graph render does at every cut: captions, the presenter's photo moving on, the name bar", {
    timeout: 180_000,
  }, async () => {
    const photo = join(dir, "face-segments.png");
    await writeFace(photo);
    const request = {
      storyboard: narration.storyboard,
      format: "9:16" as const,
      outputDir: dir,
      narration: { wavPath: narration.wavPath!, cues: narration.cues },
      persona: { ...presenter, photoPath: photo },
    };
    const [bySegments, oneGraph] = await Promise.all([
      createStudioRenderer({ preset: "ultrafast" }).render({ ...request, fileStem: "narrated-segments" }),
      createStudioRenderer({ preset: "ultrafast", wholeGraph: true }).render({ ...request, fileStem: "narrated-graph" }),
    ]);
    const times = await frameTimes(bySegments.videoPath);
    expect(times).toHaveLength(Math.round(bySegments.durationSec * 30));
    expect(new Set(times.slice(1).map((t, i) => t - times[i]!)).size).toBe(1);
    // Just before and after each scene's end, and mid-scene: the same picture as the one graph's (the
    // encodes differ only in their keyframes), so the camera, the person and the captions carry on across cuts.
    let elapsed = 0;
    const moments: number[] = [];
    for (const scene of narration.storyboard.scenes) {
      moments.push(elapsed + scene.durationSec / 2);
      elapsed += scene.durationSec;
      if (elapsed < bySegments.durationSec - 0.2) moments.push(elapsed - 0.05, elapsed + 0.05);
    }
    for (const at of moments) {
      const [a, b] = await Promise.all([frameAt(bySegments.videoPath, at, W, H), frameAt(oneGraph.videoPath, at, W, H)]);
      expect(difference(a, b), `at ${at.toFixed(2)} s`).toBeLessThan(1.5);
    }
    // The captions are there in a later segment (the highlight box of the word being said).
    const [first, second] = narration.storyboard.scenes;
    const late = narration.cues.find(
      (cue) => cue.startSec > first!.durationSec + 0.2 && cue.endSec < first!.durationSec + second!.durationSec,
    )!;
    const word = late.words?.[0] ?? late;
    expect(accentRows(await frameAt(bySegments.videoPath, (word.startSec + word.endSec) / 2, W, H))).not.toBeNull();
  });
});

describe("a narrated ad whose scenes play clips (the user's footage, or generated ones)", () => {
  beforeAll(async () => {
    narration ??= await narrate(storyboard, voice, { style: "presenter", maxAdSeconds: 12, workDir: dir });
  }, 60_000);

  /** Renders the narrated storyboard with scene "b" playing a clip of moving grey noise (a clip scene has no still to draw on). */
  async function renderWithClipScene(name: string, persona?: Persona) {
    // A file of its own: two renders run at once, and one must not rewrite the clip the other is reading.
    const clip = join(dir, `scene-clip-${name}.mp4`);
    const noise = "color=c=0x808080:s=360x640:d=5:r=30,noise=alls=60:allf=t";
    await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", noise, "-pix_fmt", "yuv420p", "-y", clip]);
    const scenes = narration.storyboard.scenes.map((scene) => (scene.id === "b" ? { ...scene, videoPath: clip } : scene));
    const result = await renderer.render({
      storyboard: { ...narration.storyboard, scenes },
      format: "9:16",
      outputDir: dir,
      fileStem: `clip-scene-${name}`,
      narration: { wavPath: narration.wavPath!, cues: [] },
      ...(persona ? { persona } : {}),
    });
    const b = scenes.findIndex((scene) => scene.id === "b");
    const start = scenes.slice(0, b).reduce((sum, scene) => sum + scene.durationSec, 0);
    return { file: result.videoPath, inClip: start + 1.2 };
  }

  it("keeps the presenter's name bar over the clip, and the clip moves", { timeout: 240_000 }, async () => {
    const [withBar, without] = await Promise.all([renderWithClipScene("presenter", presenter), renderWithClipScene("none")]);
    const at = withBar.inClip;
    const [a, b, bare] = await Promise.all([
      frameAt(withBar.file, at, W, H),
      frameAt(withBar.file, at + 0.5, W, H),
      frameAt(without.file, at, W, H),
    ]);
    expect(difference(a, b, { x: 0.2, y: 0.2, w: 0.6, h: 0.2 }), "the clip plays").toBeGreaterThan(3);
    expect(difference(a, bare, NAME_BAR), "the name bar is drawn over the clip").toBeGreaterThan(10);
  });

  it("keeps a creator's handle chip over the clip, in the handheld camera", { timeout: 120_000 }, async () => {
    const selfie = await renderWithClipScene("selfie", { kind: "selfie", name: "@acmebeans" });
    const still = join(dir, "clip-scene-selfie.png");
    // The chip's corner (top left of the safe area), enlarged: the noise around it is no text.
    const corner = "crop=iw*0.4:ih*0.07:0:ih*0.02,scale=iw*3:-2";
    await run(locateFfmpeg(), [
      "-v",
      "error",
      "-ss",
      String(selfie.inClip),
      "-i",
      selfie.file,
      "-frames:v",
      "1",
      "-vf",
      corner,
      "-y",
      still,
    ]);
    expect(normalizeText((await readText(still)).join(" "))).toContain("acmebeans");
  });
});

describe("a narrated ad in other formats and personas", () => {
  beforeAll(async () => {
    narration ??= await narrate(storyboard, voice, { style: "presenter", maxAdSeconds: 12, workDir: dir });
  }, 60_000);

  it("keeps 16:9 captions inside the format's safe margins", { timeout: 120_000 }, async () => {
    const result = await renderer.render({
      storyboard: narration.storyboard,
      format: "16:9",
      outputDir: dir,
      fileStem: "wide",
      narration: { wavPath: narration.wavPath!, cues: narration.cues },
      persona: presenter,
    });
    const m = SAFE_MARGINS["16:9"];
    let seen = 0;
    for (const cue of narration.cues.slice(1, 4)) {
      const frame = await frameAt(result.videoPath, (cue.words![0]!.startSec + cue.words![0]!.endSec) / 2, 640, 360);
      const rows = accentRows(frame);
      if (!rows) continue;
      const cols = accentCols(frame, rows)!;
      expect(rows.top / 360).toBeGreaterThanOrEqual(m.top);
      expect(rows.bottom / 360).toBeLessThanOrEqual(1 - m.bottom);
      expect(cols.left / 640).toBeGreaterThanOrEqual(m.left);
      expect(cols.right / 640).toBeLessThanOrEqual(1 - m.right);
      seen++;
    }
    expect(seen).toBeGreaterThanOrEqual(2);
  });

  it("shows a creator's clip full-frame for the hook, then in the slot", { timeout: 120_000 }, async () => {
    const clip = join(dir, "creator.mp4");
    await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x400:d=2:r=30", "-pix_fmt", "yuv420p", "-y", clip]);
    const creator: Persona = { kind: "selfie", name: "@acme" };
    const withClip = await render("selfie-clip", { captions: false, persona: { ...creator, videoPath: clip } });
    const without = await render("selfie-none", { captions: false, persona: creator });
    const hook = narration.storyboard.scenes[0]!.durationSec;
    const inHook = 0.5;
    const after = hook + 0.8;
    // The hook: the clip fills the frame (the middle of the frame is the clip's, not the scene's).
    expect(
      difference(await frameAt(withClip, inHook, W, H), await frameAt(without, inHook, W, H), { x: 0.2, y: 0.2, w: 0.6, h: 0.3 }),
    ).toBeGreaterThan(25);
    // Afterwards: the clip in the slot at the bottom left; the rest of the frame is the scene again.
    const a = await frameAt(withClip, after, W, H);
    const b = await frameAt(without, after, W, H);
    expect(difference(a, b, { x: 0.14, y: 0.52, w: 0.3, h: 0.2 })).toBeGreaterThan(20);
    expect(difference(a, b, { x: 0.55, y: 0.2, w: 0.3, h: 0.3 })).toBeLessThan(3);
  });
});

/**
 * Rows holding a run of accent pixels (the highlight box), or null. The box's middle rows are mostly the white
 * word's letters, so rows a few pixels apart belong to one run. The presenter's name bar has an accent stripe and
 * label too, in rows of its own further down: the box is the run of rows with the most accent pixels.
 */
function accentRows(frame: Frame): { top: number; bottom: number } | null {
  type Run = { top: number; bottom: number; pixels: number };
  let best = null as Run | null;
  let run = null as Run | null;
  for (let y = 0; y <= frame.height; y++) {
    const pixels = y < frame.height ? share(frame, isAccent, { x: 0, y: y / frame.height, w: 1, h: 1 / frame.height }) * frame.width : 0;
    if (pixels >= 6) {
      run = run ? { top: run.top, bottom: y, pixels: run.pixels + pixels } : { top: y, bottom: y, pixels };
    } else if (run && y - run.bottom > Math.round(frame.height / 50)) {
      if (!best || run.pixels > best.pixels) best = run;
      run = null;
    }
  }
  return best ? { top: best.top, bottom: best.bottom } : null;
}

function accentCols(frame: Frame, rows: { top: number; bottom: number }): { left: number; right: number } | null {
  let left = -1;
  let right = -1;
  const region = (x: number) => ({
    x: x / frame.width,
    y: rows.top / frame.height,
    w: 1 / frame.width,
    h: (rows.bottom - rows.top + 1) / frame.height,
  });
  for (let x = 0; x < frame.width; x++) {
    if (share(frame, isAccent, region(x)) > 0.5) {
      if (left < 0) left = x;
      right = x;
    }
  }
  return left < 0 ? null : { left, right };
}

/**
 * Rows [top, bottom] (in W×H frame units) of the frame at `at` at full size, as black type on white for OCR:
 * white pixels (the caption's letters) black, everything else (outline, highlight box, scene) white.
 */
async function crop(file: string, at: number, top: number, bottom: number): Promise<Buffer> {
  const scale = 720 / W;
  const white = "'if(gt(r(X,Y),185)*gt(g(X,Y),185)*gt(b(X,Y),185),0,255)'";
  const y = Math.max(0, Math.round(top * scale));
  const h = Math.round((bottom - top) * scale);
  const { stdout } = await run(
    locateFfmpeg(),
    [
      "-v",
      "error",
      "-ss",
      at.toFixed(3),
      "-i",
      file,
      "-frames:v",
      "1",
      "-vf",
      `crop=720:${h}:0:${y},scale=1440:-2,format=rgb24,geq=r=${white}:g=${white}:b=${white}`,
      "-f",
      "image2",
      "-c:v",
      "png",
      "-",
    ],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** A face-like test photo: a yellow oval with dark stripes on magenta. */
async function writeFace(path: string): Promise<void> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const canvas = createCanvas(480, 600);
  const g = canvas.getContext("2d");
  g.fillStyle = "#ff00ff";
  g.fillRect(0, 0, 480, 600);
  g.fillStyle = "#ffe000";
  g.beginPath();
  g.ellipse(240, 280, 170, 220, 0, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = "#202020";
  for (let y = 100; y < 480; y += 24) g.fillRect(90, y, 300, 8);
  writeFileSync(path, await canvas.encode("png"));
}
