// An ad is always for the brand it names. With "No brand profile" (brand: "none") a launch for another
// site's page shows none of the account's default brand: not its name (read back with OCR from every still),
// not its product photo (no pixel of the photo's magenta), not its logo, not its knowledge base's facts.
// Its call to action is the page's own button; a page at an IP address is never named by that address.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { isMagenta, writeTestPictures } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";
import { settledJob } from "./support/wait-for.ts";

const resolver: Resolver = async (host) => {
  if (host === "harbor-bank.example") return ["93.184.216.60"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

const BANK_PAGE = `<!doctype html><html><head><title>Harbor Bank current account</title>
<meta name="description" content="A current account with no monthly fee and instant card freezing.">
</head><body><h1>Banking that keeps up with you</h1><p>No monthly fee. Instant card freezing.</p>
<a class="btn btn-primary" href="/open">Open an account</a></body></html>`;
const IP_PAGE = `<!doctype html><html><head><title>Harbor Bank savings</title></head><body><h1>Savings that grow</h1></body></html>`;

const DOG_BRAND = "Barkwell Kibble";
let logo: Buffer;
const network = setupServer(
  http.get("https://harbor-bank.example/current-account", () => HttpResponse.html(BANK_PAGE)),
  http.get("https://93.184.216.60/savings", () => HttpResponse.html(IP_PAGE)),
  http.get("https://barkwell.example/logo.png", () => new HttpResponse(logo, { headers: { "content-type": "image/png" } })),
);

let app: TestApp;
let user: Account;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-no-brand-"));
  const pictures = await writeTestPictures(dir);
  logo = readFileSync(pictures.logo);
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1" }, { resolver });
  user = await signUp(app, "no-brand");
  const saved = await user.client.post("/user/brand", {
    brandName: DOG_BRAND,
    productDescription: "Grain-free kibble for dogs, in a resealable bag.",
    logoUrl: "https://barkwell.example/logo.png",
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  // The default brand's product photo (green and magenta halves) in the library.
  const form = new FormData();
  form.append("file", new Blob([readFileSync(pictures.picture)]), "kibble-bag.jpg");
  const uploaded = await fetch(`${app.url}/api/user/brand/media`, {
    method: "POST",
    headers: { cookie: `session=${user.jwt}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);
});
afterAll(async () => {
  await stopOcr();
  await app?.close();
  network.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function stills(body: Record<string, unknown>) {
  const launched = await user.client.post("/workflow", { type: "staticad", formats: ["1:1"], ...body });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await settledJob(user.client, launched.body.data.jobId);
  expect(job.status, job.error).toBe("completed");
  return job;
}

async function pixels(url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.jwt}` } });
  expect(res.status).toBe(200);
  const png = Buffer.from(await res.arrayBuffer());
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext("2d").drawImage(image, 0, 0);
  const { data } = canvas.getContext("2d").getImageData(0, 0, image.width, image.height);
  let magenta = 0;
  for (let i = 0; i < data.length; i += 4) if (isMagenta(data[i]!, data[i + 1]!, data[i + 2]!)) magenta++;
  return { png, magentaShare: magenta / (image.width * image.height) };
}

describe("an ad without a brand profile", () => {
  it("shows no word or pixel of the default brand, and asks what the page asks", { timeout: 150_000 }, async () => {
    const job = await stills({
      url: "https://harbor-bank.example/current-account",
      concept: "A current account for people who hate bank fees.",
      brand: "none",
    });
    const storyboard = job.result.storyboard;
    const words = JSON.stringify(storyboard).toLowerCase();
    expect(words).not.toContain("barkwell");
    expect(words).not.toContain("kibble");
    expect(storyboard.brand.logoKey ?? null).toBeNull();
    expect(storyboard.scenes.every((scene: { imageKey?: string }) => !scene.imageKey?.includes("library"))).toBe(true);
    expect(storyboard.scenes.at(-1).cta).toBe("Open an account");

    const assets = job.result.assets as { url: string; headline: string }[];
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const { png, magentaShare } = await pixels(asset.url);
      expect(magentaShare, asset.url).toBeLessThan(0.002);
      const read = normalizeText((await readText(png)).join(" "));
      expect(read).not.toContain("barkwell");
      expect(read).not.toContain("kibble");
    }
  });

  it("with the default brand (brand left out), the same launch does show it: the check above can fail", {
    timeout: 150_000,
  }, async () => {
    const job = await stills({
      url: "https://harbor-bank.example/current-account",
      concept: "A current account for people who hate bank fees.",
    });
    expect(JSON.stringify(job.result.storyboard)).toContain(DOG_BRAND);
    const shares = await Promise.all((job.result.assets as { url: string }[]).map(async (a) => (await pixels(a.url)).magentaShare));
    expect(Math.max(...shares)).toBeGreaterThan(0.01);
  });

  it("never names a page at an IP address by its address", { timeout: 150_000 }, async () => {
    const job = await stills({ url: "https://93.184.216.60/savings", concept: "Savings that grow every month.", brand: "none" });
    const words = JSON.stringify(job.result.storyboard);
    expect(words).not.toMatch(/93\.184|https?:\/\//);
    expect(String(job.result.storyboard.scenes.at(-1).cta ?? "")).not.toBe("");
  });
});
