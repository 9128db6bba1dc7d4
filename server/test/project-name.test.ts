// A project's name from its concept is a whole sentence or clause, never the first words cut mid-sentence.
import { describe, expect, it } from "vitest";
import { projectNameFrom } from "../src/modules/projects/project-name.ts";

describe("projectNameFrom", () => {
  it("takes the first sentence, or the first clause, or the type's name; never a cut with an ellipsis", () => {
    const concept = "Morning in a sunny kitchen. A scruffy terrier waits by an empty bowl until the bag rustles.";
    expect(projectNameFrom({ type: "cinematic", concept })).toBe("Morning in a sunny kitchen");
    expect(
      projectNameFrom({
        type: "painpoint",
        concept: "Hot sleepers wake up at 3 am, kick off the covers and lie awake until the alarm goes off at seven",
      }),
    ).toBe("Hot sleepers wake up at 3 am");
    const long = "A".repeat(30) + " " + "b".repeat(40) + " and more words without any clause break at all here";
    expect(projectNameFrom({ type: "staticad", concept: long })).toBe("Static ads");
    expect(projectNameFrom({ type: "factory", concept: "" })).toBe("Ad factory batch");
    expect(projectNameFrom({ type: "cinematic", concept: "Cold brew for night shifts" })).toBe("Cold brew for night shifts");
    for (const name of [concept, long].map((c) => projectNameFrom({ type: "cinematic", concept: c }))) expect(name).not.toMatch(/…$/);
  });
});
