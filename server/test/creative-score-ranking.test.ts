import { describe, expect, it } from "vitest";
import { locateFont } from "../src/modules/render/ffmpeg.ts";
import { fontFamily } from "../src/modules/render/font-family.ts";
import { scoreStoryboard } from "../src/modules/workflows/pipeline/creative-score.ts";
import { layOut, layoutDefects, productInFrame } from "../src/modules/workflows/pipeline/layout-checks.ts";
import { optimiseStoryboard } from "./support/optimize-storyboard.ts";
import { BROKEN } from "./fixtures/creative-score/broken.ts";
import { GOOD } from "./fixtures/creative-score/good.ts";
import type { Labelled } from "./fixtures/creative-score/labelled.ts";

const STRONG = 75;
const scoreOf = (l: Labelled) => scoreStoryboard(l.storyboard, l.formats, l.product);
const reasons = (l: Labelled) =>
  scoreOf(l)
    .checks.map((c) => c.reason)
    .join(" | ");

describe("the creative score on the labelled set", () => {
  const good = GOOD.map((l) => ({ name: l.name, score: scoreOf(l) }));
  const broken = BROKEN.map((l) => ({ name: l.name, defect: l.defect, score: scoreOf(l) }));

  it("holds at least 8 good and 10 broken storyboards", () => {
    expect(GOOD.length).toBeGreaterThanOrEqual(8);
    expect(BROKEN.length).toBeGreaterThanOrEqual(10);
  });

  it("calls every good storyboard Strong, with nothing broken on its screen", () => {
    for (const g of good) {
      const clean = g.score.checks.find((c) => c.id === "clean-screen")!;
      expect(clean, `${g.name}: ${clean.reason}`).toMatchObject({ points: 30, max: 30 });
      expect(g.score.score, g.name).toBeGreaterThanOrEqual(STRONG);
    }
  });

  it("ranks every broken storyboard below every good one, never Strong, naming its defect", () => {
    const worstGood = Math.min(...good.map((g) => g.score.score));
    for (const b of broken) {
      const clean = b.score.checks.find((c) => c.id === "clean-screen")!;
      expect(b.score.score, `${b.name}: ${clean.reason}`).toBeLessThan(worstGood);
      expect(b.score.score, b.name).toBeLessThan(STRONG);
      expect(clean.points, b.name).toBe(0);
      expect(clean.reason, b.name).toMatch(b.defect);
    }
    for (const s of [...good, ...broken]) expect(s.score.score).toBe(s.score.checks.reduce((sum, c) => sum + c.points, 0));
  });

  it("says where a laid-out defect is, in words: the scene and the formats", () => {
    const button = BROKEN.find((b) => b.name === "a button no one can read")!;
    expect(reasons(button)).toMatch(
      /Text is hard to read in scene 3 \(9:16, 1:1\): "Grab a bag" stands out from what is behind it at only 4\.\d:1/,
    );
  });

  it("judges the button's colour, not the brand's: the same ad with a readable button is Strong again", () => {
    const button = BROKEN.find((b) => b.name === "a button no one can read")!;
    const brand = { ...button.storyboard.brand, accent: "#ffd166" };
    const fixed = {
      ...button,
      storyboard: { ...button.storyboard, brand, scenes: button.storyboard.scenes.map((s) => ({ ...s, accent: brand.accent })) },
    };
    expect(scoreOf(fixed).score).toBeGreaterThanOrEqual(STRONG);
  });
});

describe("the layout checks, wherever a layout puts things", () => {
  const fonts = fontFamily(locateFont());
  const shoe = GOOD.find((g) => g.name === "product photos of a running shoe")!;
  const laidOut = () => layOut(shoe.storyboard, ["9:16"], fonts).find((l) => l.index === 1)!;

  it("passes the laid-out scene as it is, and sees text over the product when the product is where the copy is", () => {
    const item = laidOut();
    expect(layoutDefects([item], fonts)).toEqual([]);
    const panel = item.layout.boxes.reduce((a, b) => (b.w * b.h > a.w * a.h ? b : a));
    const moved = { ...item, layout: { ...item.layout, subject: { x: panel.x, y: panel.y, w: panel.w, h: panel.h } } };
    expect(layoutDefects([moved], fonts)).toEqual(["Text covers the product in scene 2 (9:16)"]);
  });

  it("sees two lines on top of each other, and the logo on the copy", () => {
    const item = laidOut();
    const [first] = item.layout.texts.slice(-1);
    const doubled = {
      ...item,
      layout: { ...item.layout, texts: [...item.layout.texts, { ...first!, baseline: first!.baseline - first!.size * 0.3 }] },
    };
    expect(layoutDefects([doubled], fonts)).toContain("Text overlaps other text in scene 2 (9:16)");
    const r = { x: first!.centerX - 60, y: first!.baseline - 60, w: 120, h: 80 };
    const logo = { ...r, plate: { ...r, color: [255, 255, 255] as const, alpha: 0.92 } };
    expect(layoutDefects([{ ...item, layout: { ...item.layout, logo } }], fonts)).toContain("The logo overlaps the text in scene 2 (9:16)");
  });

  it("maps the product through the cover-fit when the layout does not say where it is", () => {
    const item = laidOut();
    const { subject: _subject, picture: _picture, ...layout } = item.layout;
    // A square photo, its product in the middle half, on a 1080×1920 frame: scaled to 1920×1920, 420 px cut off each side.
    const scene = { ...item.scene, imageSize: { width: 1000, height: 1000 }, subject: { x: 0.25, y: 0.25, w: 0.5, h: 0.5 } };
    expect(productInFrame({ ...item, scene, layout })).toEqual({ x: 60, y: 480, w: 960, h: 960 });
    // No subject known: the centre guess (subject-box.ts), a picture with the frame's shape.
    const { subject: _s, imageSize: _i, ...plain } = scene;
    expect(productInFrame({ ...item, scene: plain, layout })).toEqual({ x: 270, y: 384, w: 540, h: 1152 });
  });
});

describe("the ad optimizer's score", () => {
  const optimise = optimiseStoryboard;

  it("is the creative score of the optimised storyboard, not a constant", () => {
    const tone = BROKEN.find((b) => b.name === "a tone note on screen")!;
    const button = BROKEN.find((b) => b.name === "a button no one can read")!;
    const results = [optimise(tone.storyboard), optimise(button.storyboard), optimise(GOOD[0]!.storyboard)];
    for (const result of results) {
      const rescored = scoreStoryboard(result.storyboard, result.formats, result.storyboard.brand.name);
      expect(result.optimization.scoreAfter).toBe(rescored.score);
      expect(result.creativeScore).toEqual(rescored);
    }
    const [fromTone, fromButton, fromGood] = results;
    // The optimizer does not rewrite a tone note or recolour a button: what it hands back still shows them.
    expect(fromTone!.optimization.scoreAfter).toBeLessThan(STRONG);
    expect(fromTone!.creativeScore.checks.find((c) => c.id === "clean-screen")!.reason).toMatch(/tone note/);
    expect(fromButton!.optimization.scoreAfter).toBeLessThan(STRONG);
    expect(fromGood!.optimization.scoreAfter).toBeGreaterThan(fromTone!.optimization.scoreAfter);
    expect(new Set(results.map((r) => r.optimization.scoreAfter)).size).toBeGreaterThan(1);
  });
});
