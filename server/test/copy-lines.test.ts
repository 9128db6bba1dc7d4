// Copy that fits, not copy that is cut: a line is tidied (no ellipsis, no "..", the brand said once, a
// question keeps its mark), shortened only where a clause ends, and fitted to the renderer's own boxes
// (its font metrics and layout) at a readable size, or its scene is left out.
import { FORMATS, WorkflowRequest } from "@adgen/schema";
import { describe, expect, it } from "vitest";
import { locateFont } from "../src/modules/render/ffmpeg.ts";
import { fontMetrics } from "../src/modules/render/font-metrics.ts";
import { layoutScene } from "../src/modules/render/layout.ts";
import type { Scene } from "../src/modules/render/types.ts";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { clauseCuts, cleanLine, questionFromBenefit } from "../src/modules/workflows/pipeline/copy-lines.ts";
import { fitScene, READABLE_SCALE } from "../src/modules/workflows/pipeline/scene-fit.ts";

const metrics = fontMetrics(locateFont());
const brand = { name: "Glacier Bottle Co.", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#ffffff" };
const ALL_FORMATS = FORMATS.map((f) => f.ratio);
const CUT = /(?:…|\.\.)$|\b(?:with|and|or|for|to|of|the|a|an|from|by|that)[.,]?$/;
const scene = (headline: string, body?: string): Scene => ({
  id: "s",
  durationSec: 3,
  headline,
  ...(body ? { body } : {}),
  background: "#1d3557",
  accent: "#e63946",
  transition: "fade",
});

// Long, varied lines from many kinds of product: each has clause joints somewhere, some none.
const LINES = [
  "Made from 18/8 food-grade stainless steel with a double wall that keeps ice frozen for a full day",
  "How long does it keep, even in a hot car on the hottest afternoon of the summer?",
  "Hand-stitched leather wallets, built to last a lifetime and ready to ship from our Lisbon workshop today",
  "Our cooling mattress pulls heat away from your body while you sleep — no fans, no gels, no noise",
  "Fresh sourdough baked every morning in Springfield and delivered to your door before seven",
  "Tired of bike lights that die halfway home, fade in the rain and need a new battery every week?",
  "A standing desk that rises in four seconds, remembers your heights and fits the smallest apartment",
  "Rated 4.8 stars from 2,314 reviews by runners, hikers and cyclists who refill it every single day",
  "Ships in 24 hours, with 30-day free returns and a lifetime guarantee on every bottle we make",
  "Plant-based protein powder with twenty grams per scoop, no chalky aftertaste, and nothing artificial",
  "Noise-cancelling earbuds that last thirty hours on one charge; the case charges wirelessly too",
  "We audit your shop page, find what stops people buying and fix it before you spend on ads",
  "Supercalifragilisticexpialidociously unstoppable extraordinarily persistent headline words forever more",
];

describe("a line tidied for the screen", () => {
  it("takes off an ellipsis and the stub it cut, and a dangling joint word", () => {
    expect(cleanLine("Made from 18/8 food-grade stainless steel with…")).toBe("Made from 18/8 food-grade stainless steel");
    expect(cleanLine("Want audit our shop page before we spend on...")).toBe("Want audit our shop page before we spend");
    expect(cleanLine("Made from stainless steel with.")).toBe("Made from stainless steel");
    expect(cleanLine("Keeps water cold for 24 hours.")).toBe("Keeps water cold for 24 hours.");
  });

  it("says the brand once, without a doubled full stop", () => {
    expect(cleanLine("Glacier Bottle Co..")).toBe("Glacier Bottle Co.");
    expect(cleanLine("Meet Glacier Bottle Co. Glacier Bottle Co.", "Glacier Bottle Co.")).toBe("Meet Glacier Bottle Co.");
    expect(cleanLine("Glacier Bottle Co.: Glacier Bottle Co.", "Glacier Bottle Co.")).toBe("Glacier Bottle Co.");
  });

  it("keeps a question's question mark, and gives one back to a question that lost it", () => {
    expect(cleanLine("How long does it keep?")).toBe("How long does it keep?");
    expect(cleanLine("How long does it keep.")).toBe("How long does it keep?");
    expect(cleanLine("Does it fit a cup holder")).toBe("Does it fit a cup holder?");
    expect(cleanLine("How we brew our coffee.")).toBe("How we brew our coffee.");
    expect(cleanLine("Keeps ice for a day.")).toBe("Keeps ice for a day.");
  });

  it("makes a question of a benefit only when it reads as one", () => {
    expect(questionFromBenefit("Coffee that lasts.")).toBe("Want coffee that lasts?");
    expect(questionFromBenefit("Keeps drinks cold all day")).toBe("Need something that keeps drinks cold all day?");
    expect(questionFromBenefit("Audit our shop page before we spend on ads.")).toBe("Ready to audit our shop page before we spend on ads?");
    expect(questionFromBenefit("We ship worldwide.")).toBeNull();
    expect(questionFromBenefit("How long does it keep?")).toBe("How long does it keep?");
  });
});

describe("shortening at clause boundaries", () => {
  it("cuts only where a clause ends, keeps the line's question mark, and never leaves a stub", () => {
    expect(clauseCuts(LINES[0]!)).toContain("Made from 18/8 food-grade stainless steel");
    expect(clauseCuts(LINES[1]!)).toContain("How long does it keep?");
    for (const line of LINES) {
      const cuts = clauseCuts(line);
      expect(cuts[0]).toBe(line);
      for (const cut of cuts.slice(1)) {
        expect(cut, cut).not.toMatch(CUT);
        expect(line.startsWith(cut.replace(/[?!]$/, "")), `${cut} is the start of ${line}`).toBe(true);
        if (line.endsWith("?")) expect(cut.endsWith("?"), cut).toBe(true);
      }
    }
    // No joint at all: nothing shorter is offered (a word cut would stop inside the clause).
    expect(clauseCuts(LINES[12]!)).toEqual([LINES[12]]);
  });
});

describe("fitting a scene to the renderer's boxes", () => {
  it("every fitted line lays out whole at a readable size in every format, measured with the font's own widths", () => {
    let shortened = 0;
    for (const [i, headline] of LINES.entries()) {
      const body = LINES[(i + 5) % LINES.length];
      const fitted = fitScene(scene(headline, body), brand, ALL_FORMATS, metrics);
      if (!fitted) continue;
      if (fitted.headline !== headline) shortened++;
      for (const line of [fitted.headline, fitted.body].filter(Boolean) as string[]) {
        expect(line, line).not.toMatch(CUT);
        expect(clauseCuts(cleanLine([headline, body].find((l) => l?.startsWith(line.replace(/[?!]$/, "")))!))).toContain(line);
      }
      for (const f of FORMATS) {
        const layout = layoutScene({ scene: fitted, brand, format: f.ratio, width: f.width, height: f.height, metrics, hasImage: false });
        expect(layout.truncated, `${fitted.headline} in ${f.ratio}`).toBe(false);
        expect(layout.scale, `${fitted.headline} in ${f.ratio}`).toBeGreaterThanOrEqual(READABLE_SCALE);
        for (const text of layout.texts) {
          expect(text.width).toBeCloseTo(metrics.measure(text.text, text.size), 5);
          expect(text.centerX + text.width / 2).toBeLessThanOrEqual(layout.safe.x + layout.safe.w + 1);
          expect(text.text).not.toMatch(/…|\.\.$/);
        }
      }
    }
    expect(shortened).toBeGreaterThan(0);
  });

  it("leaves a scene out rather than cut it when its headline cannot fit at a readable size", () => {
    const wall = Array.from({ length: 12 }, () => "Extraordinarily").join(" ");
    expect(fitScene(scene(wall), brand, ["9:16"], metrics)).toBeNull();
  });
});

describe("the art director's storyboard", () => {
  const request = (input: Record<string, unknown>) => WorkflowRequest.parse({ type: "cinematic", ...input });
  const texts = (ad: ReturnType<typeof directAd>) =>
    ad.storyboard.scenes.flatMap((s) => [s.headline, s.body, s.cta].filter(Boolean) as string[]);

  it("shows a seasonal greeting as a line of its own, never as a prefix of the headline", () => {
    const ad = directAd({
      request: request({ concept: "Lukewarm water on a long fast day. Keeps water cold for 24 hours.", seasonal: "ramadan" }),
      brand: { id: "b", brandName: "Glacier Bottle Co." },
      page: null,
      maxAdSeconds: 15,
    });
    const all = texts(ad);
    expect(ad.storyboard.scenes[0]?.headline).toBe("Ramadan Kareem");
    expect(all.filter((l) => l.includes("Ramadan Kareem"))).toEqual(["Ramadan Kareem"]);
  });

  it("never ends a line in an ellipsis or '..', never doubles the brand, and keeps questions", () => {
    for (const framework of ["aida", "pas", "sb7", "cialdini", "uvp", "bant"] as const) {
      for (const concept of LINES) {
        const ad = directAd({
          request: request({ concept: `${concept}. How long does it keep?`, framework }),
          brand: { id: "b", brandName: "Glacier Bottle Co." },
          page: null,
          maxAdSeconds: 15,
        });
        for (const line of texts(ad)) {
          expect(line, `${framework}: ${line}`).not.toMatch(/…|\.\.|\b(with|and|of|the)\.?$/);
          expect(line, `${framework}: ${line}`).not.toMatch(/Glacier Bottle Co\.?\s*Glacier/);
          expect(line).not.toMatch(/^How long does it keep\.?$/);
        }
      }
    }
  });

  it("opens PAS on the problem as a statement of what it costs, and makes a question only when one reads as one", () => {
    const ad = directAd({
      request: request({
        type: "painpoint",
        concept: "Audit our shop page before we spend on ads. Most stores lose half their buyers at checkout.",
      }),
      brand: { id: "b", brandName: "Shopfix" },
      page: null,
      maxAdSeconds: 12,
    });
    const byRole = (role: string) => ad.storyboard.scenes.find((s) => s.id.endsWith(`-${role}`));
    expect(byRole("problem")?.headline).toBe("Most stores lose half their buyers at checkout.");
    expect(questionFromBenefit("Audit our shop page before we spend on ads.")).toBe("Ready to audit our shop page before we spend on ads?");
    for (const line of texts(ad)) expect(line).not.toMatch(/^Want (audit|[a-z]+ our)\b/);
  });

  it("says which of the framework's beats were written and which were left out", () => {
    const ad = directAd({
      request: request({ type: "painpoint", concept: "A standing desk for small flats. Rises in four seconds." }),
      brand: null,
      page: null,
      maxAdSeconds: 12,
    });
    const beats = ad.storyboard.beats ?? [];
    expect(beats.map((b) => b.role)).toEqual(["problem", "agitate", "solution", "action"]);
    const agitate = beats.find((b) => b.role === "agitate");
    expect(agitate?.written).toBe(false);
    expect(agitate?.reason).toBeTruthy();
    expect(ad.storyboard.scenes.some((s) => s.id.endsWith("agitate"))).toBe(false);
  });
});
