// Free storyboard previews (POST /api/workflow/preview): nothing is charged; the stills are the renderer's
// and match the rendered video's frames (SSIM, OCR); a changed line or picture previews again; a launch naming the
// preview renders that storyboard; another account's preview is a 404; previews have their own rate limit.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import { expirePreviews, PREVIEW_TTL_MS } from "../src/modules/workflows/preview/preview-media.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { givePresenter } from "./support/presenter.ts";
import { normalizeText, readText, stopOcr } from "./support/ocr.ts";

const run = promisify(execFile);
const BODY = { type: "painpoint", concept: "Backpacks that never tear: waterproof, ten-year warranty, free repairs", formats: ["1:1"] };

/** Previews per minute per account here: the picture test previews seven times. */
const PREVIEW_LIMIT = 8;
let app: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "10", RATE_LIMIT_PREVIEW_PER_MINUTE: String(PREVIEW_LIMIT) });
  user = await signUp(app, "previewer");
  stranger = await signUp(app, "preview-stranger");
});
afterAll(async () => {
  await stopOcr();
  await app?.close();
});

interface Preview {
  previewId: string;
  format: string;
  storyboard: { scenes: { id: string; headline: string; durationSec: number; imageKey?: string }[] };
  stills: { scene: number; headline: string; image: string; width: number; height: number }[];
  creativeScore: { score: number };
  price: { cost: number };
  tookMs: number;
}

const stillBytes = (still: { image: string }) => Buffer.from(still.image.replace(/^data:image\/jpeg;base64,/, ""), "base64");

/** A product photo no preset looks like: magenta on white. */
function productPhoto(): Buffer {
  const canvas = createCanvas(800, 800);
  const g = canvas.getContext("2d");
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, 800, 800);
  g.fillStyle = "#ff00ff";
  g.fillRect(120, 120, 560, 560);
  return canvas.toBuffer("image/png");
}

