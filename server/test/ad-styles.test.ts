// The ad styles as a marketer judges them: in every style and format the type stays off the product,
// inside the safe area, never over other type, readable (4.5:1 against what is behind it), and a
// narrated scene shows nothing to read but its captions. Rendered, the styles look different from each
// other, and a scene with the user's own product clip plays it under its type.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { FORMATS } from "@adgen/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productPhoto } from "../ad-review/products.ts";
import { contrast, mix, type Rgb } from "../src/modules/render/color.ts";
import { locateFfmpeg, locateFont } from "../src/modules/render/ffmpeg.ts";
import { fontFamily } from "../src/modules/render/font-family.ts";
import { captionZone, type LayoutInput, layoutScene, type Rect, type SceneLayout } from "../src/modules/render/layout.ts";
import { coversSubject } from "../src/modules/render/picture-fit.ts";
import { createStudioRenderer } from "../src/modules/render/studio-renderer.ts";
import type { AdStyle, Scene, Storyboard } from "../src/modules/render/types.ts";
import { difference, type Frame, frameAt } from "./support/frames.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";

const run = promisify(execFile);
const STYLES: AdStyle[] = ["panel", "cinematic", "ugc", "presenter", "problem-solution", "split", "editorial", "bold"];
const brand = { name: "Glacier Bottle Co.", primary: "#0f3b57", secondary: "#2a7fa8", accent: "#f2b33d", text: "#ffffff" };
const fonts = fontFamily(locateFont());

const scene = (over: Partial<Scene>): Scene => ({
  id: "s",
  durationSec: 2,
  headline: "Ice-cold for 24 hours, even in a hot car",
  body: "Double-wall 18/8 stainless steel.",
  background: "#0f3b57",
  accent: "#f2b33d",
  transition: "fade",
  ...over,
});

/** A packshot's size and where its product is (a bottle in the middle, as ad-review's photos are). */
const PACKSHOT = { imageSize: { width: 1200, height: 1500 }, subject: { x: 0.36, y: 0.1, w: 0.28, h: 0.8 } };
/** A product low and to the right in a wide photo. */
const OFF_CENTRE = { imageSize: { width: 2000, height: 1200 }, subject: { x: 0.55, y: 0.45, w: 0.3, h: 0.5 } };

function layout(
  style: AdStyle,
  format: (typeof FORMATS)[number]["ratio"],
  over: Partial<Scene>,
  extra: Partial<LayoutInput> = {},
): SceneLayout {
  const size = FORMATS.find((f) => f.ratio === format)!;
  return layoutScene({
    scene: scene(over),
    brand,
    format,
    width: size.width,
    height: size.height,
    metrics: fonts.metrics("sans"),
    fonts,
    hasImage: !!over.imagePath,
    style,
    position: { index: 0, count: 4 },
    ...extra,
  });
}

/** A line's box: its measured width, from the font's ascent above the baseline to its descent below. */
function textRect(t: SceneLayout["texts"][number]): Rect {
  const m = fonts.metrics(t.face ?? "sans");
  return { x: t.centerX - t.width / 2, y: t.baseline - m.ascent * t.size, w: t.width, h: (m.ascent + m.descent) * t.size };
}

/** Two lines overlap when their boxes share more than a tenth of a line's height (stacked lines of one block touch). */
const overlaps = (a: Rect, b: Rect) =>
  Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.1 * Math.min(a.h, b.h);

/** What a line's letters sit on: every box under it blended in order over the photo's darkest and lightest greys. */
function behindText(l: SceneLayout, rect: Rect, onPicture: boolean): Rgb[] {
  const under = l.boxes.filter(
    (b) => b.x <= rect.x + 1 && b.x + b.w >= rect.x + rect.w - 1 && b.y <= rect.y + 1 && b.y + b.h >= rect.y + rect.h - 1,
  );
  const start: Rgb[] = onPicture
    ? [
        [200, 200, 200],
        [40, 40, 40],
      ]
    : [l.gradient.from, l.gradient.to];
  return start.map((c) => under.reduce<Rgb>((acc, b) => mix(acc, b.color, b.alpha), c));
}

