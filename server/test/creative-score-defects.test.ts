import { describe, expect, it } from "vitest";
import type { Scene, Storyboard } from "../src/modules/render/types.ts";
import { scoreStoryboard } from "../src/modules/workflows/pipeline/creative-score.ts";
import { optimiseStoryboard } from "./support/optimize-storyboard.ts";

const BRAND = { name: "Glacier", primary: "#0b4f6c", secondary: "#01baef", accent: "#fbfbff", text: "#ffffff" };
const FORMATS = ["9:16", "1:1"] as const;

function scene(id: string, headline: string, extra: Partial<Scene> = {}): Scene {
  return {
    id,
    durationSec: 2.5,
    headline,
    background: BRAND.primary,
    accent: BRAND.accent,
    transition: "fade",
    textMotion: "fade",
    ...extra,
  };
}

function board(scenes: Scene[]): Storyboard {
  return { title: "Glacier bottle", brand: BRAND, scenes };
}

const GOOD: Record<string, Storyboard> = {
  "a benefit, proof and an offer": board([
    scene("s1", "Ice cold for 24 hours"),
    scene("s2", "Rated 4.8 by 2,314 hikers", { body: "Glacier keeps up on every trail" }),
    scene("s3", "Glacier", { body: "Free returns for 30 days", cta: "Shop the bottle" }),
  ]),
  "a question hook with its mark": board([
    scene("s1", "Tired of lukewarm water?"),
    scene("s2", "Glacier stays cold all day"),
    scene("s3", "Glacier", { cta: "Get yours today" }),
  ]),
  "cuts between scenes, rising type": board([
    scene("s1", "Steel that keeps the cold in", { textMotion: "rise", transition: "fade" }),
    scene("s2", "Ships in 24 hours", { textMotion: "rise", transition: "none" }),
    scene("s3", "Glacier", { cta: "Order now", textMotion: "rise", transition: "none" }),
  ]),
  "a plain two-scene ad": board([scene("s1", "Glacier: cold water anywhere"), scene("s2", "Glacier", { cta: "Buy now" })]),
};

const BROKEN: Record<string, Storyboard> = {
  "a headline cut with an ellipsis": board([
    scene("s1", "Made from 18/8 food-grade stainless steel…"),
    scene("s2", "Rated 4.8 by 2,314 hikers"),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "a line that stops mid-clause": board([
    scene("s1", "Ice cold for 24 hours"),
    scene("s2", "Glacier", { body: "Made from stainless steel with." }),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "camera direction as body text": board([
    scene("s1", "Ice cold for 24 hours"),
    scene("s2", "Glacier", { body: "Slow push-ins on the condensation on the steel, then the view from the top." }),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "a tone note on screen": board([
    scene("s1", "Ice cold for 24 hours"),
    scene("s2", "Casual, honest, a bit funny."),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "a shot instruction as the headline": board([
    scene("s1", "Show the bottle big and the offer clearly."),
    scene("s2", "Glacier stays cold all day"),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "a question without its question mark": board([
    scene("s1", "How long does it keep."),
    scene("s2", "Glacier stays cold all day"),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "a doubled full stop after the brand": board([
    scene("s1", "Ice cold for 24 hours"),
    scene("s2", "Glacier Bottle Co.."),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
  "two text blocks in a crossfade": board([
    scene("s1", "Ice cold for 24 hours", { textMotion: "rise" }),
    scene("s2", "Rated 4.8 by 2,314 hikers", { textMotion: "rise" }),
    scene("s3", "Glacier", { cta: "Shop the bottle", textMotion: "rise" }),
  ]),
  "the narrator's casting read out": board([
    scene("s1", "A friendly trail guide talks."),
    scene("s2", "Glacier stays cold all day"),
    scene("s3", "Glacier", { cta: "Shop the bottle" }),
  ]),
};

const scoreOf = (storyboard: Storyboard) => scoreStoryboard(storyboard, FORMATS, BRAND.name);

describe("the creative score on a labelled set", () => {
  it("ranks every broken storyboard below every good one, names the defect, and never calls a broken one Strong", () => {
    const good = Object.entries(GOOD).map(([name, b]) => ({ name, score: scoreOf(b) }));
    const broken = Object.entries(BROKEN).map(([name, b]) => ({ name, score: scoreOf(b) }));
    const worstGood = Math.min(...good.map((g) => g.score.score));
    for (const g of good) {
      expect(
        g.score.checks.find((c) => c.id === "clean-screen"),
        g.name,
      ).toMatchObject({ points: 30, max: 30 });
      expect(g.score.score, g.name).toBeGreaterThanOrEqual(75);
    }
    for (const b of broken) {
      expect(b.score.score, `${b.name}: ${JSON.stringify(b.score.checks)}`).toBeLessThan(worstGood);
      expect(b.score.score, b.name).toBeLessThan(75);
      const clean = b.score.checks.find((c) => c.id === "clean-screen")!;
      expect(clean.points, b.name).toBe(0);
      expect(clean.reason, b.name).toMatch(/ellipsis|mid-clause|direction|tone note|question mark|doubled full stop|on screen together/);
    }
    for (const s of [...good, ...broken]) {
      expect(s.score.max).toBe(100);
      expect(s.score.score).toBe(s.score.checks.reduce((sum, c) => sum + c.points, 0));
    }
  });
});

describe("the ad optimizer's score", () => {
  const optimise = optimiseStoryboard;

  it("is the creative score of its own output, and differs between a good source and a broken one", () => {
    const fromGood = optimise(GOOD["a benefit, proof and an offer"]!);
    const fromBroken = optimise(BROKEN["a tone note on screen"]!);
    for (const result of [fromGood, fromBroken]) {
      const rescored = scoreStoryboard(result.storyboard, result.formats, result.storyboard.brand.name);
      expect(result.creativeScore).toEqual(rescored);
      expect(result.optimization.scoreAfter).toBe(rescored.score);
    }
    expect(fromBroken.creativeScore.score).toBeLessThan(fromGood.creativeScore.score);
    expect(fromBroken.creativeScore.score).toBeLessThan(100);
    expect(fromBroken.optimization.scoreBefore).toBe(scoreOf(BROKEN["a tone note on screen"]!).score);
  });
});
