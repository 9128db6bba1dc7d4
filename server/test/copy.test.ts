// The built-in copywriter and art director: lines come from the concept, the brand and the page, a quoted
// tagline or call to action is used word for word, nothing is cut in the middle of a word, and no stock
// filler appears.
import { WorkflowRequest } from "@adgen/schema";
import { describe, expect, it } from "vitest";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { fitWords, writeCopy } from "../src/modules/workflows/pipeline/copy.ts";

const request = (input: Record<string, unknown>) => WorkflowRequest.parse({ type: "cinematic", ...input });
const lines = (ad: ReturnType<typeof directAd>) =>
  ad.storyboard.scenes.flatMap((s) => [s.headline, s.body, s.cta].filter(Boolean) as string[]);
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];

const STOCK = [
  "Loved by thousands",
  "Imagine the difference",
  "Limited time offer",
  "Worth every cent",
  "It costs you every day",
  "Up and running today",
  "Better results, less effort",
  "Tired of settling for less",
];

describe("fitWords", () => {
  it("keeps short text whole and cuts long text only where a clause ends, never with an ellipsis", () => {
    expect(fitWords("Cold brew, ready in a minute", 48)).toBe("Cold brew, ready in a minute");
    expect(fitWords("Late-night coffee that keeps you going, brewed slowly from single-origin beans", 40)).toBe(
      "Late-night coffee that keeps you going",
    );
    // No clause ends in time: the line stays whole (the scene fitter sizes it or leaves it out).
    const whole = "Extraordinarily persistent headline words keep going forever";
    expect(fitWords(whole, 30)).toBe(whole);
  });
});

