// Makes the README's stills: a few ads from the built-in studio, exactly as a job renders them (art
// direction, look, renderer), with a product shot drawn here (so the pictures are ours to publish).
// Run: cd server && node --import tsx scripts/readme-stills.ts   (writes docs/stills/*.jpg)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkflowRequest } from "@adgen/schema";
import { createCanvas } from "@napi-rs/canvas";
import { createStudioRenderer, locateFfmpeg } from "../src/modules/render/index.ts";
import { renderStaticAd, staticVariants } from "../src/modules/render/static-ad.ts";
import type { Storyboard } from "../src/modules/render/types.ts";
import { directAd } from "../src/modules/workflows/pipeline/art-direction.ts";
import { applyLook } from "../src/modules/workflows/pipeline/look.ts";

const out = join(import.meta.dirname, "..", "..", "docs", "stills");
const work = mkdtempSync(join(tmpdir(), "adgen-stills-"));
const ffmpeg = locateFfmpeg();

/** A studio product shot: a can of cold brew on a warm backdrop, with a soft shadow and highlights. */
function productShot(path: string) {
  const w = 1600;
  const h = 1200;
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext("2d");
  const bg = ctx.createLinearGradient(0, 0, w, h);
  bg.addColorStop(0, "#f4d9b8");
  bg.addColorStop(1, "#c9875a");
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "rgba(60,30,10,0.25)";
  ctx.beginPath();
  ctx.ellipse(w / 2 + 40, h * 0.86, 260, 46, 0, 0, Math.PI * 2);
  ctx.fill();
  const body = ctx.createLinearGradient(w / 2 - 210, 0, w / 2 + 210, 0);
  body.addColorStop(0, "#2a1a12");
  body.addColorStop(0.35, "#6b3f26");
  body.addColorStop(0.5, "#8c5634");
  body.addColorStop(1, "#1c110b");
  ctx.fillStyle = body;
  ctx.beginPath();
  ctx.roundRect(w / 2 - 210, h * 0.18, 420, h * 0.68, 40);
  ctx.fill();
  ctx.fillStyle = "#e9e2d6";
  ctx.fillRect(w / 2 - 210, h * 0.4, 420, h * 0.22);
  ctx.fillStyle = "#2a1a12";
  ctx.font = "bold 70px DejaVu Sans";
  ctx.textAlign = "center";
  ctx.fillText("BREWLY", w / 2, h * 0.5);
  ctx.font = "36px DejaVu Sans";
  ctx.fillText("cold brew", w / 2, h * 0.57);
  ctx.fillStyle = "rgba(255,255,255,0.18)";
  ctx.fillRect(w / 2 - 150, h * 0.2, 36, h * 0.64);
  writeFileSync(path, canvas.toBuffer("image/jpeg"));
}

function logo(path: string) {
  const canvas = createCanvas(480, 160);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#3b1f12";
  ctx.font = "bold 96px DejaVu Sans";
  ctx.textBaseline = "middle";
  ctx.fillText("Brewly", 20, 84);
  writeFileSync(path, canvas.toBuffer("image/png"));
}

const picture = join(work, "product.jpg");
const logoPath = join(work, "logo.png");
productShot(picture);
logo(logoPath);
const brand = {
  id: "readme",
  brandName: "Brewly",
  colors: { primary: "#3b1f12", secondary: "#8c5634", accent: "#e0a458" },
  targetAudience: "night-shift nurses",
};
const concept =
  "Cold brew that keeps night-shift nurses sharp until sunrise. Rated 4.9 stars by 12,000 nurses. 'Stay sharp after midnight.' CTA: \"Order a trial pack\"";

/** The storyboard a job of this type and preset directs, with the product shot and logo as local files. */
function direct(type: string, adPreset: string): Storyboard {
  const request = WorkflowRequest.parse({ type, concept, adPreset });
  const { storyboard } = directAd({ request, brand, page: null, maxAdSeconds: 12 });
  const imagery = {
    pictures: [{ key: "product", width: 1600, height: 1200, source: "readme" }],
    logo: { key: "logo", width: 480, height: 160, source: "readme" },
    warnings: [],
  };
  const looked = applyLook(storyboard, adPreset, imagery);
  return {
    ...looked,
    brand: { ...looked.brand, logoPath },
    scenes: looked.scenes.map((s) => (s.imageKey ? { ...s, imagePath: picture } : s)),
  };
}

/** A frame of the rendered video at `at` seconds as a small JPEG. */
function still(video: string, at: number, name: string, width: number) {
  execFileSync(ffmpeg, [
    "-v",
    "error",
    "-ss",
    String(at),
    "-i",
    video,
    "-frames:v",
    "1",
    "-vf",
    `scale=${width}:-2`,
    "-q:v",
    "4",
    "-y",
    join(out, name),
  ]);
}

const renderer = createStudioRenderer();
try {
  const painpoint = direct("painpoint", "bold");
  const a = await renderer.render({ storyboard: painpoint, format: "9:16", outputDir: work, fileStem: "painpoint" });
  still(a.videoPath, 1.5, "painpoint-bold-9x16-hook.jpg", 270);
  still(a.videoPath, a.durationSec - 1, "painpoint-bold-9x16-close.jpg", 270);
  const luxury = direct("cinematic", "luxury");
  const b = await renderer.render({ storyboard: luxury, format: "16:9", outputDir: work, fileStem: "cinematic" });
  still(b.videoPath, 2, "cinematic-luxury-16x9.jpg", 480);
  const staticBoard = direct("staticad", "minimal");
  for (const variant of staticVariants(staticBoard, 3)) {
    const file = join(work, `static-${variant.id}.png`);
    await renderStaticAd(staticBoard, variant, "1:1", file);
    execFileSync(ffmpeg, [
      "-v",
      "error",
      "-i",
      file,
      "-vf",
      "scale=270:-2",
      "-q:v",
      "4",
      "-y",
      join(out, `staticad-${variant.layout}-1x1.jpg`),
    ]);
  }
  console.log(`stills written to ${out}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