describe("ad styles: layout rules in every style and format", () => {
  for (const style of STYLES) {
    it(`${style}: type off the product, inside the safe area, not over other type, at 4.5:1`, () => {
      for (const { ratio } of FORMATS) {
        for (const picture of [PACKSHOT, OFF_CENTRE, null]) {
          const l = layout(style, ratio, picture ? { imagePath: "/p.png", ...picture } : {});
          expect(l.texts.length, `${style} ${ratio} shows its copy`).toBeGreaterThan(0);
          const rects = l.texts.map(textRect);
          for (const [i, r] of rects.entries()) {
            const where = `${style} ${ratio} "${l.texts[i]!.text}"`;
            // A few pixels of slack: the font's ascent is taller than any letter drawn.
            expect(r.x, where).toBeGreaterThanOrEqual(l.safe.x - 3);
            expect(r.x + r.w, where).toBeLessThanOrEqual(l.safe.x + l.safe.w + 3);
            expect(r.y, where).toBeGreaterThanOrEqual(l.safe.y - 3);
            expect(r.y + r.h, where).toBeLessThanOrEqual(l.safe.y + l.safe.h + 3);
            if (picture) expect(coversSubject(r, l.subject), `${where} covers the product`).toBe(false);
            for (const [j, o] of rects.entries()) {
              if (j > i) expect(overlaps(r, o), `${where} overlaps "${l.texts[j]!.text}"`).toBe(false);
            }
            const picRect = l.picture?.rect ?? { x: 0, y: 0, w: l.width, h: l.height };
            const onPicture = !!picture && overlaps(r, picRect);
            const worst = Math.min(...behindText(l, r, onPicture).map((c) => contrast(c, l.texts[i]!.color)));
            expect(worst, `${where} contrast`).toBeGreaterThanOrEqual(4.5);
            expect(l.texts[i]!.text, where).not.toMatch(/(…|\.\.\.)$/);
          }
        }
      }
    });
  }

  it("a narrated scene shows no copy of its own (the captions carry the words); its closing scene shows the call to action", () => {
    for (const style of STYLES) {
      const mid = layout(style, "9:16", { imagePath: "/p.png", ...PACKSHOT }, { captioned: true });
      expect(mid.texts, style).toEqual([]);
      // The product sits above the captions' and presenter's zone.
      expect(coversSubject(captionZone(mid.safe).zone, mid.subject), `${style}: product under the captions`).toBe(false);
      const last = layout(
        style,
        "9:16",
        { headline: "Cold for 24 hours", cta: "Shop now" },
        { captioned: true, isLast: true, position: { index: 3, count: 4 } },
      );
      expect(last.texts.map((t) => t.text).join(" "), style).toContain("Shop now");
    }
  });

  it("the closing scene ends on the brand: its logo, or its name when it has none", () => {
    for (const style of STYLES.filter((s) => s !== "panel")) {
      const named = layout(style, "9:16", { headline: "Cold for 24 hours", cta: "Shop now" }, { isLast: true });
      expect(
        named.texts.map((t) => t.text),
        style,
      ).toContain("Glacier Bottle Co.");
      // A closing line that is only the brand's name is not shown a second time under the wordmark.
      const twice = layout(style, "9:16", { headline: "Glacier Bottle Co.", body: "", cta: "Shop now" }, { isLast: true });
      expect(
        twice.texts.filter((t) => t.text === "Glacier Bottle Co."),
        style,
      ).toHaveLength(1);
      const logo = layout(
        style,
        "9:16",
        { headline: "Cold for 24 hours", cta: "Shop now" },
        { isLast: true, logo: { width: 400, height: 120 } },
      );
      expect(logo.logo, style).toBeDefined();
      // A closing scene with a picture shows the product beside its sign-off, never under it.
      for (const { ratio } of FORMATS) {
        const pictured = layout(
          style,
          ratio,
          { headline: "Cold for 24 hours", cta: "Shop now", imagePath: "/p.png", ...PACKSHOT },
          { isLast: true },
        );
        for (const t of pictured.texts) expect(coversSubject(textRect(t), pictured.subject), `${style} ${ratio} "${t.text}"`).toBe(false);
      }
    }
  });
});

describe("ad styles: rendered", () => {
  let dir: string;
  let photo: string;
  let clip: string;
  const renderer = createStudioRenderer({ preset: "ultrafast" });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "adgen-styles-"));
    photo = join(dir, "product.png");
    writeFileSync(photo, productPhoto("bottle", "GLACIER", "#2a7fa8"));
    clip = join(dir, "clip.mp4");
    // A product clip: a test pattern whose colours turn, so every part of the picture changes as it plays.
    await run(locateFfmpeg(), [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=640x360:rate=30,hue=h=t*150",
      "-t",
      "2",
      "-pix_fmt",
      "yuv420p",
      "-y",
      clip,
    ]);
  });
  afterAll(async () => {
    await stopOcr();
    rmSync(dir, { recursive: true, force: true });
  });

  const storyboard = (style: AdStyle, over: Partial<Scene> = {}): Storyboard => ({
    title: "Styles",
    style,
    brand,
    scenes: [
      scene({ id: "hook", imagePath: photo, headline: "Ice-cold for 24 hours", body: "", ...over }),
      scene({ id: "end", headline: "30-day free returns", body: "", cta: "Shop now" }),
    ],
  });

  it("no two styles look alike: the same scene differs visibly in every pair of styles", { timeout: 120_000 }, async () => {
    const frames = new Map<AdStyle, Frame>();
    for (const style of STYLES) {
      const file = await renderer.previewFrame(storyboard(style), 0, "9:16", join(dir, `${style}.png`));
      frames.set(style, await frameAt(file, 0, 108, 192));
    }
    for (const [i, a] of STYLES.entries()) {
      for (const b of STYLES.slice(i + 1)) {
        expect(difference(frames.get(a)!, frames.get(b)!), `${a} against ${b}`).toBeGreaterThan(6);
      }
    }
  });

  it("a scene with the user's product clip plays it under the type", { timeout: 120_000 }, async () => {
    const result = await renderer.render({
      storyboard: storyboard("cinematic", { imagePath: undefined, videoPath: clip, durationSec: 3 }),
      format: "9:16",
      outputDir: dir,
      fileStem: "clip",
    });
    const early = await frameAt(result.videoPath, 0.8, 108, 192);
    const later = await frameAt(result.videoPath, 1.8, 108, 192);
    // The clip moves: its pixels change between two moments of one scene.
    expect(difference(early, later, { x: 0, y: 0.15, w: 1, h: 0.45 })).toBeGreaterThan(4);
    const big = join(dir, "clip-frame.png");
    await run(locateFfmpeg(), ["-v", "error", "-ss", "1.5", "-i", result.videoPath, "-frames:v", "1", "-y", big]);
    expect(normalizeText((await readText(big)).join(" "))).toContain("ice cold for 24 hours");
  });
});