describe("the art director's copy", () => {
  it("uses a quoted tagline and call to action word for word", () => {
    const ad = directAd({
      request: request({
        concept: 'Late-night cold brew for night-shift nurses. Tagline: "Stay sharp after midnight". CTA: "Order a trial pack"',
      }),
      brand: null,
      page: null,
      maxAdSeconds: 15,
    });
    const all = lines(ad);
    expect(all).toContain("Stay sharp after midnight");
    expect(ad.storyboard.scenes.at(-1)?.cta).toBe("Order a trial pack");
  });

  it("takes a single-quoted tagline word for word (without its quotes) and never says the product twice in one scene", () => {
    const concept = "A cooling mattress for hot sleepers. 'Sleep cool or your money back.' Don't settle for sweaty nights";
    for (const type of ["cinematic", "painpoint", "avatar", "influencer"]) {
      const ad = directAd({ request: request({ type, concept }), brand: null, page: null, maxAdSeconds: 12 });
      const all = lines(ad);
      expect(all, type).toContain("Sleep cool or your money back.");
      expect(
        all.some((l) => /^['‘"“]|['’"”]$/.test(l)),
        `${type}: no stray quote marks`,
      ).toBe(false);
      for (const scene of ad.storyboard.scenes) {
        const mentions = [scene.headline, scene.body].filter((l) => l && /cooling mattress/i.test(l));
        expect(mentions.length, `${type}: ${scene.headline} / ${scene.body}`).toBeLessThanOrEqual(1);
      }
      // Without a brand name, the product is introduced as a product, not as a name with an article.
      expect(all.join(" | ")).not.toMatch(/Meet A /);
    }
  });

  it("never cuts a word, never repeats stock filler, and takes proof from the concept", () => {
    const concept =
      "Late-night cold brew that wakes the whole neighbourhood and keeps night-shift workers going until sunrise. Rated 4.9 stars by 12,000 nurses. Tired of bitter vending-machine coffee?";
    for (const framework of ["aida", "pas", "sb7", "cialdini", "uvp", "bant"] as const) {
      const ad = directAd({ request: request({ concept, framework }), brand: null, page: null, maxAdSeconds: 15 });
      const all = lines(ad);
      const source = words(`${concept} Meet Want For Made Shop now`);
      for (const line of all) {
        for (const word of words(line.replace(/…$/, ""))) expect(source, `${framework}: "${line}"`).toContain(word);
        for (const stock of STOCK) expect(line, framework).not.toContain(stock);
      }
      // The product may open and sign off the ad; no other line is said twice.
      const product = ad.storyboard.brand.name;
      const others = all.filter((line) => line !== product);
      expect(new Set(others).size, `${framework} says a line twice: ${others.join(" | ")}`).toBe(others.length);
      expect(ad.storyboard.scenes.length).toBeGreaterThanOrEqual(2);
    }
    const aida = lines(directAd({ request: request({ concept }), brand: null, page: null, maxAdSeconds: 15 }));
    expect(aida.join(" ")).toContain("Rated 4.9 stars by 12,000 nurses");
  });

  it("writes from the brand profile and the page, and two concepts share no line", () => {
    const brand = {
      id: "b1",
      brandName: "Nightowl Coffee",
      productDescription: "Small-batch cold brew concentrate, ready in ten seconds.",
      brandValues: "Fair-trade beans from three farms we visit every year.",
      targetAudience: "night-shift nurses",
    };
    const a = lines(directAd({ request: request({ concept: "Cold brew for long shifts" }), brand, page: null, maxAdSeconds: 15 }));
    // The ad opens on a hook from the brief and closes on the brand's name.
    expect(a.at(-2)).toBe("Nightowl Coffee");
    expect(a.join(" ")).toContain("night-shift nurses");
    expect(a.join(" ")).toContain("Fair-trade beans from three farms");
    const b = lines(
      directAd({
        request: request({ concept: "Running shoes that float. Tested on 500 marathons." }),
        brand: null,
        page: null,
        maxAdSeconds: 15,
      }),
    );
    // Only the default call to action may be the same.
    const shared = a.filter((line) => b.includes(line) && line !== "Shop now");
    expect(shared).toEqual([]);
  });

  it("sorts lines into benefits, proofs, pains and offers", () => {
    const copy = writeCopy({
      concept: "Bike lights that never die. Over 30,000 riders trust them. Sick of dead batteries? 20% off this week.",
      brand: null,
      page: null,
      type: "cinematic",
    });
    expect(copy.benefits).toEqual(["Bike lights that never die."]);
    expect(copy.proofs).toEqual(["Over 30,000 riders trust them."]);
    expect(copy.pains).toEqual(["Sick of dead batteries?"]);
    // A fragment without a verb is a headline, without a full stop.
    expect(copy.offers).toEqual(["20% off this week"]);
  });

  it('names the product by the noun phrase before a relative clause, never ending on "that" or "which"', () => {
    for (const [concept, product] of [
      ["Backpacks that never tear. Waterproof, with a ten-year warranty.", "Backpacks"],
      ["Rain jackets which breathe on every climb, all day long", "Rain jackets"],
    ] as const) {
      expect(writeCopy({ concept, brand: null, page: null, type: "cinematic" }).product).toBe(product);
    }
  });
});

describe("the creative score before rendering", () => {
  it("scores a tight ad high and a wall of text low, with the reasons", () => {
    const tight = directAd({
      request: request({ concept: 'Cold brew in ten seconds. Rated 4.9 by 12,000 nurses. CTA: "Order a trial pack"' }),
      brand: { id: "b", brandName: "Nightowl", colors: { primary: "#112233" } },
      page: null,
      maxAdSeconds: 15,
    });
    expect(tight.creativeScore.max).toBe(100);
    expect(tight.creativeScore.checks.map((c) => c.id)).toEqual([
      "hook",
      "reading-time",
      "text-density",
      "call-to-action",
      "brand",
      "safe-zone",
      "clean-screen",
    ]);
    expect(tight.creativeScore.score).toBeGreaterThanOrEqual(85);
    expect(tight.creativeScore.checks.find((c) => c.id === "call-to-action")?.reason).toBe('Ends with "Order a trial pack"');

    const wordy = "word ".repeat(60).trim();
    const crowded = directAd({
      request: request({ concept: `${wordy}. ${wordy}. ${wordy}.` }),
      brand: null,
      page: null,
      maxAdSeconds: 4,
    });
    expect(crowded.creativeScore.score).toBeLessThan(tight.creativeScore.score);
    const reading = crowded.creativeScore.checks.find((c) => c.id === "reading-time")!;
    expect(reading.points).toBeLessThan(reading.max);
    expect(reading.reason).toMatch(/more words than 3 a second allows/);
    expect(crowded.creativeScore.score).toBe(crowded.creativeScore.checks.reduce((sum, c) => sum + c.points, 0));
  });
});
