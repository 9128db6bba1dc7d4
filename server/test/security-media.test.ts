// Two holes an attack run found, each performed here and now refused:
// 3. another account's media through the ZIP exports: a worker update (POST /workflow/stream) could set a
//    result naming another account's /api/media/<their job>/… and both exports packed that file;
// 4. free renders: a cancel after the first `video.ready` refunded in full and the video stayed
//    downloadable. Now a refunded job's media are deleted and no longer served, also when a render
//    finishes after the refund. (Since the attack run an unfinished job's files are not served at all, 409:
//    media-unfinished-job.test.ts.)
import { waitFor as poll } from "./support/wait-for.ts";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import type { RenderRequest, RenderResult, Storyboard, VideoRenderer } from "../src/modules/render/types.ts";
import { type Account, eventually, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";
import { readZip } from "./support/zip.ts";

const DNS: Record<string, string[]> = { "cdn.example": ["151.101.1.69"], "private-cdn.example": ["10.0.0.5"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const FOUR_FORMATS = ["9:16", "1:1", "16:9", "4:5"];

let app: TestApp;
let victim: Account;
let attacker: Account;
const streams: SseStream[] = [];

beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" }, { resolver });
  victim = await signUp(app, "media-victim");
  attacker = await signUp(app, "media-attacker");
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
});

const cookie = (account: Account) => ({ cookie: `session=${account.client.cookie}` });
const getRaw = (path: string, account: Account) => fetch(`${app.url}/api${path}`, { headers: cookie(account) });
/** GET of a media URL's path on the test server (media URLs carry PUBLIC_URL, which is not the test port). */
const getMedia = (url: string, account: Account) => fetch(`${app.url}${new URL(url, "http://x").pathname}`, { headers: cookie(account) });
const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;
const jobOf = async (account: Account, jobId: string) => (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;

/** Files left under a folder of the media store, recursively (empty folders do not count). */
function filesUnder(root: string, dir: string): string[] {
  const path = join(root, dir);
  if (!existsSync(path)) return [];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}
const mediaRoot = () => join(app.config.dataDir, "media");

const waitFor = <T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000) => poll(what, check, timeoutMs);

/** Reads the job's SSE stream until an event of `type` (or one `type` accepts) arrives (answers its data). */
async function waitForEvent(account: Account, jobId: string, type: string | ((data: any) => boolean), timeoutMs = 90_000): Promise<any> {
  const stream = await openSse(`${app.url}/api/workflow/stream?jobId=${jobId}`, cookie(account));
  streams.push(stream);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const data = JSON.parse((await stream.next(Math.max(1, deadline - Date.now()))).data);
      if (typeof type === "string" ? data.type === type : type(data)) return data;
      if (data.type === "workflow.completed" || data.type === "workflow.failed")
        throw new Error(`the job ended (${data.type}) before ${type}`);
    }
  } finally {
    stream.close();
  }
}

