// Premium buys one more cut per format, and says so: a premium video job makes a second MP4 per format that
// opens on another of the ad's own lines (never a made-up one), at 1080p60 like the main cut, for the
// catalogue's premium price and nothing more; a standard job makes one cut. A failure while rendering the
// alternate cut fails the render step like any render, and the retried step makes both. /config/pricing
// states what each tier buys.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { workflowCost } from "@adgen/schema";
import { createCanvas } from "@napi-rs/canvas";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { createStudioRenderer, locateFfmpeg } from "../src/modules/render/index.ts";
import type { RenderRequest, Storyboard, VideoRenderer } from "../src/modules/render/types.ts";
import { planAlternateCut } from "../src/modules/workflows/pipeline/premium-variant.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { graphql, RestClient } from "./support/clients.ts";
import { probe } from "./support/ffprobe.ts";
import { difference, frameAt } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";
import { settledJob } from "./support/wait-for.ts";

const run = promisify(execFile);

// The real renderer, watched: which cuts it rendered, and (when asked) one alternate cut that fails the way
// ffmpeg fails, to see the render step retried as a whole.
const studio = createStudioRenderer({ threads: 2 });
const rendered: string[] = [];
/** The cuts rendered with a voice-over. */
const voiced: string[] = [];
let failNextAlternate = false;
/** The running job's stored progress (0–100) as each cut began rendering, by file stem. */
const progressAtStart = new Map<string, number>();
const renderer: VideoRenderer = {
  name: "studio-watched",
  async render(request: RenderRequest) {
    rendered.push(request.fileStem);
    if (request.narration) voiced.push(request.fileStem);
    // One worker: the job being processed is the one rendering.
    const running = await app.services.prisma.job.findFirst({ where: { status: "processing" } });
    if (running) progressAtStart.set(request.fileStem, running.progress);
    if (failNextAlternate && request.fileStem.endsWith("-b")) {
      failNextAlternate = false;
      throw new Error("ffmpeg exited with code 1: Conversion failed! (simulated, alternate cut)");
    }
    return studio.render(request);
  },
  previewFrame: (...args) => studio.previewFrame(...args),
};

/** A product photo of one hue, with stripes, so a camera move over it changes the pixels. */
function productPhoto(hue: number): Buffer {
  const canvas = createCanvas(1200, 1200);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = `hsl(${hue}, 70%, 45%)`;
  ctx.fillRect(0, 0, 1200, 1200);
  for (let x = 0; x < 1200; x += 60) {
    ctx.fillStyle = "rgba(255,255,255,0.35)";
    ctx.fillRect(x, 0, 20, 1200);
  }
  return canvas.toBuffer("image/png");
}

