// Facts reach the viewer: a brief whose knowledge file holds facts the concept does not state is directed
// as every type of ad, and at least one of the facts is a line the viewer takes in: on screen, and in a
// narrated ad a headline (what the narration speaks and the captions show). `result.sources` keeps only the
// passages whose facts were said.
import { WorkflowRequest, WORKFLOW_TYPES } from "@adgen/schema";
import { describe, expect, it } from "vitest";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { factsShown, linesSeen, sourcesShown } from "../src/modules/workflows/pipeline/facts.ts";

const FACTS = ["Shipped within 48 hours of roasting.", "Every bag is fully compostable.", "Beans come from four farms in Huila."];
const brand = { id: "b", brandName: "Ridge Roasters", productDescription: "Single-origin coffee, roasted to order." };
const concept = "Coffee that tastes like the farm it came from. Roasted in small batches for home baristas.";

describe("knowledge facts in the ad", () => {
  it("puts a fact the concept does not state where the viewer sees or hears it, in every type", () => {
    for (const type of WORKFLOW_TYPES.filter((t) => t !== "ad-optimizer")) {
      const request = WorkflowRequest.parse({ type, concept, url: "https://ridge.example/" });
      const ad = directAd({ request, brand, page: null, maxAdSeconds: 15, knowledge: FACTS });
      const seen = ad.storyboard.scenes.flatMap((scene) => linesSeen(scene, type)).join(" | ");
      expect(factsShown(ad.storyboard, FACTS, type).length, `${type}: ${seen}`).toBeGreaterThan(0);
      if (type === "avatar" || type === "influencer") {
        const headlines = ad.storyboard.scenes.map((s) => s.headline).join(" | ");
        expect(
          FACTS.some((fact) => headlines.includes(fact.replace(/\.$/, ""))),
          `${type} narrates a fact: ${headlines}`,
        ).toBe(true);
      }
    }
  });

  it("lists only the passages whose facts were said", () => {
    const request = WorkflowRequest.parse({ type: "cinematic", concept });
    const ad = directAd({ request, brand, page: null, maxAdSeconds: 15, knowledge: FACTS });
    const sources = [
      { itemId: "a", name: "facts.txt", passage: `${FACTS[0]} ${FACTS[1]}` },
      { itemId: "b", name: "history.txt", passage: "Our founders opened the first roastery in 2011." },
    ];
    const shown = sourcesShown(sources, [...FACTS, "Our founders opened the first roastery in 2011."], ad.storyboard, "cinematic");
    expect(shown.map((s) => s.itemId)).toEqual(["a"]);
  });
});
