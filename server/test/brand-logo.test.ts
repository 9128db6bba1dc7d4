// A brand logo uploaded as a file: PNG, WebP or SVG judged by content; stored as a PNG in the
// media store, served publicly at an unguessable address, and set as the brand's logoUrl. An SVG is drawn
// to PNG, and one that would load another file, declare entities or run a script is refused with a 400
// that says why; nothing is stored for a refused file.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let stranger: Account;
beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "logo-owner");
  stranger = await signUp(app, "logo-stranger");
});
afterAll(() => app?.close());

async function raster(format: "png" | "webp", width: number, height: number): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext("2d");
  g.fillStyle = "#1f4fd1";
  g.fillRect(0, 0, width, height);
  return Buffer.from(await canvas.encode(format as "png"));
}

const SVG = `<?xml version="1.0"?>
<!-- exported by a design tool -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100" fill="#e11d48"/><circle cx="50" cy="50" r="30" fill="#fff"/></svg>`;

async function upload(account: Account, bytes: Uint8Array | string, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${app.url}/api/user/brand/logo`, { method: "POST", headers: { cookie: `session=${account.jwt}` }, body: form });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: any; error?: string } };
}

const storedLogos = () => {
  const dir = join(app.config.dataDir, "media", "brand-logos");
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

async function fetchLogo(url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`);
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

describe("uploading a brand logo", () => {
  it("a PNG becomes the default brand's logo, served as PNG without a session", async () => {
    const res = await upload(owner, await raster("png", 300, 120), "logo.png");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ width: 300, height: 120, uploaded: "png" });
    expect(res.body.data.logoUrl).toMatch(/\/api\/brand-logos\/[0-9a-f-]{36}\.png$/);
    const brand = (await owner.client.get("/user/brand")).body.data;
    expect(brand).toMatchObject({ id: res.body.data.brandId, logoUrl: res.body.data.logoUrl });
    const file = await fetchLogo(res.body.data.logoUrl);
    expect(file).toMatchObject({ status: 200, type: "image/png" });
    expect((await loadImage(file.body)).width).toBe(300);
  });

  it("a WebP is stored as a PNG; a large one is scaled down to 1024 px", async () => {
    const res = await upload(owner, await raster("webp", 2048, 512), "logo.webp");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ width: 1024, height: 256, uploaded: "webp" });
    const file = await fetchLogo(res.body.data.logoUrl);
    expect(file.body.subarray(1, 4).toString()).toBe("PNG");
  });

  it("an SVG is drawn to a PNG, for the brand named", async () => {
    const second = await owner.client.post("/user/brands", { name: "Second brand" });
    const res = await upload(owner, SVG, "logo.svg", { brandId: second.body.data.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ brandId: second.body.data.id, width: 1024, height: 512, uploaded: "svg" });
    const file = await fetchLogo(res.body.data.logoUrl);
    expect(file.type).toBe("image/png");
    const drawn = await loadImage(file.body);
    const canvas = createCanvas(drawn.width, drawn.height);
    canvas.getContext("2d").drawImage(drawn, 0, 0);
    // The corner is the SVG's red, the middle of the circle its white: it was really drawn.
    expect([...canvas.getContext("2d").getImageData(5, 5, 1, 1).data]).toEqual([225, 29, 72, 255]);
    expect([...canvas.getContext("2d").getImageData(256, 256, 1, 1).data]).toEqual([255, 255, 255, 255]);
    expect((await owner.client.get(`/user/brands/${second.body.data.id}`)).body.data.logoUrl).toBe(res.body.data.logoUrl);
  });

  it("refuses hazardous SVGs, other files and other accounts' brands with a 400 or 404 that says why, storing nothing", async () => {
    const before = storedLogos();
    const cases: [string, string, RegExp][] = [
      [
        `<!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>`,
        "a.svg",
        /DOCTYPE or entities/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><image xlink:href="file:///etc/passwd" width="64" height="64"/></svg>`,
        "b.svg",
        /links to another file/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect style="fill:url(http://169.254.169.254/x)" width="9" height="9"/></svg>`,
        "c.svg",
        /loads another file/,
      ],
      [`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script></svg>`, "d.svg", /contains a script/],
      ["%PDF-1.4 not a logo", "logo.png", /must be a PNG, WebP or SVG/],
    ];
    for (const [body, name, message] of cases) {
      const res = await upload(owner, body, name);
      expect(res.status, name).toBe(400);
      expect(res.body.error, name).toMatch(message);
    }
    const tiny = await upload(owner, await raster("png", 20, 20), "tiny.png");
    expect(tiny.status).toBe(400);
    expect(tiny.body.error).toMatch(/20×20 px: send one at least 32 px/);
    const ownBrand = (await owner.client.get("/user/brand")).body.data.id;
    expect((await upload(stranger, SVG, "logo.svg", { brandId: ownBrand })).status).toBe(404);
    expect(storedLogos()).toBe(before);
    expect((await fetch(`${app.url}/api/brand-logos/not-a-logo.png`)).status).toBe(400);
    expect((await fetch(`${app.url}/api/brand-logos/00000000-0000-0000-0000-000000000000.png`)).status).toBe(404);
  });
});
