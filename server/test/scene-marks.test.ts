// What the motion engine is told about each scene besides its words: its role (the hook first, the call to
// action last), the headline's key word (in the headline, word for word) and badges beside the copy, each
// read from a fact of the brief or the page (a rating with its count, a price, an offer), never invented.
import { WORKFLOW_TYPES, WorkflowRequest } from "@adgen/schema";
import { describe, expect, it } from "vitest";
import type { Scene } from "../src/modules/render/types.ts";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { emphasisOf } from "../src/modules/workflows/pipeline/scene-marks.ts";
import { offerSticker, priceSticker, ratingSticker, stickersOfLine } from "../src/modules/workflows/pipeline/stickers.ts";
import { hookVariants } from "../src/modules/workflows/pipeline/types/factory.ts";

const brand = {
  id: "b",
  brandName: "Barkly",
  productDescription: "Fresh dog food made from human-grade meat, cooked gently and delivered frozen.",
  targetAudience: "Dog owners who want their pets to live longer, healthier lives",
};
const concept =
  "Most kibble is ultra-processed. Barkly meals are cooked in small batches and portioned for your dog. Rated 4.8 from 2,314 reviews.";
const page = {
  url: "https://barkly.example/",
  title: "Barkly | Fresh food for dogs",
  description: "Plans from $2 a day. 50% off your first box.",
  images: [],
  colors: [],
  warnings: [],
};
const SOURCE = [concept, brand.productDescription, brand.targetAudience, page.title, page.description].join(" ");
const ROLES = new Set(["hook", "problem", "solution", "benefit", "proof", "cta"]);
const TYPES = WORKFLOW_TYPES.filter((t) => t !== "ad-optimizer");

const adOf = (type: string, text = concept, withPage = true) =>
  directAd({
    request: WorkflowRequest.parse({ type, concept: text, url: page.url }),
    brand,
    page: withPage ? page : null,
    maxAdSeconds: 15,
  });

function checkMarks(scenes: readonly Scene[], label: string) {
  expect(scenes[0]?.role, label).toBe("hook");
  expect(scenes.at(-1)?.role, label).toBe("cta");
  // The hook is read alone at t = 0: a headline, not a paragraph.
  expect(scenes[0]!.headline.split(/\s+/).length, `${label}: ${scenes[0]!.headline}`).toBeLessThanOrEqual(9);
  const texts: string[] = [];
  for (const scene of scenes) {
    expect(ROLES.has(scene.role ?? ""), `${label}: ${scene.id} role ${scene.role}`).toBe(true);
    if (scene.emphasis) expect(scene.headline, `${label}: emphasis "${scene.emphasis}"`).toContain(scene.emphasis);
    expect((scene.stickers ?? []).length, label).toBeLessThanOrEqual(2);
    for (const sticker of scene.stickers ?? []) {
      texts.push(sticker.text.toLowerCase());
      // Every figure a badge shows is in the brief or the page.
      for (const figure of sticker.text.match(/\d[\d,.]*/g) ?? []) expect(SOURCE, `${label}: ${sticker.text}`).toContain(figure);
    }
  }
  expect(new Set(texts).size, `${label}: a badge twice`).toBe(texts.length);
}

describe("scene roles, key words and badges", () => {
  it("reads a rating with its count, a price and an offer from a line, and nothing from a line without one", () => {
    expect(ratingSticker("Rated 4.8 from 2,314 reviews.")).toEqual({
      kind: "rating",
      stars: 4.8,
      count: 2314,
      text: "4.8 from 2,314 reviews",
    });
    expect(ratingSticker("4.9 stars on Google")).toEqual({ kind: "rating", stars: 4.9, text: "4.9 stars" });
    expect(ratingSticker("Rated 4.7/5 by 900 customers")).toMatchObject({ stars: 4.7, count: 900 });
    // A statistic, a weight and a count of five-star reviews give no average to show.
    expect(ratingSticker("Loved by 4 out of 5 dentists")).toBeNull();
    expect(ratingSticker("Weighs 4.8 kg")).toBeNull();
    expect(ratingSticker("Over 1,200 five-star Google reviews.")).toBeNull();
    expect(priceSticker("Memberships from £25 a month")).toEqual({ kind: "price", text: "From £25 a month" });
    expect(priceSticker("30 ml bottle, $48")).toEqual({ kind: "price", text: "$48" });
    // "over $50" is a threshold of free shipping, not a price.
    expect(stickersOfLine("Free shipping over $50.")).toEqual([{ kind: "offer", text: "Free shipping" }]);
    expect(offerSticker("New client offer: 20% off your first visit")).toEqual({ kind: "offer", text: "20% off your first visit" });
    expect(offerSticker("100-night trial.")).toEqual({ kind: "offer", text: "100-night trial" });
    expect(stickersOfLine("Fresh dog food, cooked gently")).toEqual([]);
  });

  it("opens every type on a hook, closes on the call to action, and badges the rating, price and offer of the brief", () => {
    for (const type of TYPES) {
      const scenes = adOf(type).storyboard.scenes;
      checkMarks(scenes, type);
      const stickers = scenes.flatMap((s) => s.stickers ?? []);
      expect(stickers, type).toContainEqual({ kind: "rating", stars: 4.8, count: 2314, text: "4.8 from 2,314 reviews" });
      expect(stickers.some((s) => s.kind === "price" && s.text === "From $2 a day") || stickers.some((s) => s.kind === "offer"), type).toBe(
        true,
      );
      // A line a badge says whole is not also written under the headline.
      for (const scene of scenes) expect(scene.body ?? "", type).not.toMatch(/^Rated 4\.8 from 2,314 reviews/);
    }
  });

  it("invents no badge for a brief that gives no rating, price or offer", () => {
    for (const type of TYPES) {
      const scenes = adOf(type, "Most kibble is ultra-processed. Barkly meals are cooked in small batches.", false).storyboard.scenes;
      checkMarks(scenes, type);
      expect(
        scenes.flatMap((s) => s.stickers ?? []).filter((s) => s.kind !== "fact"),
        type,
      ).toEqual([]);
    }
  });

  it("keeps each factory variant's key word in its own opening line", () => {
    const ad = adOf("factory");
    for (const variant of hookVariants(ad.storyboard, 3, ad.hooks)) checkMarks(variant.storyboard.scenes, `variant "${variant.hook}"`);
  });

  it("highlights a figure first, then the name, then the word the line turns on", () => {
    expect(emphasisOf("Get paid 12 days faster on average")).toBe("12 days");
    expect(emphasisOf("20% more energy return")).toBe("20%");
    expect(emphasisOf("Meet Barkly", ["Barkly"])).toBe("Barkly");
    expect(emphasisOf("Most kibble is ultra-processed")).toBe("ultra-processed");
    // "SOC 2" and a range are no figures to lead with; the product's name alone is all emphasis already.
    expect(emphasisOf("SOC 2 certified")).not.toBe("2");
    expect(emphasisOf("Barkly", ["Barkly"])).toBeNull();
  });
});
