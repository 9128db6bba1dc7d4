// Attack-run finding 2: a render could be downloaded and still refunded. A 4-format factory job's first
// format was served (`GET /api/media/<job>/ad-9x16-a.mp4` 200) while the job was `processing`; a cancel
// or a worker's `status: failed` then refunded the 3 credits and the file stayed with the user. Each path
// is performed here: nothing of an unfinished job is delivered (409) but its review stills, a refund
// before completion is in full, and a completed job (delivered) is never cancelled, failed or refunded.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import type { RenderRequest, RenderResult, Storyboard, VideoRenderer } from "../src/modules/render/types.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";
import { readZip } from "./support/zip.ts";
import { waitFor } from "./support/wait-for.ts";

const FOUR_FORMATS = ["9:16", "1:1", "16:9", "4:5"];
const FIRST_FILE = "ad-9x16-a.mp4";
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f70000000049454e44ae426082",
  "hex",
);

// The product page cannot be read (the network is closed): a warning, and the job goes on.
const resolver: Resolver = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

/**
 * A renderer that delivers the 9:16 format at once and holds every other format until the test opens
 * its job's gate: the job is `processing` with its first format stored. It stops when the job is stopped.
 */
const gates = new Map<string, () => void>();
const held: string[] = [];
const jobOfDir = (dir: string) => dir.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0] ?? "";
const renderer: VideoRenderer = {
  name: "gated-test-double",
  async render(request: RenderRequest): Promise<RenderResult> {
    const jobId = jobOfDir(request.outputDir);
    if (request.format !== "9:16") {
      held.push(`${jobId} ${request.format}`);
      await new Promise<void>((resolve, reject) => {
        const open = gates.get(jobId);
        if (open === undefined) gates.set(jobId, resolve);
        else resolve();
        request.signal?.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
      });
    }
    await mkdir(request.outputDir, { recursive: true });
    const videoPath = join(request.outputDir, `${request.fileStem}.mp4`);
    const thumbnailPath = join(request.outputDir, `${request.fileStem}.jpg`);
    await writeFile(videoPath, Buffer.alloc(4096, 7));
    await writeFile(thumbnailPath, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    return { videoPath, thumbnailPath, width: 1080, height: 1920, durationSec: 2, bytes: 4096, format: request.format };
  },
  async previewFrame(_storyboard: Storyboard, _scene: number, _format, outPath: string) {
    await writeFile(outPath, PNG);
    return outPath;
  },
};

let app: TestApp;
const streams: SseStream[] = [];
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1" }, { resolver, renderer });
});
// A test that failed midway leaves no held render behind to occupy the worker.
const releaseAll = () => {
  for (const open of gates.values()) open();
};
afterEach(releaseAll);
afterAll(async () => {
  for (const stream of streams) stream.close();
  releaseAll();
  await app?.close();
});

