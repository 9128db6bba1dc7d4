// Finding the product in a photo (render/subject-box.ts): on a plain backdrop, on a graded one, in a
// cut-out PNG, and the centre guess for a busy photo.
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { productPhoto } from "../ad-review/products.ts";
import { CENTRE_BOX, findSubjectBox } from "../src/modules/render/subject-box.ts";

/** `box` (fractions) holds the pixel rectangle and is at most `slack` (fraction) larger on each side. */
function expectAround(box: { x: number; y: number; w: number; h: number }, rect: number[], size: number[], slack = 0.06) {
  const [x, y, w, h] = rect as [number, number, number, number];
  const [W, H] = size as [number, number];
  expect(box.x).toBeLessThanOrEqual(x / W + 0.01);
  expect(box.y).toBeLessThanOrEqual(y / H + 0.01);
  expect(box.x + box.w).toBeGreaterThanOrEqual((x + w) / W - 0.01);
  expect(box.y + box.h).toBeGreaterThanOrEqual((y + h) / H - 0.01);
  expect(box.x).toBeGreaterThan(x / W - slack);
  expect(box.y).toBeGreaterThan(y / H - slack);
  expect(box.x + box.w).toBeLessThan((x + w) / W + slack);
  expect(box.y + box.h).toBeLessThan((y + h) / H + slack);
}

describe("subject box", () => {
  it("finds a product standing off-centre on a plain backdrop", async () => {
    const canvas = createCanvas(1000, 800);
    const g = canvas.getContext("2d");
    g.fillStyle = "#f4f4f2";
    g.fillRect(0, 0, 1000, 800);
    g.fillStyle = "#c0392b";
    g.beginPath();
    g.roundRect(600, 200, 250, 450, 40);
    g.fill();
    const box = await findSubjectBox(canvas);
    expect(box.source).toBe("backdrop");
    expectAround(box, [600, 200, 250, 450], [1000, 800]);
  });

  it("finds a packshot on a graded studio backdrop (the product and its cap, not the whole frame)", async () => {
    const photo = await loadImage(productPhoto("bottle", "Oud Noir", "#2e9e44"));
    const box = await findSubjectBox(photo);
    expect(box.source).toBe("backdrop");
    // The bottle: 340 × 820 at (430, 380) and its cap 110 above, in a 1200 × 1500 picture; its soft shadow may join it.
    expectAround(box, [430, 270, 340, 930], [1200, 1500], 0.22);
    expect(box.w).toBeLessThan(0.6);
  });

  it("reads a cut-out's alpha channel", async () => {
    const canvas = createCanvas(600, 600);
    const g = canvas.getContext("2d");
    g.fillStyle = "#ffffff";
    g.beginPath();
    g.arc(150, 400, 100, 0, Math.PI * 2);
    g.fill();
    const box = await findSubjectBox(await loadImage(canvas.toBuffer("image/png")));
    expect(box.source).toBe("alpha");
    expectAround(box, [50, 300, 200, 200], [600, 600]);
  });

  it("guesses the centre in a busy photo", async () => {
    const canvas = createCanvas(800, 600);
    const g = canvas.getContext("2d");
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 900; i++) {
      g.fillStyle = `rgb(${Math.floor(random() * 255)},${Math.floor(random() * 255)},${Math.floor(random() * 255)})`;
      g.fillRect(random() * 800 - 40, random() * 600 - 40, 20 + random() * 80, 20 + random() * 80);
    }
    expect(await findSubjectBox(canvas)).toEqual(CENTRE_BOX);
  });
});
