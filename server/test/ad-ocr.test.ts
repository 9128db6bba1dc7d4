// What a viewer reads on screen, read back from the rendered ads with OCR (tesseract.js, English data from
// npm): a brief that mixes copy, camera notes, tone words and a quoted tagline shows the copy and the
// tagline word for word, and none of the notes; no line ends in an ellipsis; each scene's frame shows that
// scene's text and no other scene's (two text blocks at once fail); and two briefs give different copy.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg, onTheBeat } from "../src/modules/render/index.ts";
import { tierFps } from "../src/modules/render/timeline.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";
import { settledJob } from "./support/wait-for.ts";

const run = promisify(execFile);
let app: TestApp;
let user: Account;
const work = mkdtempSync(join(tmpdir(), "adgen-ocr-"));

beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "10" });
  user = await signUp(app, "ocr-reader");
  await user.client.post("/user/brand", {
    brandName: BRAND,
    brandColors: "#0f3b5f, #7fc8f8, #f4f9ff",
    productDescription: "Insulated stainless steel water bottles that keep drinks cold for 24 hours.",
  });
});
afterAll(async () => {
  await stopOcr();
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

const BRAND = "Glacier Bottle Co.";
const DIRECTION = "Slow push-ins on the condensation on the steel, then the view from the top.";
const TONE = "Calm, confident, a little epic.";
const TAGLINE = "Cold at the summit.";
/** Too long for any headline box: it must be shortened at a clause boundary or left out, never cut with "…". */
const LONG_CLAIM =
  "Made from 18/8 food-grade stainless steel with a double vacuum wall that keeps water ice-cold for a full 24 hours on the trail.";
const CONCEPT = `Ice-cold water at the top of the climb. ${LONG_CLAIM} ${DIRECTION} ${TONE} "${TAGLINE}"`;

interface Scene {
  durationSec: number;
  headline: string;
  body?: string;
  cta?: string;
}

async function completedJob(body: Record<string, unknown>) {
  const launched = await user.client.post("/workflow", body);
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await settledJob(user.client, launched.body.data.jobId);
  if (job.status === "failed") throw new Error(`job failed: ${job.error}`);
  return job;
}

async function download(url: string, name: string): Promise<string> {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.jwt}` } });
  expect(res.status).toBe(200);
  const file = join(work, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** The text on the frame shown at `atSec`, read from a grey copy (tesseract misses type on some colours). */
async function textAt(video: string, atSec: number): Promise<string[]> {
  const frame = join(work, `${atSec.toFixed(2)}-${Math.random().toString(36).slice(2)}.png`);
  await run(locateFfmpeg(), ["-v", "error", "-ss", atSec.toFixed(3), "-i", video, "-frames:v", "1", "-pix_fmt", "gray", "-y", frame]);
  return readText(frame);
}

/**
 * Each scene's frame, well after its text arrived and before the next scene's transition. The video cuts on
 * its music's beat (beat-grid.ts): each scene is timed as the renderer timed it, a silent ad's end card at
 * most 2.6 s, not by the storyboard's own durations.
 */
async function sceneTexts(video: string, storyboard: any): Promise<string[][]> {
  const texts: string[][] = [];
  let start = 0;
  for (const scene of onTheBeat(storyboard, tierFps("standard"), false).scenes) {
    texts.push(await textAt(video, start + scene.durationSec * 0.65));
    start += scene.durationSec;
  }
  return texts;
}

const words = (text: string) =>
  normalizeText(text)
    .split(" ")
    .filter((w) => w.length >= 4);
const sceneText = (scene: Scene) => [scene.headline, scene.body, scene.cta].filter(Boolean).join(" ");

describe("what a viewer reads", () => {
  let scenes: Scene[];
  let read: string[][];

  beforeAll(async () => {
    const job = await completedJob({ type: "cinematic", concept: CONCEPT, formats: ["9:16"] });
    scenes = job.result.storyboard.scenes;
    const video = job.result.assets.find((a: any) => a.type === "video" && a.format === "9:16");
    read = await sceneTexts(await download(video.url, "cinematic.mp4"), job.result.storyboard);
  }, 200_000);

  it("shows the quoted tagline word for word, and none of the camera notes or tone words", () => {
    const shown = read.flat();
    const all = normalizeText(shown.join(" "));
    expect(all, shown.join(" / ")).toContain(normalizeText(TAGLINE));
    // A note reached the screen when three of its words in a row did (single words such as "steel" are
    // fair copy: the product is steel).
    const shownWords = all.split(" ");
    const shownRuns = new Set(shownWords.slice(2).map((w, i) => `${shownWords[i]} ${shownWords[i + 1]} ${w}`));
    for (const note of [DIRECTION, TONE]) {
      const noteWords = normalizeText(note).split(" ");
      const runs = noteWords.slice(2).map((w, i) => `${noteWords[i]} ${noteWords[i + 1]} ${w}`);
      expect(
        runs.filter((run) => shownRuns.has(run)),
        `"${note}" reached the screen: ${shown.join(" / ")}`,
      ).toEqual([]);
    }
  });

  it("never ends a line in an ellipsis", () => {
    for (const line of read.flat()) expect(line, line).not.toMatch(/(…|\.\.)\s*$/);
  });

  it("shows each scene's own text in its frame, and no other scene's", () => {
    scenes.forEach((scene, i) => {
      const seen = new Set(normalizeText(read[i]!.join(" ")).split(" "));
      const own = words(sceneText(scene));
      const found = own.filter((w) => seen.has(w));
      expect(found.length, `scene ${i} shows ${read[i]!.join(" / ")}, expected "${sceneText(scene)}"`).toBeGreaterThanOrEqual(
        Math.ceil(own.length * 0.6),
      );
      const others = new Set(scenes.filter((_, j) => j !== i).flatMap((s) => words(sceneText(s))));
      // The brand's name is on every scene by design (a brand line, then the end card).
      const brand = words(BRAND);
      const foreign = [...seen].filter((w) => w.length >= 5 && others.has(w) && !own.includes(w) && !brand.includes(w));
      expect(foreign, `scene ${i} also shows another scene's words: ${read[i]!.join(" / ")}`).toEqual([]);
    });
  });

  it("gives a different brief different copy", async () => {
    const job = await completedJob({
      type: "cinematic",
      concept: 'Coffee stays hot through a three-hour meeting. Made for people who never get to finish a cup. "Hot until the last sip."',
      formats: ["9:16"],
    });
    const video = job.result.assets.find((a: any) => a.type === "video" && a.format === "9:16");
    const other = await sceneTexts(await download(video.url, "other.mp4"), job.result.storyboard);
    const first = new Set(words(read.flat().join(" ")));
    const second = words(other.flat().join(" "));
    const shared = second.filter((w) => first.has(w) && !words(BRAND).includes(w));
    expect(shared.length, `shared: ${shared.join(", ")}`).toBeLessThan(second.length / 2);
    expect(normalizeText(other.flat().join(" "))).toContain(normalizeText("Hot until the last sip."));
  }, 200_000);
});
