// What the review uploads and serves: product photos drawn with Skia on a plain studio backdrop (as a
// shop's packshot is), and the pages that clone, factory, brand and local-audit briefs read.
import { createCanvas } from "@napi-rs/canvas";
import type { ProductShape, ReviewSite } from "./briefs.ts";

const W = 1200;
const H = 1500;

/** A packshot: one product in the middle of a light, plain backdrop, with a soft shadow and its label. */
export function productPhoto(shape: ProductShape, label: string, color: string): Buffer {
  const canvas = createCanvas(W, H);
  const g = canvas.getContext("2d");
  const backdrop = g.createLinearGradient(0, 0, 0, H);
  backdrop.addColorStop(0, "#f3f1ee");
  backdrop.addColorStop(1, "#dcd8d2");
  g.fillStyle = backdrop;
  g.fillRect(0, 0, W, H);
  g.fillStyle = "rgba(0,0,0,0.18)";
  g.beginPath();
  g.ellipse(W / 2, H * 0.84, 300, 40, 0, 0, Math.PI * 2);
  g.fill();
  const box = outline(shape);
  const body = g.createLinearGradient(box.x, 0, box.x + box.w, 0);
  body.addColorStop(0, shade(color, -0.35));
  body.addColorStop(0.45, shade(color, 0.15));
  body.addColorStop(1, shade(color, -0.45));
  g.fillStyle = body;
  g.beginPath();
  g.roundRect(box.x, box.y, box.w, box.h, box.radius);
  g.fill();
  if (shape === "bottle" || shape === "jar" || shape === "tube") {
    g.fillStyle = shade(color, -0.55);
    const capW = shape === "tube" ? box.w * 0.5 : box.w * 0.45;
    g.fillRect(W / 2 - capW / 2, box.y - (shape === "tube" ? -box.h + 2 : 110), capW, 110);
  }
  g.fillStyle = "rgba(255,255,255,0.9)";
  g.fillRect(box.x, box.y + box.h * 0.38, box.w, box.h * 0.24);
  g.fillStyle = shade(color, -0.5);
  g.textAlign = "center";
  g.textBaseline = "middle";
  let size = 96;
  do {
    g.font = `bold ${size}px DejaVu Sans`;
    size -= 4;
  } while (g.measureText(label).width > box.w * 0.86 && size > 20);
  g.fillText(label, W / 2, box.y + box.h * 0.5);
  g.fillStyle = "rgba(255,255,255,0.22)";
  g.fillRect(box.x + box.w * 0.14, box.y + 20, box.w * 0.07, box.h - 40);
  return canvas.toBuffer("image/png");
}

function outline(shape: ProductShape) {
  const sizes: Record<ProductShape, { w: number; h: number; radius: number }> = {
    bottle: { w: 340, h: 820, radius: 90 },
    can: { w: 380, h: 700, radius: 40 },
    tube: { w: 300, h: 760, radius: 60 },
    jar: { w: 520, h: 560, radius: 60 },
    box: { w: 600, h: 640, radius: 18 },
    pouch: { w: 560, h: 760, radius: 50 },
  };
  const { w, h, radius } = sizes[shape];
  return { x: (W - w) / 2, y: H * 0.8 - h, w, h, radius };
}

/** `hex` lighter (amount > 0) or darker (amount < 0). */
function shade(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (value >> shift) & 255;
    const next = amount >= 0 ? c + (255 - c) * amount : c * (1 + amount);
    return Math.round(Math.max(0, Math.min(255, next)));
  };
  return `rgb(${channel(16)}, ${channel(8)}, ${channel(0)})`;
}

/** The page a brief's job reads: a title, a hero heading, the copy, and a call to action. */
export function sitePage(site: ReviewSite, brandColor: string): string {
  const [first, ...rest] = site.paragraphs;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${site.title}</title>
<meta name="description" content="${first ?? ""}"><meta name="theme-color" content="${brandColor}">
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<header><a href="/">${site.title.split(/[:—]/)[0]?.trim()}</a></header>
<main><h1>${first ?? site.title}</h1>${rest.map((p) => `<p>${p}</p>`).join("\n")}
<a class="cta" href="/shop">Shop now</a></main>
<footer><p>Contact: hello@${new URL(site.url).host}</p></footer></body></html>`;
}
