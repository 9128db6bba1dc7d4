// Four workflow types make what they promise.
// - cinematic (Director): a shot list (camera, lens, lighting, move) with one shot per scene, and the
//   move visible in the video: the picture moves within a scene.
// - clone (Inspiration): the reference page (served by msw behind a fake resolver; the network is closed)
//   analysed into hook, beats, pacing, on-screen text and call to action; the new ad has the reference's
//   beats in order, in the user's words. An unreadable reference still gives an ad, with a warning.
// - ad-optimizer: only the caller's own completed project (404 / 400 before any charge); the improved ad
//   says what changed, from what, and why.
// - factory (Multi-Format): two hook variants in each format (three with premium), videos at each format's
//   size, or PNGs only with imagesOnly.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCanvas } from "@napi-rs/canvas";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);

const DNS: Record<string, string[]> = {
  "brewly.example": ["93.184.216.50"],
  "zipline.example": ["93.184.216.51"],
  "gone.example": ["93.184.216.52"],
};
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

/** A product photo with detail everywhere (stripes and a grid), so any camera move changes the pixels. */
function productPhoto(hue: number): Buffer {
  const canvas = createCanvas(1600, 1200);
  const ctx = canvas.getContext("2d");
  const gradient = ctx.createLinearGradient(0, 0, 1600, 1200);
  gradient.addColorStop(0, `hsl(${hue}, 70%, 35%)`);
  gradient.addColorStop(1, `hsl(${(hue + 90) % 360}, 70%, 65%)`);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, 1600, 1200);
  for (let x = 0; x < 1600; x += 40) {
    ctx.fillStyle = x % 80 === 0 ? "rgba(255,255,255,0.35)" : "rgba(0,0,0,0.25)";
    ctx.fillRect(x, 0, 14, 1200);
  }
  for (let y = 0; y < 1200; y += 60) {
    ctx.fillStyle = "rgba(255,255,255,0.2)";
    ctx.fillRect(0, y, 1600, 6);
  }
  return canvas.toBuffer("image/png");
}

// The user's product page: a title, a description with a benefit and proof, and two large pictures.
const PRODUCT_PAGE = `<!doctype html><html lang="en"><head>
<meta charset="utf-8">
<title>Brewly Cold Brew</title>
<meta name="description" content="Smooth cold brew concentrate, ready in ten seconds. Rated 4.9 by 3,000 customers.">
<meta property="og:image" content="https://brewly.example/bottle.png">
</head><body>
<h1>Cold brew in ten seconds</h1>
<img src="/pour.png" width="1600" height="1200" alt="">
</body></html>`;

// The reference ad someone admires: a hook, a problem, proof and a call to action, plus navigation and a
// footer that are not part of the message.
const REFERENCE_PAGE = `<!doctype html><html lang="en"><head>
<meta charset="utf-8">
<title>Zipline Espresso — mornings, faster</title>
<meta name="description" content="Zipline delivers espresso pods to your door.">
</head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></nav>
<section class="hero">
  <h1>Mornings are too short for bad espresso</h1>
  <p>Zipline pods brew a barista-grade shot in thirty seconds.</p>
</section>
<section>
  <h2>Tired of queueing at the café every morning?</h2>
  <p>Skip the line and the price tag.</p>
</section>
<section>
  <h2>Rated 4.8 stars by 20,000 commuters</h2>
  <p>Independent reviews, every month since 2019.</p>
</section>
<section>
  <h2>Your first box ships today</h2>
  <a class="button" href="/signup">Start your free trial</a>
</section>
<footer><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></footer>
</body></html>`;

const network = setupServer(
  http.get("https://brewly.example/", () => HttpResponse.html(PRODUCT_PAGE)),
  http.get("https://brewly.example/bottle.png", () => new HttpResponse(productPhoto(20), { headers: { "content-type": "image/png" } })),
  http.get("https://brewly.example/pour.png", () => new HttpResponse(productPhoto(200), { headers: { "content-type": "image/png" } })),
  http.get("https://zipline.example/", () => HttpResponse.html(REFERENCE_PAGE)),
  http.get("https://gone.example/", () => new HttpResponse("down for maintenance", { status: 503 })),
);

const BREWLY =
  'Brewly cold brew concentrate: smooth coffee in ten seconds. Brewed for 20 hours from single-origin beans. CTA: "Get Brewly"';

