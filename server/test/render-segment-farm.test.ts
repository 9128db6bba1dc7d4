// Scenes spread over workers: a job's segments become tasks on the queue that any worker takes,
// encoding from the inputs in the shared store. A task that fails is tried again, three times at most, and
// then fails the render; an account never holds more encodes than its plan's share.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/index.ts";
import { createSegmentFarm, ENCODES_PER_SLOT, encodeQueuedSegment } from "../src/modules/render/segment-farm.ts";
import type { SegmentWork } from "../src/modules/render/scene-segments.ts";
import { signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
/** An instance without workers: its tasks are taken only by the workers a test plays. */
let quiet: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-segment-farm-"));
  [app, quiet] = await Promise.all([
    startTestApp({ WORKERS: "1", SIGNUP_CREDITS: "10", STUDIO_MAX_AD_SECONDS: "6" }),
    startTestApp({ WORKERS: "0" }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.close(), quiet?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A job row to hang tasks on. */
const jobOf = (userId: string) =>
  quiet.services.prisma.job.create({
    data: { userId, type: "cinematic", quality: "standard", status: "processing", input: {}, creditsUsed: 1 },
  });

async function finished(client: Awaited<ReturnType<typeof signUp>>["client"], jobId: string) {
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    const job = (await client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** A segment whose encode reads a picture from the store and draws it for `frames` frames (or fails: bad graph). */
function work(key: string, picture: string, graph = "[0:v]scale=64:64,loop=loop=-1:size=1,fps=30,format=yuv420p[vout]"): SegmentWork {
  return {
    key,
    args: [
      "-i",
      "pic.png",
      "-filter_complex_script",
      "graph.txt",
      "-map",
      "[vout]",
      "-frames:v",
      "15",
      "-c:v",
      "libx264",
      "-y",
      "video.mp4",
    ],
    graph,
    files: [{ name: "note.txt", content: "unused" }],
    links: [{ name: "pic.png", target: picture }],
    frames: 15,
    fps: 30,
    thumb: false,
  };
}

/** A 16×16 red PNG, drawn by ffmpeg. */
async function png(name: string): Promise<string> {
  const file = join(dir, name);
  await promisify(execFile)(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", "-y", file]);
  return file;
}

describe("a job's scene segments on the queue", () => {
  it("are tasks any worker can take: every one done once, with its worker and busy time", { timeout: 180_000 }, async () => {
    const user = await signUp(app, "farm");
    const res = await user.client.post("/workflow", {
      type: "cinematic",
      concept: "Lumen desk lamp: light that follows your day",
      formats: ["9:16", "1:1"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const jobId = res.body.data.jobId as string;
    expect((await finished(user.client, jobId)).status).toBe("completed");
    const tasks = await app.services.prisma.renderSegmentTask.findMany({ where: { jobId } });
    // Two formats of at least two scenes each, every segment a task, all done by this instance's workers.
    expect(tasks.length).toBeGreaterThanOrEqual(4);
    expect(tasks.every((t) => t.status === "done" && t.userId === user.id && t.attempts === 1)).toBe(true);
    expect(new Set(tasks.map((t) => t.worker))).toEqual(new Set([app.services.workerName]));
    expect(tasks.reduce((sum, t) => sum + t.busyMs, 0)).toBeGreaterThan(0);
  });

  it("is taken by a worker from the stored inputs, tried again when it fails, and fails the render after three tries", {
    timeout: 60_000,
  }, async () => {
    const { prisma, media, segmentCache, queue } = quiet.services;
    const user = await signUp(quiet, "farm-retry");
    const job = await jobOf(user.id);
    const farm = createSegmentFarm({ prisma, queue, media, cache: segmentCache!, workerName: "owner" });
    const picture = await png("red.png");
    const broken = work(`broken-${job.id}`, picture, "[0:v]nosuchfilter[vout]");
    // Each of the three turns fails (a worker that cannot encode): the render fails, saying why.
    let turns = 0;
    await expect(
      farm.encode({
        owner: { jobId: job.id },
        work: [broken],
        encodeHere: async () => {
          turns++;
          throw new Error("this worker cannot encode now");
        },
        onDone: () => {},
      }),
    ).rejects.toThrow(/could not be encoded/);
    expect(turns).toBe(3);
    const failed = await prisma.renderSegmentTask.findUniqueOrThrow({ where: { key: broken.key } });
    expect({ status: failed.status, attempts: failed.attempts }).toEqual({ status: "failed", attempts: 3 });
    expect(failed.error).toMatch(/cannot encode now/);

    // A good segment queued by the owner and taken by another worker, which fetches the picture from the
    // store: the owner's wait ends with it done and in the cache.
    const good = work(`good-${job.id}`, picture);
    const helper = { prisma, media, cache: segmentCache!, workerName: "helper", renderer: quiet.services.renderer };
    const owner = createSegmentFarm({ prisma, queue, media, cache: segmentCache!, workerName: "owner-2" });
    await owner.encode({
      owner: { jobId: job.id },
      work: [good],
      // The owner's turn is given away to the other worker, as a busy machine's would be taken elsewhere.
      encodeHere: async (w) => {
        await prisma.renderSegmentTask.update({ where: { key: w.key }, data: { status: "queued", worker: null } });
        await encodeQueuedSegment(helper, w.key);
      },
      onDone: () => {},
    });
    const row = await prisma.renderSegmentTask.findUniqueOrThrow({ where: { key: good.key } });
    expect({ status: row.status, worker: row.worker }).toEqual({ status: "done", worker: "helper" });
    expect(await segmentCache!.get(good.key, { uncounted: true })).toBeTruthy();
  });

  it("leaves a task queued while the account holds its plan's share of encodes", { timeout: 60_000 }, async () => {
    const { prisma, media, segmentCache, queue } = quiet.services;
    const user = await signUp(quiet, "farm-share");
    const picture = await png("share.png");
    const helper = { prisma, media, cache: segmentCache!, workerName: "helper-share", renderer: quiet.services.renderer };
    // A trial account may run one job: two encodes at once.
    const share = ENCODES_PER_SLOT * 1;
    for (let i = 0; i < share; i++) {
      await prisma.renderSegmentTask.create({
        data: { key: `busy-${user.id}-${i}`, userId: user.id, status: "running", payload: {}, worker: "elsewhere" },
      });
    }
    const farm = createSegmentFarm({ prisma, queue, media, cache: segmentCache!, workerName: "owner-share" });
    const next = work(`next-${user.id}`, picture);
    // Queue it (the owner's own turn is declined, so the task stays queued for a helper).
    const job = await jobOf(user.id);
    const controller = new AbortController();
    const waiting = farm
      .encode({
        owner: { jobId: job.id },
        work: [next],
        encodeHere: async () => {
          throw new Error("declined");
        },
        onDone: () => {},
        signal: controller.signal,
      })
      .catch((error: Error) => error);
    for (let tries = 0; tries < 100; tries++) {
      const row = await prisma.renderSegmentTask.findUnique({ where: { key: next.key } });
      if (row?.status === "queued") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort();
    await waiting;
    await prisma.renderSegmentTask.update({ where: { key: next.key }, data: { status: "queued", attempts: 0 } });
    await encodeQueuedSegment(helper, next.key);
    expect((await prisma.renderSegmentTask.findUniqueOrThrow({ where: { key: next.key } })).status).toBe("queued");
    // One of the account's encodes ends: now the helper takes it.
    await prisma.renderSegmentTask.update({ where: { key: `busy-${user.id}-0` }, data: { status: "done" } });
    await encodeQueuedSegment(helper, next.key);
    const row = await prisma.renderSegmentTask.findUniqueOrThrow({ where: { key: next.key } });
    expect({ status: row.status, worker: row.worker, error: row.error }).toEqual({ status: "done", worker: "helper-share", error: null });
  });
});
