// The studio's ads show real pictures: the product page's og:image (fetched safely, checked by its bytes),
// with the camera moving over it, and the brand's logo on the closing scene. A picture that cannot be used
// is named in the result's warnings. The preset visibly and audibly changes the ad made from the same copy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { difference, frameAt, isBlue, isGreen, isMagenta, PICTURE_BAND, share, writeTestPictures } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const resolver: Resolver = async (host) => {
  if (host === "shop.example") return ["93.184.216.50"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

const PAGE = `<!doctype html><html><head>
<title>Acme Sleep — the cooling mattress</title>
<meta property="og:image" content="https://shop.example/hero.jpg">
<meta name="description" content="A cooling mattress that helps you sleep deeper.">
</head><body><h1>Sleep deeper tonight</h1>
<img src="/broken.jpg" width="800" height="600" alt="">
</body></html>`;

let hero: Buffer;
let logo: Buffer;
const network = setupServer(
  http.get("https://shop.example/mattress", () => HttpResponse.html(PAGE)),
  http.get("https://shop.example/hero.jpg", () => new HttpResponse(hero, { headers: { "content-type": "image/jpeg" } })),
  // Says it is a JPEG; it is an HTML error page.
  http.get(
    "https://shop.example/broken.jpg",
    () => new HttpResponse("<html>not found</html>", { headers: { "content-type": "image/jpeg" } }),
  ),
  http.get("https://shop.example/logo.png", () => new HttpResponse(logo, { headers: { "content-type": "image/png" } })),
);

let app: TestApp;
let user: Account;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-imagery-"));
  const written = await writeTestPictures(dir);
  hero = readFileSync(written.picture);
  logo = readFileSync(written.logo);
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "6" }, { resolver });
  user = await signUp(app, "imagery");
  const saved = await user.client.post("/user/brand", { name: "Acme Sleep", logoUrl: "https://shop.example/logo.png" });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});
afterAll(async () => {
  await app?.close();
  network.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function waitForJob(jobId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function videoOf(job: any): Promise<string> {
  const res = await fetch(`${app.url}${new URL(job.result.finalVideo).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
  expect(res.status).toBe(200);
  const file = join(dir, `${job.jobId}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const green = isGreen;
const magenta = isMagenta;
const blue = isBlue;

async function launch(adPreset: string) {
  const launched = await user.client.post("/workflow", {
    type: "painpoint",
    url: "https://shop.example/mattress",
    concept: "Acme Sleep: the cooling mattress for hot sleepers. 'Sleep cool or your money back.'",
    adPreset,
    formats: ["9:16"],
  });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await waitForJob(launched.body.data.jobId);
  expect(job.status, job.error).toBe("completed");
  return job;
}

describe("pictures in the ad", () => {
  let bold: any;
  let boldFile: string;
  it("shows the page's picture with motion and closes on the brand's logo; an unusable picture is a warning", {
    timeout: 180_000,
  }, async () => {
    bold = await launch("bold");
    const storyboard = bold.result.storyboard;
    expect(storyboard.scenes[0].imageKey).toMatch(/picture-1\.jpg$/);
    expect(storyboard.scenes[0].motion).toMatch(/^pan-/);
    expect(storyboard.brand.logoKey).toMatch(/logo\.png$/);
    expect(bold.result.warnings.join("\n")).toMatch(/broken\.jpg could not be used: it is not a PNG, JPEG or WebP image/);

    boldFile = await videoOf(bold);
    // The problem opens in grey; the solution after it shows the picture in colour, in the frame's lower part
    // under its copy, with the camera moving over it.
    const problem = storyboard.scenes[0].durationSec as number;
    const solution = storyboard.scenes[1].durationSec as number;
    const zone = { x: 0, y: 0.55, w: 1, h: 0.35 };
    const a = await frameAt(boldFile, problem + 0.6, 108, 192);
    const b = await frameAt(boldFile, problem + solution - 0.4, 108, 192);
    expect(share(a, green, zone) + share(a, magenta, zone)).toBeGreaterThan(0.6);
    // A held picture differs by well under 1 between two frames; the camera's move over the two flat halves, by 3 to 6.
    expect(difference(a, b, zone), "the camera moves over the picture").toBeGreaterThan(2);
    const grey = await frameAt(boldFile, problem / 2, 108, 192);
    expect(share(grey, green) + share(grey, magenta), "the problem is shown without colour").toBeLessThan(0.01);
    const closing = await frameAt(boldFile, 5.6, 108, 192);
    expect(share(closing, blue), "the logo is on the closing scene").toBeGreaterThan(0.005);
  });

  it("looks different with another preset, and its music has another mood", { timeout: 180_000 }, async () => {
    const minimal = await launch("minimal");
    expect(minimal.result.storyboard.mood).toBe("calm");
    expect(bold.result.storyboard.mood).toBe("energetic");
    expect(minimal.result.storyboard.scenes[1].textMotion).toBe("fade");
    expect(bold.result.storyboard.scenes[1].textMotion).toBe("rise");
    const file = await videoOf(minimal);
    // Same copy and picture; the camera and the type move differently.
    // Sampled as each scene's type arrives (after the 0.5 s transition into it): it rises into place in one, it
    // fades in in the other.
    const scenes = minimal.result.storyboard.scenes as { durationSec: number }[];
    const times: number[] = [];
    let start = 0;
    for (const scene of scenes) {
      if (start > 0) times.push(start + 0.6, start + 0.7);
      start += scene.durationSec;
    }
    let differs = 0;
    for (const t of times) {
      if (difference(await frameAt(file, t, 108, 192), await frameAt(boldFile, t, 108, 192)) > 3) differs++;
    }
    expect(differs).toBeGreaterThanOrEqual(2);
  });

  it("puts the picture and the logo into static ads too", { timeout: 120_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "staticad",
      url: "https://shop.example/mattress",
      concept: "Acme Sleep: the cooling mattress for hot sleepers",
      formats: ["1:1"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    const spotlight = job.result.assets.find((a: any) => a.layout === "spotlight");
    const res = await fetch(`${app.url}${new URL(spotlight.url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
    const file = join(dir, "static.png");
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const still = await frameAt(file, 0, 108, 108);
    // The picture's own colours cover a quarter of the frame: the product sits in its own zone beside the copy
    // (static-ad.ts keeps text off it), not under the whole frame.
    expect(share(still, (r, g, b) => g > r + 30 && g > b + 10) + share(still, (r, g, b) => r > g + 30 && b > g + 30)).toBeGreaterThan(0.25);
    expect(share(still, blue), "the logo").toBeGreaterThan(0.003);
  });

  it("uses the photos the user uploaded to the brand library, even for an ad without a page", { timeout: 120_000 }, async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(hero)], { type: "image/jpeg" }), "product.jpg");
    const uploaded = await fetch(`${app.url}/api/user/brand/media`, {
      method: "POST",
      headers: { cookie: `session=${user.client.cookie}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      concept: "Acme Sleep: the cooling mattress for hot sleepers",
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    // Copied among the job's media, so the job keeps its picture whatever happens to the library.
    expect(job.result.storyboard.scenes[0].imageKey).toBe(`jobs/${job.jobId}/picture-1.jpg`);
    const file = await videoOf(job);
    const frame = await frameAt(file, 0.8, 108, 192);
    expect(share(frame, green, PICTURE_BAND) + share(frame, magenta, PICTURE_BAND)).toBeGreaterThan(0.5);
  });
});
