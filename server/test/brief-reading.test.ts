// Reading a brief as a brief: every sentence of a concept is sorted into copy, direction, tone, or a quoted
// tagline or call to action, for briefs from many industries; only copy and quoted lines reach the ad's
// storyboard (its on-screen text), and the structured brief's fields are read as their kind.
import { WorkflowRequest } from "@adgen/schema";
import { describe, expect, it } from "vitest";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { writeCopy } from "../src/modules/workflows/pipeline/copy.ts";
import { briefForWriter, classifySentence, moodOfTone, readBrief } from "../src/modules/workflows/pipeline/brief-reading.ts";
import { motionsAskedFor } from "../src/modules/workflows/pipeline/shot-list.ts";

const COPY = [
  "Keeps water ice-cold for 24 hours.",
  "Made from 18/8 food-grade stainless steel.",
  "How long does your coffee stay hot?",
  "Tired of soggy salads by lunchtime?",
  "Ships free in 24 hours, with 30-day returns.",
  "Rated 4.8 stars from 2,314 reviews.",
  "Take control of your mornings.",
  "Make the switch today.",
  "Keep it cold for a full day on the trail.",
  "Our dentists see you the same week.",
  "Carbon frame, 7 kg, built for climbing.",
  "Cut your energy bill in half.",
  "Start your day with 20 g of protein.",
  "Every runner deserves shoes that last.",
  "The barista knows best.",
  "Save 20% on your first box.",
  "Book a table for Friday night.",
  "Fresh sourdough baked every morning in Springfield.",
  "Two shots of espresso in every can.",
  "A cooling mattress for hot sleepers.",
  "Hook: Your plants are thirsty.",
  "Text on screen: 50% off this weekend.",
  "Don't settle for lukewarm coffee.",
  "Stress less, sleep more.",
  "Includes a free carry case.",
  "Avoid the queues: order ahead.",
  "Show up for yourself every morning.",
  "Our mattress adapts to your body temperature.",
  "Award-winning Pinot Noir since 1982.",
  "Locally sourced beef, never frozen.",
  "Open late every Friday.",
  "The app runs on any phone.",
];

const DIRECTION = [
  "Slow push-ins on the condensation on the steel, then the view from the top.",
  "A cyclist films a selfie review after a 60 km ride.",
  "Show the bottle big and the offer clearly.",
  "Take the structure of the reference ad",
  "A friendly trail guide talks.",
  "Open on a close-up of the steam rising from the mug.",
  "Cut to the family laughing around the table.",
  "A nurse pours a cup at 3 a.m. and smiles.",
  "Two friends share a pizza on the sofa.",
  "Handheld footage of the dough being folded.",
  "We see the app's dashboard fill with orders.",
  "End on the logo over a black background.",
  "Use the brand colours throughout.",
  "Keep the product centred in every frame.",
  "Quick cuts, 15 seconds max.",
  "Feature the packaging in the final shot.",
  "Music: upbeat lo-fi with a soft beat.",
  "Golden hour light on the vineyard.",
  "A mechanic wipes his hands and holds up the filter.",
  "Then the view from the top.",
  "Pan across the menu board.",
  "Show before and after photos side by side.",
  "Feature three customer testimonials.",
  "Mention the 2-year warranty.",
  "Don't mention price.",
  "Avoid showing competitors.",
  "Make it feel premium.",
  "Keep it under 30 seconds.",
  "Vertical video for Instagram Reels.",
  "Minimalist, clean, white background.",
  "Think Apple-style product reveal.",
  "The user taps the button and the payment goes through.",
  "The car glides silently through the city at night.",
  "A golden retriever runs across the park with the frisbee.",
  "Close with our phone number on screen.",
  "Drone footage over the vineyard at sunset.",
];

const TONE = [
  "Casual, honest, a bit funny.",
  "Warm and family-friendly.",
  "Warm and reassuring.",
  "Tone: confident but never arrogant.",
  "Playful, cheeky, a little irreverent.",
  "Calm, professional, trustworthy.",
  "Keep it lighthearted and friendly.",
  "Upbeat and energetic!",
  "Sincere, heartfelt.",
  "Narrator: deep, calm male voice.",
  "Elegant and understated.",
];

describe("classifySentence", () => {
  it.each(COPY)("reads %j as copy", (sentence) => expect(classifySentence(sentence)).toBe("copy"));
  it.each(DIRECTION)("reads %j as direction", (sentence) => expect(classifySentence(sentence)).toBe("direction"));
  it.each(TONE)("reads %j as tone", (sentence) => expect(classifySentence(sentence)).toBe("tone"));
});