// The product page of a narrated ad with pictures: two photos of different colours (the network is closed;
// msw answers behind a fake resolver).
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Brewly Cold Brew</title>
<meta name="description" content="Smooth cold brew concentrate, ready in ten seconds.">
<meta property="og:image" content="https://brewly.example/bottle.png"></head>
<body><h1>Cold brew in ten seconds</h1><img src="/pour.png" width="1200" height="1200" alt=""></body></html>`;
const network = setupServer(
  http.get("https://brewly.example/", () => HttpResponse.html(PAGE)),
  http.get("https://brewly.example/bottle.png", () => new HttpResponse(productPhoto(20), { headers: { "content-type": "image/png" } })),
  http.get("https://brewly.example/pour.png", () => new HttpResponse(productPhoto(200), { headers: { "content-type": "image/png" } })),
);
const resolver: Resolver = async (host) => {
  if (host !== "brewly.example") throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return ["93.184.216.50"];
};

let app: TestApp;
const work = mkdtempSync(join(tmpdir(), "adgen-premium-variant-"));
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "4", JOB_RETRY_LIMIT: "2" }, { renderer, resolver });
});
afterAll(async () => {
  await stopOcr();
  await app?.close();
  network.close();
  rmSync(work, { recursive: true, force: true });
});

// Several true lines (a benefit, a proof), so the ad has a second hook to open on.
const CONCEPT =
  'Brewly cold brew concentrate: smooth coffee in ten seconds. Brewed for 20 hours from single-origin beans. Rated 4.9 by 3,000 customers. CTA: "Get Brewly"';

async function completed(user: Account, body: Record<string, unknown>) {
  const launched = await user.client.post("/workflow", body);
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await settledJob(user.client, launched.body.data.jobId, 240_000);
  expect(job.status, job.error ?? "").toBe("completed");
  return job;
}

async function download(user: Account, url: string, name: string): Promise<string> {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.jwt}` } });
  expect(res.status, url).toBe(200);
  const file = join(work, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** The text on the frame shown at `atSec`, read from a grey copy (tesseract misses type on some colours). */
async function textAt(video: string, atSec: number): Promise<string> {
  const frame = join(work, `${atSec.toFixed(2)}-${Math.random().toString(36).slice(2)}.png`);
  await run(locateFfmpeg(), ["-v", "error", "-ss", atSec.toFixed(3), "-i", video, "-frames:v", "1", "-pix_fmt", "gray", "-y", frame]);
  return normalizeText((await readText(frame)).join(" "));
}

/** Share of a line's longer words that OCR found in `seen`. */
function readShare(line: string, seen: string): number {
  const shown = new Set(seen.split(" "));
  const words = normalizeText(line)
    .split(" ")
    .filter((w) => w.length >= 4);
  return words.filter((w) => shown.has(w)).length / Math.max(1, words.length);
}

const balance = async (user: Account) => (await user.client.get("/user/credits")).body.data.balance as number;

describe("a premium video job", () => {
  let user: Account;
  let job: any;
  let before: number;
  beforeAll(async () => {
    user = await signUp(app, "premium-cut");
    before = await balance(user);
    rendered.length = 0;
    progressAtStart.clear();
    job = await completed(user, { type: "cinematic", concept: CONCEPT, formats: ["9:16"], quality: "premium" });
  }, 300_000);

  it("lists an alternate cut per format after the main one, downloadable with its thumbnail", async () => {
    const assets = job.result.assets as any[];
    const videos = assets.filter((a) => a.type === "video");
    expect(videos.map((a) => [a.format, a.variant ?? null])).toEqual([
      ["9:16", null],
      ["9:16", "B"],
    ]);
    const [main, alternate] = videos;
    expect(job.result.finalVideo).toBe(main.url);
    expect(alternate.url).toMatch(/\/ad-9x16-b\.mp4$/);
    expect(alternate.thumbnail).toMatch(/\/ad-9x16-b\.jpg$/);
    const thumb = await fetch(`${app.url}${new URL(alternate.thumbnail).pathname}`, { headers: { cookie: `session=${user.jwt}` } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    // It opens on one of the ad's own lines, not the directed opening.
    const scenes = job.result.storyboard.scenes as { headline: string; body?: string }[];
    expect(alternate.headline).not.toBe(scenes[0]!.headline);
    const ownLines = scenes.flatMap((s) => [s.headline, s.body].filter(Boolean).map((l) => normalizeText(l!)));
    expect(
      ownLines.some((line) => line.startsWith(normalizeText(alternate.headline))),
      alternate.headline,
    ).toBe(true);
    expect(job.result.warnings ?? []).not.toContainEqual(expect.stringContaining("alternate cut"));
    // Each cut rendered once: the step rendered both.
    expect(rendered).toEqual(["ad-9x16", "ad-9x16-b"]);
  });

  it("renders both cuts at 1080p60, the same length, and the alternate opens differently", { timeout: 120_000 }, async () => {
    const [main, alternate] = (job.result.assets as any[]).filter((a) => a.type === "video");
    const files = [await download(user, main.url, "main.mp4"), await download(user, alternate.url, "alternate.mp4")];
    const [a, b] = [await probe(files[0]!), await probe(files[1]!)];
    for (const info of [a, b]) expect(info).toMatchObject({ videoCodec: "h264", width: 1080, height: 1920, frameRate: "60/1" });
    expect(Math.abs(a.durationSec - b.durationSec)).toBeLessThan(0.1);
    expect(alternate.duration).toBeCloseTo(main.duration, 1);

    // The first second looks different.
    const first = (file: string) => frameAt(file, 0.8, 108, 192);
    expect(difference(await first(files[0]!), await first(files[1]!))).toBeGreaterThan(3);

    // And a viewer reads a different headline on the opening scene (read late in the scene, after its type arrived).
    const scenes = job.result.storyboard.scenes as { durationSec: number; headline: string }[];
    const at = scenes[0]!.durationSec * 0.7;
    const [mainText, alternateText] = [await textAt(files[0]!, at), await textAt(files[1]!, at)];
    expect(readShare(scenes[0]!.headline, mainText), mainText).toBeGreaterThanOrEqual(0.6);
    expect(readShare(alternate.headline, alternateText), alternateText).toBeGreaterThanOrEqual(0.6);
    // (The opening's own headline may still be read on the alternate: a cinematic ad names the product on every scene.)
    expect(readShare(alternate.headline, mainText), mainText).toBeLessThan(0.6);
  });

  it("is the same result over GraphQL, the alternate cut included", async () => {
    const res = await graphql(
      app.url,
      "query($jobId: String!) { workflowJob(jobId: $jobId) { result { assets { url type format variant headline thumbnail } } } }",
      { jobId: job.jobId },
      user.jwt,
    );
    expect(res.body.errors).toBeUndefined();
    const assets = res.body.data.workflowJob.result.assets as any[];
    const rest = (job.result.assets as any[]).map(({ url, type, format, variant, headline, thumbnail }) => ({
      url,
      type,
      format,
      variant: variant ?? null,
      headline: headline ?? null,
      thumbnail,
    }));
    expect(assets).toEqual(rest);
  });

  it("reports the render step's progress across both cuts", () => {
    // The render step is most of the job: the main cut takes its first half, the alternate its second, so the
    // bar is well past the step's start (reported in steps of 10) when the alternate begins, and not done.
    const main = progressAtStart.get("ad-9x16")!;
    const alternate = progressAtStart.get("ad-9x16-b")!;
    expect(alternate - main, JSON.stringify([...progressAtStart])).toBeGreaterThanOrEqual(20);
    expect(alternate - main, JSON.stringify([...progressAtStart])).toBeLessThanOrEqual(55);
  });

  it("costs the catalogue's premium price, nothing more for the extra cut", async () => {
    expect(before - (await balance(user))).toBe(workflowCost("cinematic", "premium"));
  });
});

describe("a premium narrated job without pictures", () => {
  it("keeps its words and voice, and sets its alternate cut in another style", { timeout: 300_000 }, async () => {
    const user = await signUp(app, "premium-narrated");
    await givePresenter(app, user.jwt);
    const before = await balance(user);
    voiced.length = 0;
    const job = await completed(user, { type: "avatar", concept: CONCEPT, formats: ["1:1"], quality: "premium" });
    const [main, alternate] = (job.result.assets as any[]).filter((a) => a.type === "video");
    expect(alternate, JSON.stringify(job.result.warnings)).toMatchObject({ variant: "B", format: "1:1" });
    expect(alternate.headline).toBe(job.result.storyboard.scenes[0].headline);
    expect(voiced).toEqual(["ad-1x1", "ad-1x1-b"]);
    const files = [await download(user, main.url, "narrated-main.mp4"), await download(user, alternate.url, "narrated-b.mp4")];
    for (const file of files) expect(await probe(file)).toMatchObject({ width: 1080, height: 1080, frameRate: "60/1" });
    // Another page under the same words: the two cuts look different from the first second.
    const at = job.result.storyboard.scenes[0].durationSec * 0.6;
    expect(difference(await frameAt(files[0]!, at, 108, 108), await frameAt(files[1]!, at, 108, 108))).toBeGreaterThan(12);
    expect(before - (await balance(user))).toBe(workflowCost("avatar", "premium"));
  });
});

describe("a premium narrated job with pictures", () => {
  it("keeps its words and voice-over, and opens the alternate cut on another picture", { timeout: 300_000 }, async () => {
    const user = await signUp(app, "premium-narrated-pictures");
    await givePresenter(app, user.jwt);
    voiced.length = 0;
    const job = await completed(user, {
      type: "avatar",
      url: "https://brewly.example/",
      concept: CONCEPT,
      formats: ["1:1"],
      quality: "premium",
    });
    const [main, alternate] = (job.result.assets as any[]).filter((a) => a.type === "video");
    expect(alternate, JSON.stringify(job.result.warnings)).toMatchObject({ variant: "B", format: "1:1" });
    // The voice-over speaks the opening as directed, so the cut opens on the same words.
    expect(alternate.headline).toBe(job.result.storyboard.scenes[0].headline);
    expect(voiced).toEqual(["ad-1x1", "ad-1x1-b"]);
    const files = [await download(user, main.url, "pictured-main.mp4"), await download(user, alternate.url, "pictured-b.mp4")];
    const [a, b] = [await probe(files[0]!), await probe(files[1]!)];
    for (const info of [a, b]) expect(info).toMatchObject({ width: 1080, height: 1080, frameRate: "60/1" });
    expect(Math.abs(a.durationSec - b.durationSec)).toBeLessThan(0.1);
    // The two cuts differ on screen where the picture shows. With a presenter (this type now needs one), the
    // presenter's own frames are alike in both cuts, so the comparison runs over the whole ad.
    const differences: number[] = [];
    for (const share of [0.1, 0.25, 0.4, 0.55, 0.7, 0.85]) {
      const at = a.durationSec * share;
      differences.push(Math.round(difference(await frameAt(files[0]!, at, 108, 108), await frameAt(files[1]!, at, 108, 108))));
    }
    expect(Math.max(...differences), `frame differences ${differences.join(", ")}`).toBeGreaterThan(3);
  });
});

describe("a standard video job", () => {
  it("makes one cut per format", { timeout: 240_000 }, async () => {
    const user = await signUp(app, "standard-cut");
    const before = await balance(user);
    rendered.length = 0;
    const job = await completed(user, { type: "cinematic", concept: CONCEPT, formats: ["9:16"], quality: "standard" });
    const videos = (job.result.assets as any[]).filter((a) => a.type === "video");
    expect(videos).toHaveLength(1);
    expect(videos[0].variant).toBeUndefined();
    expect(rendered).toEqual(["ad-9x16"]);
    expect(before - (await balance(user))).toBe(workflowCost("cinematic", "standard"));
  });
});

describe("a failure while rendering the alternate cut", () => {
  it("fails the render step like any render; the retried step makes both cuts", { timeout: 300_000 }, async () => {
    const user = await signUp(app, "premium-retry");
    const before = await balance(user);
    rendered.length = 0;
    failNextAlternate = true;
    const job = await completed(user, { type: "cinematic", concept: CONCEPT, formats: ["9:16"], quality: "premium" });
    // The first attempt rendered the main cut, failed on the alternate and stored nothing as done; the retry
    // rendered the step again from the start.
    expect(rendered).toEqual(["ad-9x16", "ad-9x16-b", "ad-9x16", "ad-9x16-b"]);
    const videos = (job.result.assets as any[]).filter((a) => a.type === "video");
    expect(videos.map((a) => a.variant ?? null)).toEqual([null, "B"]);
    for (const [i, video] of videos.entries()) {
      expect((await probe(await download(user, video.url, `retry-${i}.mp4`))).height).toBe(1920);
    }
    expect(before - (await balance(user))).toBe(workflowCost("cinematic", "premium"));
  });
});

describe("GET /config/pricing", () => {
  it("says what each tier buys a video job and an image job", async () => {
    const tiers = (await new RestClient(app.url).get("/config/pricing")).body.data.qualityTiers as any[];
    const byId = Object.fromEntries(tiers.map((t) => [t.id, t]));
    expect(byId.standard.summary).toBe("720p at 30 fps, one cut per format");
    expect(byId.premium.summary).toBe("1080p at 60 fps, smoother motion, and one more cut per format (a second hook)");
    expect(byId.standard.imageSummary).toBe("one still per format");
    expect(byId.premium.imageSummary).toContain("one more still");
    // The full descriptions stay, and say the same.
    expect(byId.standard.description).toContain("one cut per format");
    expect(byId.premium.description).toContain("one more cut per format");
    expect(byId.premium.description).toContain("no extra charge");
  });
});

describe("planning the alternate cut", () => {
  const brand = { name: "Brewly", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" };
  const scene = (id: string, headline: string, extra: Partial<Storyboard["scenes"][number]> = {}) => ({
    id,
    durationSec: 1,
    headline,
    background: "#1d3557",
    accent: "#e63946",
    transition: "fade" as const,
    ...extra,
  });

  it("makes no cut, and says why, when the ad has no second line of its own", () => {
    const plan = planAlternateCut({ title: "t", brand, scenes: [scene("a", "Cold brew in ten seconds"), scene("b", "Get Brewly")] }, false);
    expect(plan).toEqual({ warning: expect.stringContaining("no second line to open on") });
  });

  it("opens on the strongest benefit (a body line) when there is no second headline", () => {
    const plan = planAlternateCut(
      {
        title: "t",
        brand,
        scenes: [scene("a", "Cold brew in ten seconds", { body: "Brewed for 20 hours" }), scene("b", "Get Brewly")],
      },
      false,
    );
    expect("cut" in plan && plan.cut.hook).toBe("Brewed for 20 hours");
    expect("cut" in plan && plan.cut.storyboard.scenes[0]!.body).toBeUndefined();
  });

  it("keeps a narrated ad's words and opens it on another picture with another camera move", () => {
    const storyboard: Storyboard = {
      title: "t",
      brand,
      scenes: [
        scene("a", "Hi, I'm Sam", { imageKey: "one.png", motion: "push-in" }),
        scene("b", "It brews in ten seconds", { imageKey: "two.png", motion: "pan-left" }),
        scene("c", "Get Brewly"),
      ],
    };
    const plan = planAlternateCut(storyboard, true);
    if (!("cut" in plan)) throw new Error(plan.warning);
    const [opening, second] = plan.cut.storyboard.scenes;
    expect(plan.cut.storyboard.scenes.map((s) => s.headline)).toEqual(storyboard.scenes.map((s) => s.headline));
    expect(opening).toMatchObject({ imageKey: "two.png", motion: "pull-out" });
    expect(second).toMatchObject({ imageKey: "one.png", motion: "pan-left" });
    // Its own picture alone: the same picture, another camera move.
    const one = planAlternateCut(
      { ...storyboard, scenes: storyboard.scenes.map((s, i) => (i === 0 ? s : { ...s, imageKey: undefined })) },
      true,
    );
    expect("cut" in one && one.cut.storyboard.scenes[0]).toMatchObject({ imageKey: "one.png", motion: "pull-out" });
    // No picture at all: the same words in another style.
    const plain = storyboard.scenes.map(({ imageKey: _, ...s }) => s);
    const restyled = planAlternateCut({ ...storyboard, style: "presenter", scenes: plain }, true);
    expect("cut" in restyled && restyled.cut.storyboard.style).toBe("cinematic");
    expect("cut" in restyled && restyled.cut.storyboard.scenes.map((s) => s.headline)).toEqual(storyboard.scenes.map((s) => s.headline));
  });

  it("gives an unnarrated ad without pictures another scene's colours as well as another line", () => {
    const plan = planAlternateCut(
      {
        title: "t",
        brand,
        scenes: [
          scene("a", "Cold brew in ten seconds"),
          { ...scene("b", "Brewed for 20 hours"), background: "#f1faee" },
          scene("c", "Get Brewly"),
        ],
      },
      false,
    );
    if (!("cut" in plan)) throw new Error(plan.warning);
    expect(plan.cut.storyboard.scenes.map((s) => [s.headline, s.background])).toEqual([
      ["Brewed for 20 hours", "#f1faee"],
      ["Cold brew in ten seconds", "#1d3557"],
      ["Get Brewly", "#1d3557"],
    ]);
  });
});