let app: TestApp;
let dir: string;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  // Four seconds: long enough for a scene's camera move to be measured, short enough to render quickly.
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "4" }, { resolver });
  dir = mkdtempSync(join(tmpdir(), "adgen-types-dcof-"));
});
afterAll(async () => {
  await app?.close();
  network.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function waitForJob(user: Account, jobId: string, until: string[] = ["completed", "failed"], timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (until.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function launch(user: Account, body: Record<string, unknown>) {
  const launched = await user.client.post("/workflow", body);
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  return launched.body.data.jobId as string;
}

async function completed(user: Account, body: Record<string, unknown>) {
  const job = await waitForJob(user, await launch(user, body));
  expect(job.status, job.error).toBe("completed");
  return job;
}

const balanceOf = async (user: Account) => (await user.client.get("/user/credits")).body.data.balance as number;

/** Downloads a job's media file (GET /api/media/...) as its owner. */
async function download(user: Account, url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

async function saveVideo(user: Account, url: string, name: string) {
  const file = await download(user, url);
  expect(file.status).toBe(200);
  expect(file.type).toBe("video/mp4");
  const path = join(dir, name);
  writeFileSync(path, file.body);
  return path;
}

/** One frame at `t` seconds, scaled to 108 px wide, as raw RGB bytes. */
async function frameAt(path: string, t: number): Promise<{ width: number; height: number; rgb: Buffer }> {
  const { stdout } = await run(
    locateFfmpeg(),
    [
      "-loglevel",
      "error",
      "-ss",
      t.toFixed(3),
      "-i",
      path,
      "-frames:v",
      "1",
      "-vf",
      "scale=108:192",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 },
  );
  return { width: 108, height: 192, rgb: stdout };
}

/** Mean absolute difference (0–255) of two frames over rows [from, to) (fractions of the height). */
function difference(a: { width: number; height: number; rgb: Buffer }, b: { rgb: Buffer }, from: number, to: number): number {
  const start = Math.floor(a.height * from) * a.width * 3;
  const end = Math.floor(a.height * to) * a.width * 3;
  let sum = 0;
  for (let i = start; i < end; i++) sum += Math.abs(a.rgb[i]! - b.rgb[i]!);
  return sum / (end - start);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIZES: Record<string, [number, number]> = { "9:16": [1080, 1920], "1:1": [1080, 1080], "16:9": [1920, 1080], "4:5": [1080, 1350] };
/** A standard video's size: 720p (stills are drawn at the format's full size, SIZES). */
const STANDARD_VIDEO: Record<string, [number, number]> = { "9:16": [720, 1280], "1:1": [720, 720], "16:9": [1280, 720], "4:5": [720, 900] };

describe("cinematic (Director)", () => {
  let user: Account;
  let job: any;
  beforeAll(async () => {
    user = await signUp(app, "director");
    job = await completed(user, { type: "cinematic", url: "https://brewly.example/", concept: BREWLY, adPreset: "luxury" });
  }, 180_000);

  it("has a shot list with one shot per scene: camera, lens, lighting, move and the scene's provider prompt", () => {
    const scenes = job.result.storyboard.scenes as any[];
    const shots = job.result.shotList as any[];
    expect(shots.map((s) => s.sceneId)).toEqual(scenes.map((s) => s.id));
    for (const shot of shots) {
      for (const field of ["camera", "lens", "lighting", "motion", "prompt"]) expect(shot[field], field).toMatch(/\S/);
      expect(shot.lens).toMatch(/^\d+mm f\/\d/);
      // The prompt is the prompt builder's: it states the camera and the lighting.
      expect(shot.prompt).toMatch(/Camera: .*\d+mm/);
      expect(shot.prompt).toContain(`Lighting: ${shot.lighting}`);
    }
    // Coverage follows the story: the opening and the close are not shot alike.
    expect(new Set(shots.map((s) => `${s.camera} ${s.lens}`)).size).toBeGreaterThan(1);
    // Each scene carries its shot's move for the renderer, and no two scenes in a row make the same move.
    const moves = scenes.map((s) => s.motion);
    for (const move of moves) expect(["push-in", "pull-out", "pan-left", "pan-right", "pan-up", "pan-down"]).toContain(move);
    for (let i = 1; i < moves.length; i++) expect(moves[i]).not.toBe(moves[i - 1]);
    const said: Record<string, RegExp> = {
      "push-in": /push-in/i,
      "pull-out": /pull-out/i,
      "pan-left": /pan left/i,
      "pan-right": /pan right/i,
    };
    for (const [i, move] of moves.entries()) expect(shots[i].motion).toMatch(said[move] ?? /tilt/i);
  });

  it("renders the move: within a scene with a picture, the picture moves", { timeout: 60_000 }, async () => {
    const path = await saveVideo(user, job.result.finalVideo, "cinematic.mp4");
    const info = await probe(path);
    expect([info.width, info.height]).toEqual(STANDARD_VIDEO["9:16"]);
    const scenes = job.result.storyboard.scenes as any[];
    // The first scene with a picture after the opening (whose fade from black would change the frame
    // anyway): once the transition into it is over (it takes at most 0.3 of the scene) and before the
    // next, in the band above the text's safe area, where only the picture is.
    const index = scenes.findIndex((s, i) => i > 0 && s.imageKey);
    expect(index, "a scene after the opening shows a picture").toBeGreaterThan(0);
    const start = scenes.slice(0, index).reduce((sum, s) => sum + s.durationSec, 0);
    const length = scenes[index].durationSec;
    const early = await frameAt(path, start + length * 0.45);
    const late = await frameAt(path, start + length * 0.9);
    expect(difference(early, late, 0.02, 0.12)).toBeGreaterThan(1.5);
  });
});

describe("clone (Inspiration)", () => {
  let user: Account;
  beforeAll(async () => {
    user = await signUp(app, "inspiration");
  });

  it("analyses the reference and follows its structure in the user's own words", { timeout: 180_000 }, async () => {
    const job = await completed(user, { type: "clone", url: "https://zipline.example/", concept: BREWLY });
    const analysis = job.result.analysis;
    expect(analysis).toMatchObject({
      url: "https://zipline.example/",
      readable: true,
      hook: "Mornings are too short for bad espresso",
      callToAction: "Start your free trial",
    });
    expect(analysis.beats.map((b: any) => b.role)).toEqual(["hook", "problem", "proof", "call-to-action"]);
    expect(analysis.beats[2].text).toBe("Rated 4.8 stars by 20,000 commuters");
    expect(analysis.onScreenText).toEqual(
      expect.arrayContaining(["Tired of queueing at the café every morning?", "Start your free trial"]),
    );
    // Navigation and footer links are not the message.
    expect(analysis.onScreenText).not.toContain("Log in");
    expect(["fast", "medium", "slow"]).toContain(analysis.pacing.label);
    expect(analysis.pacing.secondsPerBeat).toBeGreaterThan(0);

    // The new ad: as many scenes as the reference has beats, in the same roles and order, ending on the
    // user's call to action, timed by the reference's pacing (within the longest ad allowed here).
    const scenes = job.result.storyboard.scenes as any[];
    expect(scenes).toHaveLength(analysis.beats.length);
    expect(scenes.map((s) => s.id.replace(/^scene-\d+-/, ""))).toEqual(analysis.beats.map((b: any) => b.role));
    expect(scenes.at(-1).cta).toBe("Get Brewly");
    expect(new Set(scenes.map((s) => s.headline)).size, "every beat says something of its own").toBe(scenes.length);
    const per = Math.min(analysis.pacing.secondsPerBeat, 4 / scenes.length);
    for (const scene of scenes) expect(scene.durationSec).toBeCloseTo(per, 1);
    // The user's brand and words, not the reference's.
    const text = JSON.stringify(scenes.map((s) => [s.headline, s.body, s.cta]));
    expect(text).toMatch(/Brewly/);
    expect(text).not.toMatch(/Zipline|espresso|commuters|free trial/i);
    expect(job.result.storyboard.brand.name).toMatch(/Brewly/);

    const path = await saveVideo(user, job.result.finalVideo, "clone.mp4");
    const info = await probe(path);
    expect(info.videoCodec).toBe("h264");
    expect(info.durationSec).toBeGreaterThan(1);
  });

  it("refuses a reference that cannot be read before charging: no ad is cloned from a page never read", async () => {
    const before = await balanceOf(user);
    const res = await user.client.post("/workflow", { type: "clone", url: "https://gone.example/", concept: BREWLY });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(/^We could not read https:\/\/gone\.example\/ \(the site answered 503\)\. Check the address/);
    expect(await balanceOf(user)).toBe(before);
  });
});

describe("ad-optimizer", () => {
  let owner: Account;
  let other: Account;
  let source: any;
  let optimized: any;
  beforeAll(async () => {
    owner = await signUp(app, "optimizer");
    other = await signUp(app, "stranger");
  });

  it("answers 400 without a project when the account has no completed project, charging nothing", async () => {
    const before = await balanceOf(owner);
    const res = await owner.client.post("/workflow", { type: "ad-optimizer" });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(/^ad-optimizer needs a project: /);
    expect(await balanceOf(owner)).toBe(before);
  });

  it("answers 404 for another account's project or an unknown one, and 400 for one not completed, charging nothing", {
    timeout: 60_000,
  }, async () => {
    // The other account's project waits for its review (no render needed).
    const theirs = await launch(other, { type: "painpoint", concept: BREWLY, hitl: true });
    await waitForJob(other, theirs, ["awaiting_review"]);
    const mine = await launch(owner, { type: "painpoint", concept: BREWLY, hitl: true });
    await waitForJob(owner, mine, ["awaiting_review"]);

    const before = await balanceOf(owner);
    const foreign = await owner.client.post("/workflow", { type: "ad-optimizer", project: theirs });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
    expect(foreign.body.error).toBe("Project not found");
    const unknown = await owner.client.post("/workflow", { type: "ad-optimizer", project: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(404);
    const waiting = await owner.client.post("/workflow", { type: "ad-optimizer", project: mine });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(400);
    expect(waiting.body.error).toMatch(/awaiting_review.*completed project/);
    // project belongs to the optimizer only.
    const misplaced = await owner.client.post("/workflow", { type: "cinematic", concept: BREWLY, project: mine });
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.error).toMatch(/^Only the ad optimizer improves an existing project/);
    expect(await balanceOf(owner)).toBe(before);

    // Nothing more is needed of them.
    for (const [account, jobId] of [
      [owner, mine],
      [other, theirs],
    ] as const) {
      expect((await account.client.post("/workflow/cancel", { jobId })).status).toBe(200);
    }
  });

  it("improves the named project and says what changed, from what, and why", { timeout: 240_000 }, async () => {
    // A source ad rated down with feedback about its text.
    source = await completed(owner, { type: "cinematic", concept: BREWLY });
    const rated = await owner.client.post("/workflow/review", {
      projectId: source.jobId,
      rating: "down",
      feedback: "Too much text to read",
    });
    expect(rated.status).toBe(200);

    const before = await balanceOf(owner);
    const job = await completed(owner, { type: "ad-optimizer", project: source.jobId });
    optimized = job;
    expect(await balanceOf(owner)).toBe(before - job.creditsUsed);
    const optimization = job.result.optimization;
    expect(optimization).toMatchObject({
      sourceProjectId: source.jobId,
      performance: { ratingsUp: 0, ratingsDown: 1, feedback: ["Too much text to read"] },
    });
    expect(optimization.scoreBefore).toBe(source.result.creativeScore.score);
    expect(optimization.scoreAfter).toBe(job.result.creativeScore.score);
    expect(optimization.scoreAfter).toBeGreaterThanOrEqual(optimization.scoreBefore);
    expect(optimization.changes.length).toBeGreaterThan(0);
    for (const change of optimization.changes) {
      expect(change.area).toMatch(/\S/);
      expect(change.after).toMatch(/\S/);
      expect(change.why).toMatch(/\S/);
    }
    // The feedback was about text: the scenes that carried a second line lose it, and the change says so.
    const density = optimization.changes.filter((c: any) => c.area === "text-density");
    expect(density.length).toBeGreaterThan(0);
    expect(density[0].why).toContain('You said: "Too much text to read"');
    const sourceScenes = source.result.storyboard.scenes as any[];
    const scenes = job.result.storyboard.scenes as any[];
    expect(scenes.filter((s) => s.body).length).toBeLessThan(sourceScenes.filter((s) => s.body).length);
    // Never more scenes than the source, the same opening (the pacing rule itself: optimize-pacing.test.ts).
    expect(scenes.length).toBeLessThanOrEqual(sourceScenes.length);
    expect(scenes[0].id).toBe(sourceScenes[0].id);
    expect(scenes[0].headline, "the opening says something the closing does not").not.toBe(scenes.at(-1).headline);
    expect(scenes.at(-1).cta).toBe("Get Brewly");
    expect(job.result.finalVideo).toMatch(/\.mp4$/);
  });

  it("without a project, improves the account's latest completed project", { timeout: 60_000 }, async () => {
    const jobId = await launch(owner, { type: "ad-optimizer", hitl: true });
    const waiting = await waitForJob(owner, jobId, ["awaiting_review", "failed"]);
    expect(waiting.status, waiting.error).toBe("awaiting_review");
    // The latest completed project is the improved ad of the test before.
    expect(waiting.input.project).toBe(optimized.jobId);
    expect((await owner.client.get("/user/projects")).body.data.find((p: any) => p.status === "completed").id).toBe(optimized.jobId);
    expect((await owner.client.post("/workflow/cancel", { jobId })).status).toBe(200);
  });
});

describe("factory (Multi-Format)", () => {
  let user: Account;
  beforeAll(async () => {
    user = await signUp(app, "factory");
  });

  it("makes two hook variants in each format as one batch, each at its format's size", { timeout: 240_000 }, async () => {
    const job = await completed(user, { type: "factory", url: "https://brewly.example/", concept: BREWLY, formats: ["9:16", "1:1"] });
    const variants = job.result.variants as any[];
    expect(variants.map((v) => [v.format, v.variant])).toEqual([
      ["9:16", "A"],
      ["9:16", "B"],
      ["1:1", "A"],
      ["1:1", "B"],
    ]);
    for (const format of ["9:16", "1:1"]) {
      const hooks = variants.filter((v) => v.format === format).map((v) => v.hook);
      expect(new Set(hooks).size, `${format} variants open differently`).toBe(2);
    }
    // The directed opening is variant A.
    expect(variants[0].hook).toBe(job.result.storyboard.scenes[0].headline);
    // assets[i] is format i's first variant; the other variants follow.
    const assets = job.result.assets as any[];
    expect(assets.map((a) => [a.format, a.variant])).toEqual([
      ["9:16", "A"],
      ["1:1", "A"],
      ["9:16", "B"],
      ["1:1", "B"],
    ]);
    expect(job.result.finalVideo).toBe(assets[0].url);
    expect(new Set(assets.map((a) => a.url)).size).toBe(4);
    for (const asset of assets) {
      expect(asset.type).toBe("video");
      const info = await probe(await saveVideo(user, asset.url, `factory-${asset.format.replace(":", "x")}-${asset.variant}.mp4`));
      expect(info.videoCodec).toBe("h264");
      expect([info.width, info.height]).toEqual(STANDARD_VIDEO[asset.format]);
      expect(info.durationSec).toBeGreaterThan(1);
    }
  });

  it("with imagesOnly makes one PNG per variant and no video; premium makes three variants", { timeout: 120_000 }, async () => {
    // Premium (5 credits) on an account of its own: the signup credits pay for one batch of each.
    const premiumUser = await signUp(app, "factory-premium");
    for (const quality of ["standard", "premium"] as const) {
      const owner = quality === "premium" ? premiumUser : user;
      const job = await completed(owner, {
        type: "factory",
        url: "https://brewly.example/",
        concept: BREWLY,
        formats: ["16:9", "4:5"],
        imagesOnly: true,
        quality,
      });
      const perFormat = quality === "premium" ? 3 : 2;
      const stills = new Map<string, string>();
      expect(job.result.finalVideo).toBeNull();
      const assets = job.result.assets as any[];
      expect(assets).toHaveLength(2 * perFormat);
      expect(job.result.variants).toHaveLength(2 * perFormat);
      const pictures = new Set<string>();
      for (const asset of assets) {
        expect(asset.type).toBe("image");
        const file = await download(owner, asset.url);
        expect(file.status).toBe(200);
        expect(file.type).toBe("image/png");
        expect(file.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        expect([file.body.readUInt32BE(16), file.body.readUInt32BE(20)]).toEqual(SIZES[asset.format]);
        pictures.add(file.body.toString("base64"));
        const saved = join(dir, `factory-${quality}-${asset.format.replace(":", "x")}-${asset.variant}.png`);
        writeFileSync(saved, file.body);
        stills.set(`${asset.format}-${asset.variant}`, saved);
      }
      expect(pictures.size, "every variant is a different picture").toBe(assets.length);
      // Variants differ in layout, not only in their first line: the whole frame changes.
      for (const format of ["16:9", "4:5"]) {
        const a = await frameAt(stills.get(`${format}-A`)!, 0);
        const b = await frameAt(stills.get(`${format}-B`)!, 0);
        expect(difference(a, b, 0, 1), `${quality} ${format}: variant B is laid out differently from A`).toBeGreaterThan(12);
      }
      const files = readdirSync(join(app.config.dataDir, "media", "jobs", job.jobId));
      expect(files.filter((f) => f.endsWith(".mp4"))).toEqual([]);
    }
  });
});
