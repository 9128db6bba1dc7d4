// Static ads keep their copy off the product: every layout in every format is drawn twice with a
// packshot (once with its copy, once with the copy's letters left out), and the pixels that differ (the
// letters) must lie outside the product as found in the frame, at 4.5:1 or more against what is behind them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AspectRatio, FORMATS } from "@adgen/schema";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { afterAll, describe, expect, it } from "vitest";
import { productPhoto } from "../ad-review/products.ts";
import { contrast, type Rgb } from "../src/modules/render/color.ts";
import { renderStaticAd, STATIC_LAYOUTS, type StaticVariant } from "../src/modules/render/static-ad.ts";
import type { Storyboard } from "../src/modules/render/types.ts";

const dir = process.env.STATIC_AD_OUT ?? mkdtempSync(join(tmpdir(), "static-ad-layout-"));
afterAll(() => {
  if (!process.env.STATIC_AD_OUT) rmSync(dir, { recursive: true, force: true });
});

// A green product; brand colours with no green in them, so the product's pixels are found by hue.
const PRODUCT_GREEN = "#2e9e44";
const storyboard: Storyboard = {
  title: "Eid Mubarak",
  brand: { name: "Maison Noor", primary: "#1d2a5b", secondary: "#6b3fa0", accent: "#f28c28", text: "#ffffff" },
  scenes: [],
};

async function pixels(path: string) {
  const image = await loadImage(path);
  const ctx = createCanvas(image.width, image.height).getContext("2d");
  ctx.drawImage(image, 0, 0);
  return { data: ctx.getImageData(0, 0, image.width, image.height).data, w: image.width, h: image.height };
}

/** The bounding box of the product's green pixels in a frame. */
function productBox(data: Uint8ClampedArray, w: number, h: number) {
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < w * h; i++) {
    const [r, g, b] = [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!];
    if (g > r + 40 && g > b + 30) {
      const x = i % w;
      const y = (i - x) / w;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/** Groups of letter pixels (differing pixels joined through 8-px cells), each with its pixels. */
function letterGroups(a: Uint8ClampedArray, b: Uint8ClampedArray, w: number, h: number) {
  const cell = 8;
  const cw = Math.ceil(w / cell);
  const ch = Math.ceil(h / cell);
  const cells = new Map<number, number[]>();
  for (let i = 0; i < w * h; i++) {
    const d = Math.abs(a[i * 4]! - b[i * 4]!) + Math.abs(a[i * 4 + 1]! - b[i * 4 + 1]!) + Math.abs(a[i * 4 + 2]! - b[i * 4 + 2]!);
    if (d < 30) continue;
    const x = i % w;
    const key = Math.floor((i - x) / w / cell) * cw + Math.floor(x / cell);
    cells.set(key, [...(cells.get(key) ?? []), i]);
  }
  const groups: number[][] = [];
  const seen = new Set<number>();
  for (const start of cells.keys()) {
    if (seen.has(start)) continue;
    const group: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const c = stack.pop()!;
      group.push(...cells.get(c)!);
      const cx = c % cw;
      const cy = (c - cx) / cw;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const n = (cy + dy) * cw + cx + dx;
          if (cx + dx >= 0 && cx + dx < cw && cy + dy >= 0 && cy + dy < ch && cells.has(n) && !seen.has(n)) {
            seen.add(n);
            stack.push(n);
          }
        }
    }
    groups.push(group);
  }
  return groups;
}

const rgbAt = (data: Uint8ClampedArray, i: number): Rgb => [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!];

describe("static ad layouts keep copy off the product", () => {
  const photo = join(dir, "bottle.png");
  writeFileSync(photo, productPhoto("bottle", "Oud Noir", PRODUCT_GREEN));
  const formats = FORMATS.map((f) => f.ratio) as AspectRatio[];

  const logo = join(dir, "logo.png");
  const logoCanvas = createCanvas(420, 120);
  const lg = logoCanvas.getContext("2d");
  lg.fillStyle = "#7a3e12";
  lg.font = "bold 60px DejaVu Sans";
  lg.fillText("NOOR", 20, 85);
  writeFileSync(logo, logoCanvas.toBuffer("image/png"));
  const cases = [
    ...STATIC_LAYOUTS.flatMap((layout) => formats.map((format) => ({ layout, format, logo: false }))),
    ...STATIC_LAYOUTS.map((layout) => ({ layout, format: "4:5" as AspectRatio, logo: true })),
  ];

  for (const { layout, format, logo: withLogo } of cases)
    it(`${layout} ${format}${withLogo ? " with a logo" : ""}: no letter on the product, every letter at 4.5:1`, {
      timeout: 120_000,
    }, async () => {
      const variant: StaticVariant = {
        id: "A",
        layout,
        headline: "Eid Mubarak from our family to yours",
        body: "A warm oud and amber scent for the evenings of Eid, made in small batches.",
        cta: "Shop the gift set",
        brandName: storyboard.brand.name,
        picturePath: photo,
      };
      const stem = `${layout}-${format.replace(":", "x")}${withLogo ? "-logo" : ""}`;
      const board = withLogo ? { ...storyboard, brand: { ...storyboard.brand, logoPath: logo } } : storyboard;
      await renderStaticAd(board, variant, format, join(dir, `${stem}.png`));
      await renderStaticAd(board, variant, format, join(dir, `${stem}-plate.png`), { hideText: true });
      const withCopy = await pixels(join(dir, `${stem}.png`));
      const plate = await pixels(join(dir, `${stem}-plate.png`));
      const { w, h } = plate;

      const product = productBox(plate.data, w, h);
      expect(product, "the product is in the frame").not.toBeNull();
      const groups = letterGroups(withCopy.data, plate.data, w, h);
      expect(groups.length, "the copy is drawn").toBeGreaterThan(2);

      const onProduct = groups.flat().filter((i) => {
        const x = i % w;
        const y = (i - x) / w;
        return x >= product!.x0 && x <= product!.x1 && y >= product!.y0 && y <= product!.y1;
      });
      expect(onProduct.length, "letter pixels inside the product's box").toBe(0);

      for (const group of groups) {
        // The letter's ink: where the copy changed the frame most; behind it: the plate under the group's box.
        const diff = (i: number) => contrast(rgbAt(withCopy.data, i), rgbAt(plate.data, i));
        const core = group.reduce((best, i) => (diff(i) > diff(best) ? i : best), group[0]!);
        const ink = rgbAt(withCopy.data, core);
        const xs = group.map((i) => i % w);
        const ys = group.map((i) => Math.floor(i / w));
        const behind: number[] = [];
        for (let y = Math.min(...ys); y <= Math.max(...ys); y++)
          for (let x = Math.min(...xs); x <= Math.max(...xs); x++) behind.push(contrast(ink, rgbAt(plate.data, y * w + x)));
        behind.sort((a, b) => a - b);
        const weakest = behind[Math.floor(behind.length * 0.05)]!;
        expect(weakest, `contrast of letters at (${Math.min(...xs)}, ${Math.min(...ys)})`).toBeGreaterThanOrEqual(4.5);
      }
    });
});