describe("readBrief", () => {
  it("reads quoted lines word for word as the tagline and the call to action, and every other sentence by its kind", () => {
    const reading = readBrief(
      'Slow push-ins on the condensation on the steel. Keeps water ice-cold for 24 hours. Casual, honest, a bit funny. End on "Cold for the long way up." CTA: "Shop the Glacier bottle"',
    );
    expect(reading).toEqual([
      { sentence: "Shop the Glacier bottle", kind: "cta", from: "concept" },
      { sentence: "Cold for the long way up.", kind: "tagline", from: "concept" },
      { sentence: "Slow push-ins on the condensation on the steel.", kind: "direction", from: "concept" },
      { sentence: "Keeps water ice-cold for 24 hours.", kind: "copy", from: "concept" },
      { sentence: "Casual, honest, a bit funny.", kind: "tone", from: "concept" },
    ]);
  });

  it("keeps a sentence whole across an abbreviation, and reads a quoted imperative as the call to action", () => {
    expect(
      readBrief('Hand-made pasta and wood-fired pizza, open until 1 a.m. during Eid. Warm and welcoming. "Open an account in 5 minutes"'),
    ).toEqual([
      { sentence: "Open an account in 5 minutes", kind: "cta", from: "concept" },
      { sentence: "Hand-made pasta and wood-fired pizza, open until 1 a.m. during Eid.", kind: "copy", from: "concept" },
      { sentence: "Warm and welcoming.", kind: "tone", from: "concept" },
    ]);
  });

  it("reads the structured brief's fields as their kind", () => {
    const reading = readBrief(null, {
      hook: "Lukewarm water again?",
      benefits: ["Cold for 24 hours", "Hot for 12"],
      proof: "4.8 stars from 2,314 reviews",
      offer: "Free shipping this week",
      cta: "Get yours",
      direction: "Slow push-in on the bottle. Then the view from the summit.",
    });
    expect(reading.map((r) => [r.from, r.kind])).toEqual([
      ["hook", "copy"],
      ["benefits", "copy"],
      ["benefits", "copy"],
      ["proof", "copy"],
      ["offer", "copy"],
      ["cta", "cta"],
      ["direction", "direction"],
      ["direction", "direction"],
    ]);
  });
});

describe("briefForWriter", () => {
  it("gives a language model the lines it may write apart from the direction and tone it must not", () => {
    const given = briefForWriter({
      concept: 'A friendly trail guide talks. Keeps water cold all day. Casual, honest. "Cold for the long way up."',
      brief: { proof: "4.8 stars", direction: "Slow push-in." },
    });
    expect(given).toEqual({
      concept: '"Cold for the long way up." Keeps water cold all day.',
      lines: { proof: "4.8 stars", direction: undefined },
      notOnScreen: { direction: ["A friendly trail guide talks.", "Slow push-in."], tone: ["Casual, honest."] },
    });
  });
});

describe("moodOfTone", () => {
  it.each([
    ["Casual, honest, a bit funny.", "warm"],
    ["Playful, cheeky, a little irreverent.", "playful"],
    ["Upbeat and energetic!", "energetic"],
    ["Calm, professional, trustworthy.", "calm"],
    ["Tone: elegant and sophisticated.", "luxurious"],
  ])("hears %j as %s music", (tone, mood) => expect(moodOfTone(readBrief(`Cold brew in ten seconds. ${tone}`))).toBe(mood));

  it("asks for no mood without a tone sentence", () => expect(moodOfTone(readBrief("Cold brew in ten seconds."))).toBeNull());
});

describe("the storyboard of a mixed brief", () => {
  const onScreen = (concept: string, brief?: Record<string, unknown>) => {
    const ad = directAd({
      request: WorkflowRequest.parse({ type: "cinematic", concept, ...(brief ? { brief } : {}) }),
      brand: null,
      page: null,
      maxAdSeconds: 15,
    });
    return [ad.storyboard.title, ...ad.storyboard.scenes.flatMap((s) => [s.headline, s.body, s.cta])].filter(Boolean).join(" | ");
  };

  it.each([
    [
      'A steel bottle that keeps water ice-cold for 24 hours. A friendly trail guide talks. Slow push-ins on the condensation on the steel, then the view from the top. Casual, honest, a bit funny. "Cold for the long way up."',
      ["A friendly trail guide", "push-ins", "Casual, honest", "view from the top"],
    ],
    [
      "Meal kits that take 15 minutes. A mom opens the fridge and grabs a kit. Show the box big and the offer clearly. Warm and reassuring. Save 20% on your first box.",
      ["opens the fridge", "Show the box", "Warm and reassuring"],
    ],
  ])("shows no direction or tone sentence: %s", (concept, forbidden) => {
    const text = onScreen(concept);
    for (const phrase of forbidden) expect(text).not.toContain(phrase);
  });

  it("says the structured brief's hook, benefit, proof, offer and call to action, and none of its direction", () => {
    const text = onScreen("", {
      hook: "Lukewarm water again?",
      benefits: ["Cold for 24 hours"],
      proof: "4.8 stars from 2,314 reviews",
      offer: "Free shipping this week",
      cta: "Get yours",
      direction: "Slow push-in on the bottle.",
    });
    for (const line of [
      "Lukewarm water again?",
      "Cold for 24 hours",
      "4.8 stars from 2,314 reviews",
      "Free shipping this week",
      "Get yours",
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain("push-in");
  });
});

describe("writeCopy", () => {
  it("takes who the ad is for from its copy, never from a direction sentence", () => {
    const copy = (concept: string) => writeCopy({ concept, brand: null, page: null, type: "cinematic" }).audience;
    expect(copy("Cold brew in ten seconds. Film it handheld for the vertical feed.")).toBeNull();
    expect(copy("Cold brew for night-shift nurses. Film it handheld.")).toBe("night-shift nurses");
  });
});

describe("motionsAskedFor", () => {
  it("turns the moves a direction note asks for into camera moves, in order", () => {
    expect(motionsAskedFor(["Slow push-ins on the condensation on the steel, then the view from the top."])).toEqual(["push-in", "pan-up"]);
    expect(motionsAskedFor(["Pull back to reveal the kitchen.", "Pan left across the shelf."])).toEqual(["pull-out", "pan-left"]);
  });
});