const cookie = (account: Account) => ({ cookie: `session=${account.client.cookie}` });
const get = (path: string, account: Account) => fetch(`${app.url}${path}`, { headers: cookie(account) });
const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;
const jobOf = async (account: Account, jobId: string) => (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
const mediaPath = (jobId: string, file: string) => `/api/media/${jobId}/${file}`;
const exportBySource = (jobId: string, file: string) =>
  `/api/export?source=${encodeURIComponent(`${app.config.publicUrl}${mediaPath(jobId, file)}`)}`;
const NOT_YET = /^Job [0-9a-f-]+ is processing: its files can be downloaded once it is completed$/;

/** Opens the gate of the job's held formats (now, or as soon as its first one asks). */
function release(jobId: string) {
  const open = gates.get(jobId);
  if (open) open();
  else gates.set(jobId, () => {});
}

/** Launches a 4-format factory job and waits until its 9:16 files are stored and the next format is held. */
async function launchHeldFactory(account: Account, extra: Record<string, unknown> = {}) {
  const launched = await account.client.post("/workflow", {
    type: "factory",
    url: "https://shop.example/",
    formats: FOUR_FORMATS,
    ...extra,
  });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const jobId = launched.body.data.jobId as string;
  return { jobId, cost: launched.body.data.creditsUsed as number };
}
async function untilFirstFormatStored(account: Account, jobId: string) {
  await waitFor("the 1:1 render to be held", () => held.includes(`${jobId} 1:1`), 60_000);
  const job = await jobOf(account, jobId);
  expect(job.status).toBe("processing");
  expect(await app.services.media.stat(`jobs/${jobId}/${FIRST_FILE}`)).toBeTruthy();
}

/** The stopped worker has let the job go (its held render ended), so the next test has the worker. */
const untilWorkerLetsGo = (jobId: string) =>
  waitFor(
    "the worker to let go",
    async () => (await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).leaseOwner === null,
  );

describe("a processing job's files are not delivered, so a refund leaves nothing behind", () => {
  it("cancel: the media route, export by URL and the ZIP refuse the stored 9:16 file; the refund is in full", {
    timeout: 90_000,
  }, async () => {
    const user = await signUp(app, "unfinished-cancel");
    const start = await balance(user);
    const { jobId, cost } = await launchHeldFactory(user);
    expect(cost).toBe(3);
    await untilFirstFormatStored(user, jobId);

    // The attack: poll the finished format while the job is still processing.
    for (const file of [FIRST_FILE, "ad-9x16-a.jpg", "ad-9x16-b.mp4"]) {
      const res = await get(mediaPath(jobId, file), user);
      expect(res.status, file).toBe(409);
      expect((await res.json()).error).toMatch(NOT_YET);
    }
    const bySource = await get(exportBySource(jobId, FIRST_FILE), user);
    expect(bySource.status).toBe(409);
    expect((await bySource.json()).error).toMatch(NOT_YET);
    // A worker update (the owner may post one) naming the file in the result of a processing job does not
    // put it in the ZIP. (A partial result is a 400: the job's reads need a whole one.)
    const asset = { url: mediaPath(jobId, FIRST_FILE), type: "video", format: "9:16", duration: 2, platform: "tiktok" };
    const partial = await user.client.post("/workflow/stream", { jobId, status: "processing", result: { assets: [asset] } });
    expect(partial.status, JSON.stringify(partial.body)).toBe(400);
    expect(partial.body.error).toMatch(/^result: a job's result must be whole \(/);
    const named = await user.client.post("/workflow/stream", {
      jobId,
      status: "processing",
      result: { finalVideo: asset.url, thumbnail: null, assets: [asset] },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data).toMatchObject({ status: "processing", result: { finalVideo: asset.url } });
    const zip = await get("/api/user/projects/export?format=zip", user);
    expect(zip.status).toBe(200);
    expect([...readZip(Buffer.from(await zip.arrayBuffer())).keys()].sort()).toEqual(["projects.csv", "projects.json"]);

    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "failed", refunded: true, error: "Cancelled by the user; 3 credits refunded" });
    expect(await balance(user)).toBe(start);
    expect((await get(mediaPath(jobId, FIRST_FILE), user)).status).toBe(404);
    await untilWorkerLetsGo(jobId);
  });

  it("worker update `status: failed`: the file was never served, and the refund is in full", { timeout: 90_000 }, async () => {
    const user = await signUp(app, "unfinished-fail");
    const start = await balance(user);
    const { jobId } = await launchHeldFactory(user);
    await untilFirstFormatStored(user, jobId);

    const res = await get(mediaPath(jobId, FIRST_FILE), user);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(NOT_YET);

    const failed = await user.client.post("/workflow/stream", { jobId, status: "failed", result: { error: "GPU on fire" } });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.data).toMatchObject({ status: "failed", refunded: true, error: "GPU on fire" });
    expect(await balance(user)).toBe(start);
    expect((await get(mediaPath(jobId, FIRST_FILE), user)).status).toBe(404);
    await untilWorkerLetsGo(jobId);
  });
});

