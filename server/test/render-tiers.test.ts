// Quality tiers a viewer can tell apart: standard is 720p at 30 fps, premium 1080p at 60 fps (same ad, same
// length, twice the frames), and the public pricing says exactly that.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudioRenderer, type Storyboard } from "../src/modules/render/index.ts";
import { RestClient } from "./support/clients.ts";
import { probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let dir: string;
let app: TestApp;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-tiers-"));
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const brand = { name: "Acme Coffee Co.", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" };
const storyboard: Storyboard = {
  title: "Tiers",
  brand,
  scenes: [
    { id: "a", durationSec: 1, headline: "Wake up to better coffee", background: "#1d3557", accent: "#e63946", transition: "fade" },
    { id: "b", durationSec: 1, headline: "Order now", cta: "Shop now", background: "#f1faee", accent: "#e63946", transition: "slide" },
  ],
};

describe("quality tiers", () => {
  it.each([
    ["9:16", [720, 1280], [1080, 1920]],
    ["16:9", [1280, 720], [1920, 1080]],
    ["1:1", [720, 720], [1080, 1080]],
    ["4:5", [720, 900], [1080, 1350]],
  ] as const)(
    "%s: standard is %j at 30 fps, premium %j at 60 fps, for the same length",
    async (format, standard, premium) => {
      const renderer = createStudioRenderer({ threads: 2, audioCacheDir: join(dir, "cache") });
      const stem = format.replace(":", "x");
      const low = await renderer.render({ storyboard, format, outputDir: dir, fileStem: `${stem}-standard`, quality: "standard" });
      const high = await renderer.render({ storyboard, format, outputDir: dir, fileStem: `${stem}-premium`, quality: "premium" });
      expect([low.width, low.height]).toEqual(standard);
      expect([high.width, high.height]).toEqual(premium);
      const [a, b] = [await probe(low.videoPath), await probe(high.videoPath)];
      expect(a).toMatchObject({ width: standard[0], height: standard[1], frameRate: "30/1", videoFrames: 60 });
      expect(b).toMatchObject({ width: premium[0], height: premium[1], frameRate: "60/1", videoFrames: 120 });
      expect(Math.abs(a.durationSec - b.durationSec)).toBeLessThan(0.1);
    },
    120_000,
  );

  it("GET /config/pricing states each tier's resolution and frame rate, and premium's extra variant", async () => {
    const tiers = (await new RestClient(app.url).get("/config/pricing")).body.data.qualityTiers as { id: string; description: string }[];
    const text = Object.fromEntries(tiers.map((t) => [t.id, t.description]));
    expect(text.standard).toContain("720p at 30 fps");
    expect(text.standard).toContain("9:16 720×1280");
    expect(text.standard).toContain("two hook variants per format");
    expect(text.premium).toContain("1080p at 60 fps");
    expect(text.premium).toContain("9:16 1080×1920");
    expect(text.premium).toContain("three hook variants per format instead of two");
  });
});
