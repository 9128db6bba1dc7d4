// The optimizer's pacing rule on a dense ad: four scenes in four seconds cannot be read (about a second
// each), so the improved ad has fewer, longer scenes, keeps the hook and the call to action, and says what it
// dropped and why. The built-in director no longer writes ads that dense, so the source is made here.
import type { Job } from "@adgen/prisma";
import { describe, expect, it } from "vitest";
import type { Scene, Storyboard } from "../src/modules/render/types.ts";
import { optimizeAd } from "../src/modules/workflows/pipeline/optimize.ts";

const scene = (id: string, headline: string, extra: Partial<Scene> = {}): Scene => ({
  id,
  durationSec: 1,
  headline,
  background: "#1d3557",
  accent: "#f4a261",
  transition: "none",
  ...extra,
});

const dense: Storyboard = {
  title: "Brewly",
  brand: { name: "Brewly", primary: "#1d3557", secondary: "#457b9d", accent: "#f4a261", text: "#ffffff" },
  scenes: [
    scene("s1", "Coffee in ten seconds?"),
    scene("s2", "Brewed for 20 hours"),
    scene("s3", "From single-origin beans"),
    scene("s4", "Brewly cold brew", { cta: "Get Brewly" }),
  ],
};

function sourceJob(feedback: string | null): Job {
  return {
    id: "job-dense",
    type: "cinematic",
    input: { type: "cinematic", concept: "Brewly cold brew concentrate: smooth coffee in ten seconds." },
    rating: feedback ? "down" : null,
    ratingFeedback: feedback,
    reviewFeedback: null,
  } as unknown as Job;
}

describe("the optimizer's pacing", () => {
  it("merges away scenes too short to read, keeping the hook and the call to action", () => {
    const improved = optimizeAd({
      source: { job: sourceJob("Too fast to read"), storyboard: dense },
      request: { type: "ad-optimizer", formats: ["9:16"] } as never,
      brand: null,
      maxAdSeconds: 4,
    });
    const scenes = improved.storyboard.scenes;
    expect(scenes.length).toBeLessThan(dense.scenes.length);
    expect(scenes[0]!.id).toBe("s1");
    expect(scenes.at(-1)!.cta).toBe("Get Brewly");
    // Each scene now lasts at least the readable second and a half, and the ad keeps its length.
    for (const s of scenes) expect(s.durationSec).toBeGreaterThanOrEqual(1.5);
    expect(scenes.reduce((sum, s) => sum + s.durationSec, 0)).toBeCloseTo(4, 5);
    const pacing = improved.optimization.changes.find((c) => c.area === "pacing");
    expect(pacing?.before).toMatch(/^4 scenes of about 1 s/);
    expect(pacing?.after).toMatch(new RegExp(`^${scenes.length} scenes`));
    expect(pacing?.why).toContain('You said: "Too fast to read"');
  });

  it("leaves an ad whose scenes can be read as it is", () => {
    const readable: Storyboard = { ...dense, scenes: [dense.scenes[0]!, dense.scenes[3]!].map((s) => ({ ...s, durationSec: 2 })) };
    const improved = optimizeAd({
      source: { job: sourceJob(null), storyboard: readable },
      request: { type: "ad-optimizer", formats: ["9:16"] } as never,
      brand: null,
      maxAdSeconds: 4,
    });
    expect(improved.storyboard.scenes.map((s) => s.id)).toEqual(["s1", "s4"]);
    expect(improved.optimization.changes.filter((c) => c.area === "pacing")).toEqual([]);
  });
});