describe("a completed job delivered its files: they download, and it is never cancelled, failed or refunded", () => {
  it("video.ready comes with the completion; afterwards cancel and a worker `failed` are 409 and the balance stays", {
    timeout: 90_000,
  }, async () => {
    const user = await signUp(app, "completed-kept");
    const start = await balance(user);
    const { jobId, cost } = await launchHeldFactory(user);
    await untilFirstFormatStored(user, jobId);
    const stream = await openSse(`${app.url}/api/workflow/stream?jobId=${jobId}`, cookie(user));
    streams.push(stream);
    release(jobId);

    // Every video.ready names a file the user can download when it arrives: it comes once the job is completed.
    const ready: string[] = [];
    for (;;) {
      const data = JSON.parse((await stream.next(60_000)).data);
      if (data.type === "video.ready") {
        // The event says processing (only workflow.completed says completed); the stored job is already done.
        expect([data.status, data.progress]).toEqual(["processing", 99]);
        expect((await jobOf(user, jobId)).status).toBe("completed");
        const res = await get(new URL(data.videoUrl).pathname, user);
        expect(res.status, data.videoUrl).toBe(200);
        ready.push(data.result.format);
      }
      if (data.type === "workflow.completed" || data.type === "workflow.failed") {
        expect(data.type, data.error).toBe("workflow.completed");
        break;
      }
    }
    expect(ready).toEqual(FOUR_FORMATS);
    expect(await balance(user)).toBe(start - cost);
    expect((await get(exportBySource(jobId, FIRST_FILE), user)).status).toBe(200);

    const cancel = await user.client.post("/workflow/cancel", { jobId });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe("Job is already completed: its files were delivered, so it cannot be cancelled and nothing is refunded");
    const fail = await user.client.post("/workflow/stream", { jobId, status: "failed" });
    expect(fail.status).toBe(409);
    expect(fail.body.error).toBe("Job is already completed: its files were delivered, so it cannot be updated and nothing is refunded");
    expect(await balance(user)).toBe(start - cost);
    expect(await jobOf(user, jobId)).toMatchObject({ status: "completed", refunded: false });
    expect((await get(mediaPath(jobId, FIRST_FILE), user)).status).toBe(200);
  });
});

describe("review (hitl): the stills the reviewer needs are served, nothing else until completion", () => {
  it("previews download in review and after approval; the renders do not; cancel or reject refunds and removes all", {
    timeout: 90_000,
  }, async () => {
    const user = await signUp(app, "review-previews");
    const start = await balance(user);
    const { jobId } = await launchHeldFactory(user, { hitl: true });
    await waitFor("the review pause", async () => (await jobOf(user, jobId)).status === "awaiting_review", 60_000);
    const previews = async (id: string) =>
      ((await user.client.get(`/workflow/hitl?jobId=${id}`)).body.data.storyboard.scenes as { preview: string }[]).map(
        (scene) => new URL(scene.preview).pathname,
      );
    const stills = await previews(jobId);
    expect(stills.length).toBeGreaterThan(0);
    for (const still of stills) expect((await get(still, user)).status, still).toBe(200);

    const approved = await user.client.post("/workflow/hitl", { jobId, action: "approve" });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await untilFirstFormatStored(user, jobId);
    for (const still of stills) expect((await get(still, user)).status, still).toBe(200);
    const render = await get(mediaPath(jobId, FIRST_FILE), user);
    expect(render.status).toBe(409);
    expect((await render.json()).error).toMatch(NOT_YET);

    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await balance(user)).toBe(start);
    for (const path of [...stills, mediaPath(jobId, FIRST_FILE)]) expect((await get(path, user)).status, path).toBe(404);
    await untilWorkerLetsGo(jobId);

    // Reject: the stills were the only files, and they go with the refund.
    const second = await launchHeldFactory(user, { hitl: true });
    await waitFor("the second review pause", async () => (await jobOf(user, second.jobId)).status === "awaiting_review", 60_000);
    const secondStills = await previews(second.jobId);
    for (const still of secondStills) expect((await get(still, user)).status, still).toBe(200);
    const rejected = await user.client.post("/workflow/hitl", { jobId: second.jobId, action: "reject", feedback: "Not our tone" });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await balance(user)).toBe(start);
    for (const still of secondStills) expect((await get(still, user)).status, still).toBe(404);
  });
});
