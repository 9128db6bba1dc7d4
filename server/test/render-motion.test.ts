// Motion and sound of the studio's ads, judged from the rendered file as a viewer would: the camera moves
// over a scene's picture, the type arrives after the cut and then stays while the page lives, the logo closes the ad,
// and each mood has its own music.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudioRenderer, locateFfmpeg, type Scene, type Storyboard } from "../src/modules/render/index.ts";
import { difference, frameAt, isBlue, isGreen, isMagenta, PICTURE_BAND, share, writeTestPictures } from "./support/frames.ts";
import { probe } from "./support/ffprobe.ts";

const run = promisify(execFile);
const renderer = createStudioRenderer();
const brand = { name: "Acme Sleep", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#ffffff" };

let dir: string;
let picture: string;
let logo: string;
let grid: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-motion-"));
  ({ picture, logo } = await writeTestPictures(dir));
  // A grid, so a zoom from the centre moves every line.
  grid = join(dir, "grid.jpg");
  await run(locateFfmpeg(), [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "color=c=0x00c000:s=1200x1600",
    "-vf",
    "drawgrid=w=100:h=100:t=24:c=0xff00ff",
    "-frames:v",
    "1",
    "-y",
    grid,
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scene = (overrides: Partial<Scene>): Scene => ({
  id: "s",
  durationSec: 2,
  headline: "Sleep deeper tonight",
  background: "#1d3557",
  accent: "#e63946",
  transition: "fade",
  ...overrides,
});

async function render(storyboard: Storyboard, stem: string) {
  const result = await renderer.render({ storyboard, format: "9:16", outputDir: dir, fileStem: stem });
  return result.videoPath;
}

const green = isGreen;
const magenta = isMagenta;
const blue = isBlue;

describe("the studio's motion", () => {
  it("pans across a scene's picture, brings the type in after the cut, and closes on the logo", { timeout: 120_000 }, async () => {
    const storyboard: Storyboard = {
      title: "Motion",
      brand: { ...brand, logoPath: logo },
      scenes: [
        // The product high in the picture, clear of the panel, so the picture fills the frame and the camera pans.
        scene({
          id: "pan",
          durationSec: 2.5,
          imagePath: picture,
          subject: { x: 0.3, y: 0.08, w: 0.4, h: 0.3 },
          motion: "pan-left",
          textMotion: "none",
        }),
        scene({ id: "type", durationSec: 2, headline: "Wake up rested", background: "#457b9d", textMotion: "rise" }),
        scene({ id: "end", durationSec: 1.5, headline: "Acme Sleep", cta: "Shop now", background: "#e63946", accent: "#1d3557" }),
      ],
    };
    const file = await render(storyboard, "motion");
    expect((await probe(file)).durationSec).toBeCloseTo(6, 0);

    // The picture is on screen, and the camera moves over it: the green/magenta edge travels.
    const early = await frameAt(file, 0.5, 108, 192);
    const late = await frameAt(file, 2.0, 108, 192);
    expect(share(early, green, PICTURE_BAND)).toBeGreaterThan(0.2);
    expect(share(early, magenta, PICTURE_BAND)).toBeGreaterThan(0.2);
    expect(difference(early, late, PICTURE_BAND)).toBeGreaterThan(8);
    expect(share(late, green, PICTURE_BAND)).toBeLessThan(share(early, green, PICTURE_BAND));

    // Scene 2 (2.5–4.5 s, cut on the beat): the type rises into place just after the cut, then stays put while
    // the background keeps drifting (a living page, not a held frame).
    const arriving = await frameAt(file, 2.5 + 0.15, 108, 192);
    const settled = await frameAt(file, 3.6, 108, 192);
    const stillSettled = await frameAt(file, 4.1, 108, 192);
    expect(difference(arriving, settled)).toBeGreaterThan(1);
    expect(difference(settled, stillSettled)).toBeGreaterThan(0);
    expect(difference(settled, stillSettled)).toBeLessThan(difference(arriving, settled));

    // The logo closes the ad (and only the last scene shows it).
    const closing = await frameAt(file, 5.2, 108, 192);
    expect(share(closing, blue)).toBeGreaterThan(0.005);
    expect(share(early, blue)).toBe(0);
  });

  it("pushes in on a picture: the frame grows from the centre", { timeout: 60_000 }, async () => {
    const file = await render(
      {
        title: "Zoom",
        brand,
        scenes: [scene({ id: "zoom", durationSec: 2.5, imagePath: grid, motion: "push-in", textMotion: "none", headline: "Closer" })],
      },
      "zoom",
    );
    const start = await frameAt(file, 0.4, 108, 192);
    const end = await frameAt(file, 2.1, 108, 192);
    expect(difference(start, end, PICTURE_BAND)).toBeGreaterThan(8);
  });
});

/** The first `seconds` of a file's audio as 8 kHz mono samples. */
async function samples(file: string, seconds: number): Promise<Int16Array> {
  const { stdout } = await run(
    locateFfmpeg(),
    ["-v", "error", "-i", file, "-t", String(seconds), "-ac", "1", "-ar", "8000", "-f", "s16le", "-"],
    {
      encoding: "buffer",
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
}

const rms = (s: Int16Array) => Math.sqrt(s.reduce((sum, v) => sum + v * v, 0) / s.length);

describe("the music bed", () => {
  it("sounds different for each mood, and is never silent", { timeout: 90_000 }, async () => {
    const beds: Record<string, Int16Array> = {};
    for (const mood of ["energetic", "luxurious", "playful"] as const) {
      const file = await render({ title: mood, brand, mood, scenes: [scene({ id: "one", durationSec: 3 })] }, `bed-${mood}`);
      beds[mood] = (await samples(file, 3)).slice(8000, 16000);
      expect(rms(beds[mood]!), mood).toBeGreaterThan(300);
    }
    // Two beds that differ have a difference signal about as loud as the beds themselves.
    const pairs = [
      ["energetic", "luxurious"],
      ["energetic", "playful"],
      ["luxurious", "playful"],
    ] as const;
    for (const [a, b] of pairs) {
      const diff = beds[a]!.map((v, i) => v - beds[b]![i]!);
      expect(rms(diff), `${a} vs ${b}`).toBeGreaterThan(0.5 * Math.min(rms(beds[a]!), rms(beds[b]!)));
    }
  });

  it("is made once per ad: every format carries the same sound, encoded once", { timeout: 60_000 }, async () => {
    const audioCacheDir = join(dir, "tracks");
    const shared = createStudioRenderer({ audioCacheDir });
    const storyboard: Storyboard = { title: "formats", brand, mood: "warm", scenes: [scene({ id: "one", durationSec: 2 })] };
    const packets: Buffer[] = [];
    for (const format of ["9:16", "1:1", "16:9"] as const) {
      const { videoPath } = await shared.render({ storyboard, format, outputDir: dir, fileStem: `sound-${format.replace(":", "x")}` });
      const { stdout } = await run(locateFfmpeg(), ["-v", "error", "-i", videoPath, "-map", "0:a", "-c", "copy", "-f", "adts", "-"], {
        encoding: "buffer",
        maxBuffer: 16 * 1024 * 1024,
      });
      packets.push(stdout);
      expect(rms((await samples(videoPath, 2)).slice(8000, 16000)), format).toBeGreaterThan(300);
    }
    expect(packets[0]!.length).toBeGreaterThan(10_000);
    expect(packets[1]!.equals(packets[0]!)).toBe(true);
    expect(packets[2]!.equals(packets[0]!)).toBe(true);
    // One track in the cache, not one per format; another mood is another track.
    expect(readdirSync(audioCacheDir).filter((f) => f.endsWith(".m4a"))).toHaveLength(1);
    await shared.render({ storyboard: { ...storyboard, mood: "calm" }, format: "1:1", outputDir: dir, fileStem: "sound-calm" });
    expect(readdirSync(audioCacheDir).filter((f) => f.endsWith(".m4a"))).toHaveLength(2);
  });
});