describe("3. another account's media through the ZIP export", () => {
  let victimJob: string;
  let victimVideo: Buffer;
  let attackerJob: string;

  beforeAll(async () => {
    // The victim renders a real ad; the attacker has a job paused for review (its own preview stills).
    const launched = await victim.client.post("/workflow", { type: "cinematic", concept: "Victim's secret launch", formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    victimJob = launched.body.data.jobId;
    const own = await attacker.client.post("/workflow", { type: "cinematic", concept: "Attacker", formats: ["9:16"], hitl: true });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    attackerJob = own.body.data.jobId;
    const done = await waitFor("the victim's render", async () => {
      const job = await jobOf(victim, victimJob);
      return job.status === "completed" || job.status === "failed" ? job : null;
    });
    expect(done.status, done.error).toBe("completed");
    victimVideo = Buffer.from(await (await getMedia(done.result.finalVideo, victim)).arrayBuffer());
    expect(victimVideo.length).toBeGreaterThan(1000);
    await waitFor("the attacker's review pause", async () => (await jobOf(attacker, attackerJob)).status === "awaiting_review");
    expect(existsSync(join(mediaRoot(), "jobs", attackerJob, "preview-1.png"))).toBe(true);
  }, 120_000);

  const victimMedia = (file: string) => `${app.config.publicUrl}/api/media/${victimJob}/${file}`;
  const asset = (url: string, thumbnail?: string) => ({ url, type: "video", format: "9:16", duration: 2, platform: "tiktok", thumbnail });

  it("a worker update whose result names another job's media (or a private address) is a 400 naming the field; nothing changes", async () => {
    const before = await app.services.prisma.job.findUniqueOrThrow({ where: { id: attackerJob } });
    const eventsBefore = await app.services.prisma.jobEvent.count({ where: { jobId: attackerJob } });
    const attacks: [Record<string, unknown>, RegExp][] = [
      [{ assets: [asset(victimMedia("ad-9x16.mp4"))] }, /^result\.assets\.0\.url: must be this job's media/],
      [{ assets: [asset(`/api/media/${victimJob}/ad-9x16.mp4`)] }, /^result\.assets\.0\.url: /],
      [{ assets: [asset(`/api/media/${attackerJob}/preview-1.png`, victimMedia("ad-9x16.jpg"))] }, /^result\.assets\.0\.thumbnail: /],
      [
        {
          assets: [
            asset(`/api/media/${attackerJob}/preview-1.png`),
            asset(`https://cdn.example/x.mp4`, `/api/media/${victimJob}/ad-9x16.jpg`),
          ],
        },
        /^result\.assets\.1\.thumbnail: /,
      ],
      [{ finalVideo: victimMedia("ad-9x16.mp4"), assets: [] }, /^result\.finalVideo: /],
      [{ thumbnail: `/api/media/${victimJob}/ad-9x16.jpg` }, /^result\.thumbnail: /],
      [{ assets: [asset(`/api/media/${attackerJob}/../${victimJob}/ad-9x16.mp4`)] }, /^result\.assets\.0\.url: /],
      [{ assets: [asset("http://cdn.example/x.mp4")] }, /^result\.assets\.0\.url: /],
      [
        { assets: [asset("https://private-cdn.example/x.mp4")] },
        /^result\.assets\.0\.url: url must not point to a private or local address/,
      ],
      [{ assets: [asset("https://127.0.0.1/x.mp4")] }, /^result\.assets\.0\.url: url must not point to a private or local address/],
      [{ assets: [asset("file:///etc/passwd")] }, /^result\.assets\.0\.url: /],
      [{ assets: [{ type: "video" }] }, /^result\.assets\.0\.url: is required/],
      [{ assets: "nope" }, /^result\.assets: must be a list/],
    ];
    for (const [result, message] of attacks) {
      for (const status of ["completed", "processing"] as const) {
        const res = await attacker.client.post("/workflow/stream", { jobId: attackerJob, status, result });
        expect(res.status, JSON.stringify({ result, body: res.body })).toBe(400);
        expect(res.body.error).toMatch(message);
      }
    }
    const after = await app.services.prisma.job.findUniqueOrThrow({ where: { id: attackerJob } });
    expect({ status: after.status, result: after.result, progress: after.progress, step: after.currentStep }).toEqual({
      status: before.status,
      result: before.result,
      progress: before.progress,
      step: before.currentStep,
    });
    expect(after.status).toBe("awaiting_review");
    expect(await app.services.prisma.jobEvent.count({ where: { jobId: attackerJob } })).toBe(eventsBefore);
  });

  it("a result naming the job's own media and public https URLs is accepted", async () => {
    const res = await attacker.client.post("/workflow/stream", {
      jobId: attackerJob,
      status: "completed",
      result: {
        finalVideo: "https://cdn.example/ads/own.mp4",
        thumbnail: `/api/media/${attackerJob}/preview-1.png`,
        assets: [
          asset(`${app.config.publicUrl}/api/media/${attackerJob}/preview-1.png`, `/api/media/${attackerJob}/preview-1.png`),
          asset("https://cdn.example/ads/own.mp4"),
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "completed" });
  });

  it("both exports pack only the job's own stored media, even for a stored result naming another job's files", {
    timeout: 60_000,
  }, async () => {
    // A result written before the check existed (or by any other path): the export still derives its keys from the job.
    await app.services.prisma.job.update({
      where: { id: attackerJob },
      data: {
        result: {
          finalVideo: victimMedia("ad-9x16.mp4"),
          thumbnail: victimMedia("ad-9x16.jpg"),
          assets: [
            asset(victimMedia("ad-9x16.mp4"), victimMedia("ad-9x16.jpg")),
            asset(`https://evil.example/api/media/${victimJob}/ad-9x16.mp4`),
            asset(`/api/media/${attackerJob}/preview-1.png`),
          ],
        },
      },
    });
    const expected = ["projects.json", "projects.csv", `attacker-${attackerJob.slice(0, 8)}/preview-1.png`].sort();
    const noVictimBytes = (entries: Map<string, Buffer>) => {
      for (const [name, data] of entries) {
        expect(name).not.toContain(victimJob);
        expect(data.equals(victimVideo), name).toBe(false);
      }
    };

    const zip = await getRaw("/user/projects/export?format=zip", attacker);
    expect(zip.status).toBe(200);
    const entries = readZip(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(expected);
    noVictimBytes(entries);

    const started = await attacker.client.post("/export");
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const exportId = started.body.data.exportId as string;
    const state = await waitFor("the background export", async () => {
      const s = (await attacker.client.get(`/export/${exportId}`)).body.data;
      return s.status === "completed" || s.status === "failed" ? s : null;
    });
    expect(state.status, state.error).toBe("completed");
    const file = await getRaw(`/export/${exportId}/download`, attacker);
    expect(file.status).toBe(200);
    const background = readZip(Buffer.from(await file.arrayBuffer()));
    expect([...background.keys()].sort()).toEqual(expected);
    noVictimBytes(background);

    // The victim's own export still has the file (the attack was refused, not the feature).
    const victims = readZip(Buffer.from(await (await getRaw("/user/projects/export?format=zip", victim)).arrayBuffer()));
    expect(victims.get(`victim-s-secret-launch-${victimJob.slice(0, 8)}/ad-9x16.mp4`)?.equals(victimVideo)).toBe(true);
    // And one video by URL stays the owner's only.
    expect((await getRaw(`/export?source=${encodeURIComponent(victimMedia("ad-9x16.mp4"))}`, attacker)).status).toBe(404);
  });
});

describe("4. a refunded job leaves no downloadable file", () => {
  it("cancel after the first of four formats is rendered: refunded in full and said so; the video is 404 and deleted", {
    timeout: 120_000,
  }, async () => {
    const user = await signUp(app, "cancel-after-render");
    const start = await balance(user);
    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Cancel me after one", formats: FOUR_FORMATS });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    const cost = launched.body.data.creditsUsed as number;
    expect(await balance(user)).toBe(start - cost);

    // The first format is rendered and stored (video.ready comes only with the completion now).
    await waitForEvent(user, jobId, (data) => data.type === "workflow.step" && data.result?.completed === "render:9:16");
    const ready = { videoUrl: `${app.config.publicUrl}/api/media/${jobId}/ad-9x16.mp4` };
    // Before the cancel the finished format is not downloadable either (the attack run kept it): 409.
    expect((await getMedia(ready.videoUrl, user)).status).toBe(409);

    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: "failed",
      refunded: true,
      error: `Cancelled by the user; ${cost} ${cost === 1 ? "credit" : "credits"} refunded`,
    });
    expect(await balance(user)).toBe(start);

    for (const file of ["ad-9x16.mp4", "ad-9x16.jpg"]) {
      const res = await getRaw(`/media/${jobId}/${file}`, user);
      expect(res.status, file).toBe(404);
    }
    expect((await getRaw(`/export?source=${encodeURIComponent(ready.videoUrl)}`, user)).status).toBe(404);
    expect(existsSync(join(mediaRoot(), "jobs", jobId))).toBe(false);

    // Once the stopped worker has let go, still nothing of the job is stored, and nothing was charged again.
    await waitFor("the worker to stop", async () => {
      const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      return job.leaseOwner === null;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(filesUnder(mediaRoot(), join("jobs", jobId))).toEqual([]);
    expect(existsSync(join(mediaRoot(), "jobs", jobId))).toBe(false);
    expect(filesUnder(mediaRoot(), join(".work", jobId))).toEqual([]);
    expect(await balance(user)).toBe(start);
    const refunds = await app.services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId, reason: "workflow_refund" } });
    expect(refunds.map((r) => r.delta)).toEqual([cost]);
    expect((await jobOf(user, jobId)).error).toBe(cancelled.body.data.error);

    // A file that lingers (or reappears) for a refunded job is not served.
    await mkdir(join(mediaRoot(), "jobs", jobId), { recursive: true });
    await writeFile(join(mediaRoot(), "jobs", jobId, "ad-9x16.mp4"), "lingering");
    expect((await getRaw(`/media/${jobId}/ad-9x16.mp4`, user)).status).toBe(404);
    expect((await getRaw(`/export?source=${encodeURIComponent(ready.videoUrl)}`, user)).status).toBe(404);
    await app.services.media.remove(`jobs/${jobId}`);
  });

  it("a job failed by a worker update after a render has its media removed", { timeout: 120_000 }, async () => {
    const user = await signUp(app, "fail-after-render");
    const start = await balance(user);
    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Fail me after one", formats: FOUR_FORMATS });
    const jobId = launched.body.data.jobId as string;
    await waitForEvent(user, jobId, (data) => data.type === "workflow.step" && data.result?.completed === "render:9:16");
    const ready = { videoUrl: `${app.config.publicUrl}/api/media/${jobId}/ad-9x16.mp4` };
    expect((await getMedia(ready.videoUrl, user)).status).toBe(409);

    const failed = await user.client.post("/workflow/stream", { jobId, status: "failed", result: { error: "GPU on fire" } });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.data).toMatchObject({ status: "failed", refunded: true, error: "GPU on fire" });
    expect(await balance(user)).toBe(start);
    expect((await getMedia(ready.videoUrl, user)).status).toBe(404);
    expect(existsSync(join(mediaRoot(), "jobs", jobId))).toBe(false);
    await waitFor("the worker to stop", async () => {
      const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      return job.leaseOwner === null;
    });
    expect(filesUnder(mediaRoot(), join("jobs", jobId))).toEqual([]);
  });
});

describe("4. a render that finishes after the refund", () => {
  // A renderer that ignores the stop signal and delivers its files only when the test says so: the
  // worker stores them after the cancel's refund has already deleted the job's media.
  let slow: TestApp;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started: string[] = [];
  const stored: string[] = [];
  const renderer: VideoRenderer = {
    name: "late-test-double",
    async render(request: RenderRequest): Promise<RenderResult> {
      started.push(request.format);
      await gate;
      await mkdir(request.outputDir, { recursive: true });
      const videoPath = join(request.outputDir, `${request.fileStem}.mp4`);
      const thumbnailPath = join(request.outputDir, `${request.fileStem}.jpg`);
      await writeFile(videoPath, Buffer.alloc(4096, 1));
      await writeFile(thumbnailPath, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
      return { videoPath, thumbnailPath, width: 1080, height: 1920, durationSec: 2, bytes: 4096, format: request.format };
    },
    async previewFrame(_storyboard: Storyboard, _scene: number, _format, outPath: string) {
      await writeFile(outPath, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      return outPath;
    },
  };

  beforeAll(async () => {
    slow = await startTestApp({ WORKERS: "1" }, { renderer });
    const put = slow.services.media.put.bind(slow.services.media);
    slow.services.media.put = async (key, localPath) => {
      const answer = await put(key, localPath);
      stored.push(key);
      return answer;
    };
  });
  afterAll(async () => {
    release();
    await slow?.close();
  });

  it("its files are deleted once stored and never served", { timeout: 60_000 }, async () => {
    const user = await signUp(slow, "late-render");
    const start = (await user.client.get("/user/credits")).body.data.balance;
    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Late render", formats: ["9:16"] });
    const jobId = launched.body.data.jobId as string;
    await waitFor("the render to start", async () => started.length > 0);

    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: "failed",
      refunded: true,
      error: expect.stringMatching(/^Cancelled by the user; \d+ credits? refunded$/),
    });
    release();
    // The worker stored the late render after the refund …
    await waitFor("the late render to be stored", async () => stored.includes(`jobs/${jobId}/ad-9x16.mp4`));
    await waitFor("the worker to stop", async () => {
      const job = await slow.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      return job.leaseOwner === null;
    });
    // … and removed it again: nothing is left, nothing is served.
    const root = join(slow.config.dataDir, "media");
    await eventually(() => expect(existsSync(join(root, "jobs", jobId))).toBe(false));
    expect(filesUnder(root, join("jobs", jobId))).toEqual([]);
    const res = await fetch(`${slow.url}/api/media/${jobId}/ad-9x16.mp4`, { headers: { cookie: `session=${user.client.cookie}` } });
    expect(res.status).toBe(404);
    const job = await slow.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "failed", result: null });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(start);
  });
});