async function uploadPhoto(account: Account, bytes: Buffer, name: string): Promise<{ id: string }> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), name);
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${account.jwt}` }, body: form });
  const body = (await res.json()) as { data?: { id: string }; error?: string };
  expect(res.status, body.error).toBe(200);
  return body.data!;
}

const magenta = (r: number, g: number, b: number) => r > 180 && b > 180 && g < 90;

/** The still's pixels (RGBA). */
async function pixelsOf(still: { image: string }): Promise<{ data: Uint8ClampedArray }> {
  const picture = await loadImage(stillBytes(still));
  const canvas = createCanvas(picture.width, picture.height);
  const g = canvas.getContext("2d");
  g.drawImage(picture, 0, 0);
  return g.getImageData(0, 0, picture.width, picture.height);
}

/** The share of pixels of which `is` holds. */
function share(image: { data: Uint8ClampedArray }, is: (r: number, g: number, b: number) => boolean): number {
  let hits = 0;
  for (let i = 0; i < image.data.length; i += 4) if (is(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!)) hits++;
  return hits / (image.data.length / 4);
}

/** SSIM of the still against every frame of the video: the best match and when it is shown. */
async function bestMatch(video: string, still: Buffer, width: number, height: number): Promise<{ ssim: number; atSec: number }> {
  const dir = mkdtempSync(join(tmpdir(), "preview-ssim-"));
  writeFileSync(join(dir, "still.jpg"), still);
  await run(
    locateFfmpeg(),
    [
      ...["-v", "error", "-i", video, "-loop", "1", "-i", join(dir, "still.jpg")],
      ...["-lavfi", `[1:v]scale=${width}:${height},format=yuv420p[s];[0:v]format=yuv420p[v];[v][s]ssim=stats_file=ssim.log:shortest=1`],
      ...["-f", "null", "-"],
    ],
    { cwd: dir },
  );
  const rows = readFileSync(join(dir, "ssim.log"), "utf8").trim().split("\n");
  let best = { ssim: 0, atSec: 0 };
  for (const [i, row] of rows.entries()) {
    const all = Number(/All:([\d.]+)/.exec(row)?.[1] ?? 0);
    if (all > best.ssim) best = { ssim: all, atSec: i / 30 };
  }
  return best;
}

describe("POST /api/workflow/preview", () => {
  let first: Preview;
  let edited: Preview;

  it("answers the storyboard, a still per scene, the score and the price, and charges nothing", async () => {
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const started = performance.now();
    const res = await user.client.post("/workflow/preview", BODY);
    const took = performance.now() - started;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    first = res.body.data;
    expect(first.storyboard.scenes.length).toBeGreaterThanOrEqual(3);
    expect(first.stills.map((s) => s.headline)).toEqual(first.storyboard.scenes.map((s) => s.headline));
    expect(first.stills[0]).toMatchObject({ width: 720, height: 720 });
    expect(first.creativeScore.score).toBeGreaterThan(0);
    expect(first.price.cost).toBe(1);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    console.info(`preview of ${first.storyboard.scenes.length} scenes: ${Math.round(took)} ms (server ${first.tookMs} ms)`);
  }, 30_000);

  it("previews again with a changed line: only that scene changes", async () => {
    const res = await user.client.post("/workflow/preview", {
      ...BODY,
      previewId: first.previewId,
      edits: [{ scene: 1, headline: "Rain cannot get in" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    edited = res.body.data;
    expect(edited.previewId).not.toBe(first.previewId);
    expect(edited.storyboard.scenes[0]!.headline).toBe("Rain cannot get in");
    expect(edited.storyboard.scenes.slice(1)).toEqual(first.storyboard.scenes.slice(1));
    expect(edited.stills[0]!.image).not.toBe(first.stills[0]!.image);
    const read = normalizeText((await readText(stillBytes(edited.stills[0]!))).join(" "));
    expect(read).toContain("rain cannot get in");
  }, 30_000);

  it("launches from the preview: charged its price, and the video shows the previewed stills (SSIM ≥ 0.9, same lines)", async () => {
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const launched = await user.client.post("/workflow", { ...BODY, previewId: edited.previewId, async: false });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.status).toBe("completed");
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before - edited.price.cost);
    const job = (await user.client.get(`/workflow/job?jobId=${launched.body.data.jobId}`)).body.data;
    expect(job.result.storyboard.scenes.map((s: { headline: string }) => s.headline)).toEqual(
      edited.storyboard.scenes.map((s) => s.headline),
    );

    const file = job.result.finalVideo.replace(/^.*\/api\/media\//, "");
    const video = await app.services.media.localFile(`jobs/${file}`);
    let sceneStart = 0;
    for (const [i, still] of edited.stills.entries()) {
      const duration = job.result.storyboard.scenes[i].durationSec as number;
      const match = await bestMatch(video, stillBytes(still), still.width, still.height);
      expect(match.ssim, `scene ${i + 1}`).toBeGreaterThanOrEqual(0.9);
      // The best frame is within the scene's own time (give or take a transition).
      expect(match.atSec, `scene ${i + 1}`).toBeGreaterThanOrEqual(sceneStart - 0.6);
      expect(match.atSec, `scene ${i + 1}`).toBeLessThanOrEqual(sceneStart + duration + 0.6);
      if (i === 0) {
        const frame = join(mkdtempSync(join(tmpdir(), "preview-frame-")), "frame.png");
        await run(locateFfmpeg(), ["-v", "error", "-ss", match.atSec.toFixed(3), "-i", video, "-frames:v", "1", "-y", frame]);
        const stillText = normalizeText((await readText(stillBytes(still))).join(" "));
        const frameText = normalizeText((await readText(frame)).join(" "));
        expect(stillText).toContain("rain cannot get in");
        expect(frameText).toContain("rain cannot get in");
      }
      sceneStart += duration;
    }
  }, 120_000);

  it("refuses what it cannot preview, saying what to fix", async () => {
    const theirs = await stranger.client.post("/workflow/preview", {
      ...BODY,
      previewId: first.previewId,
      edits: [{ scene: 1, headline: "Mine now" }],
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatch(/^Preview not found/);
    const launchTheirs = await stranger.client.post("/workflow", { ...BODY, previewId: first.previewId });
    expect(launchTheirs.status).toBe(404);
    expect((await stranger.client.get("/user/credits")).body.data.balance).toBe(10);
    const noId = await user.client.post("/workflow/preview", { ...BODY, edits: [{ scene: 1, headline: "x" }] });
    expect(noId.status).toBe(400);
    expect(noId.body.error).toBe("Edits change a preview: send them with the previewId of the preview they change");
    const otherType = await user.client.post("/workflow", { ...BODY, type: "cinematic", previewId: first.previewId });
    expect(otherType.status).toBe(400);
    expect(otherType.body.error).toContain("This preview is of a painpoint ad");
    const noScene = await user.client.post("/workflow/preview", {
      ...BODY,
      previewId: first.previewId,
      edits: [{ scene: 40, headline: "x" }],
    });
    expect(noScene.status).toBe(400);
    expect(noScene.body.error).toMatch(/There is no scene 40: this storyboard has \d+ scenes/);
  }, 30_000);

  it("previews again with another picture from the brand library, or none; a launch renders that picture", async () => {
    const owner = await signUp(app, "preview-pictures");
    const res = await owner.client.post("/workflow/preview", BODY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const before: Preview = res.body.data;
    const magentaBefore = share(await pixelsOf(before.stills[1]!), magenta);
    // A product photo uploaded after the first preview: only the edit brings it in.
    const photo = await uploadPhoto(owner, productPhoto(), "product.png");
    const edited = await owner.client.post("/workflow/preview", {
      ...BODY,
      previewId: before.previewId,
      edits: [
        { scene: 1, picture: "none" },
        { scene: 2, picture: photo.id },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const after: Preview = edited.body.data;
    const [first, second] = after.storyboard.scenes as { imageKey?: string; headline: string }[];
    expect(first!.imageKey).toBeUndefined();
    // Copied among the new preview's media: deleting the photo from the library keeps the previewed picture.
    expect(second!.imageKey).toBe(`jobs/${after.previewId}/edit-picture-2.png`);
    // Previewed again, the earlier preview's pictures are copied under the new one: each preview owns its
    // media, and can expire alone.
    const again = await owner.client.post("/workflow/preview", {
      ...BODY,
      previewId: after.previewId,
      edits: [{ scene: 3, headline: "Ten years, or a new one" }],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const latest: Preview = again.body.data;
    expect(latest.storyboard.scenes[1]!.imageKey).toBe(`jobs/${latest.previewId}/${after.previewId.slice(0, 8)}-edit-picture-2.png`);
    expect(await app.services.media.stat(latest.storyboard.scenes[1]!.imageKey!)).not.toBeNull();
    const keys = (scenes: { imageKey?: string }[]) => scenes.flatMap((scene) => (scene.imageKey ? [scene.imageKey] : []));
    expect(second!.headline).toBe(before.storyboard.scenes[1]!.headline);
    expect(after.storyboard.scenes.slice(2)).toEqual(before.storyboard.scenes.slice(2));
    // The still of scene 2 shows the photo (magenta, a colour no preset draws).
    expect(magentaBefore).toBeLessThan(0.02);
    expect(share(await pixelsOf(after.stills[1]!), magenta)).toBeGreaterThan(0.1);
    expect((await owner.client.delete(`/user/brand/media/${photo.id}`)).status).toBe(200);

    const launched = await owner.client.post("/workflow", { ...BODY, previewId: latest.previewId, async: false });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.status).toBe("completed");
    const jobId: string = launched.body.data.jobId;
    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    // The job renders the previewed picture from its own copy, and names no preview's media anywhere.
    expect(job.result.storyboard.scenes[1].imageKey).toBe(
      `jobs/${jobId}/${latest.previewId.slice(0, 8)}-${after.previewId.slice(0, 8)}-edit-picture-2.png`,
    );
    expect(job.result.storyboard.scenes[2].headline).toBe("Ten years, or a new one");
    expect(job.result.storyboard.scenes[0].imageKey).toBeUndefined();
    for (const key of keys(job.result.storyboard.scenes)) expect(await app.services.media.stat(key), key).not.toBeNull();
    const steps = JSON.stringify(await app.services.prisma.jobStep.findMany({ where: { jobId } }));
    for (const preview of [before, after, latest]) expect(steps).not.toContain(preview.previewId);

    // A day on, the sweep throws both previews away with their pictures; the job keeps its own.
    expect(await expirePreviews(app.services, Date.now() + 3600_000)).toBe(0);
    expect(await expirePreviews(app.services, Date.now() + PREVIEW_TTL_MS + 60_000)).toBeGreaterThanOrEqual(3);
    for (const preview of [before, after, latest]) {
      expect(await app.services.media.stat(`previews/${preview.previewId}.json`)).toBeNull();
      expect(await app.services.media.list(`jobs/${preview.previewId}`)).toEqual([]);
    }
    for (const key of keys(job.result.storyboard.scenes)) expect(await app.services.media.stat(key), key).not.toBeNull();
    const gone = await owner.client.post("/workflow/preview", {
      ...BODY,
      previewId: after.previewId,
      edits: [{ scene: 1, headline: "Again" }],
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatch(/^Preview not found/);

    // Only the account's own product photos: a presenter and a stranger's photo are refused as an unknown id is.
    const fresh = (await owner.client.post("/workflow/preview", BODY)).body.data as Preview;
    const presenter = await givePresenter(app, owner.jwt);
    const theirs = await uploadPhoto(stranger, productPhoto(), "theirs.png");
    for (const picture of [presenter.id, theirs.id]) {
      const refused = await owner.client.post("/workflow/preview", { ...BODY, previewId: fresh.previewId, edits: [{ scene: 2, picture }] });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(
        `There is no product photo "${picture}" in your brand media library: upload it on the Brand page (POST /api/user/brand/media) and use its id, or send "none" for no picture`,
      );
      expect(refused.fields).toEqual([expect.objectContaining({ field: "edits.0.picture" })]);
    }
  }, 120_000);

  it("has its own rate limit per account", async () => {
    const limited = await signUp(app, "preview-limit");
    for (let i = 0; i < PREVIEW_LIMIT; i++) expect((await limited.client.post("/workflow/preview", { type: "nope" })).status).toBe(400);
    const refused = await limited.client.post("/workflow/preview", BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(PREVIEW_LIMIT));
    expect((await limited.client.post("/workflow/estimate", BODY)).status).toBe(200);
  });
});
