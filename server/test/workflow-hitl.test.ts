// Human review (HITL): a job launched with hitl:true pauses after art direction (awaiting_review, a
// workflow.suspended event), shows its storyboard with a preview still per scene, and resumes on
// approve without directing again; reject fails and refunds; decisions on other jobs are refused.
import { ReviewState } from "@adgen/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toReviewState } from "../src/modules/workflows/jobs/review-state.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";

let app: TestApp;
let user: Account;
let stranger: Account;
const streams: SseStream[] = [];
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1" });
  user = await signUp(app, "hitl");
  await givePresenter(app, user.jwt);
  stranger = await signUp(app, "hitl-stranger");
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
});

const cookie = (account: Account) => ({ cookie: `session=${account.client.cookie}` });

async function waitForStatus(jobId: string, statuses: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Reads the job's SSE stream until an event of `type` arrives; answers every event read. */
async function readUntil(stream: SseStream, type: string, timeoutMs = 60_000) {
  const events: any[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = await stream.next(Math.max(1, deadline - Date.now()));
    const data = JSON.parse(message.data);
    events.push({ ...data, event: message.event });
    if (data.type === type) return events;
  }
}

describe("a job with hitl:true", () => {
  let jobId: string;
  let review: any;
  let stream: SseStream;

  it("pauses after art direction in awaiting_review with a workflow.suspended event", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      hitl: true,
      concept: "Coffee that wakes the neighbours",
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    jobId = launched.body.data.jobId;
    stream = await openSse(`${app.url}/api/workflow/stream?jobId=${jobId}`, cookie(user));
    streams.push(stream);
    const events = await readUntil(stream, "workflow.suspended");
    const suspended = events.at(-1);
    expect(suspended).toMatchObject({ event: "step", jobId, type: "workflow.suspended", status: "awaiting_review", step: "review" });
    expect(events.filter((e) => e.type === "workflow.step").map((e) => e.step)).not.toContain("render:9:16");

    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job).toMatchObject({ status: "awaiting_review", step: "review", hitl: true, refunded: false, result: null });
    // The project shows it as processing (SPEC project states).
    const project = (await user.client.get("/user/projects")).body.data.find((p: { id: string }) => p.id === jobId);
    expect(project).toMatchObject({ status: "processing", job_status: "awaiting_review", output_data: "{}" });
    // Nothing was rendered yet.
    expect(await app.services.prisma.jobStep.findMany({ where: { jobId }, select: { name: true } })).toEqual([{ name: "art_direction" }]);
  });

  it("GET /workflow/hitl shows the storyboard, its copy and a downloadable preview PNG per scene", async () => {
    const res = await user.client.get(`/workflow/hitl?jobId=${jobId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    review = res.body.data;
    expect(review).toMatchObject({
      jobId,
      status: "awaiting_review",
      hitl: true,
      review: { state: "pending", decidedAt: null, feedback: null },
    });
    expect(Date.parse(review.review.expiresAt) - Date.parse(review.review.requestedAt)).toBe(86_400_000);
    expect(review.storyboard.formats).toEqual(["9:16"]);
    expect(review.storyboard.scenes.length).toBeGreaterThanOrEqual(2);
    const copy = review.storyboard.scenes.map((s: any) => [s.headline, s.body, s.cta].filter(Boolean).join(" "));
    expect(copy.join(" ")).toContain("Coffee that wakes the neighbours");
    for (const scene of review.storyboard.scenes) {
      expect(scene).toEqual(
        expect.objectContaining({ id: expect.any(String), headline: expect.any(String), durationSec: expect.any(Number) }),
      );
      expect(scene.preview).toMatch(new RegExp(`/api/media/${jobId}/preview-\\d+\\.png$`));
      const png = await fetch(`${app.url}${new URL(scene.preview).pathname}`, { headers: cookie(user) });
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await png.arrayBuffer());
      expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1080, 1920]);
      expect((await fetch(`${app.url}${new URL(scene.preview).pathname}`, { headers: cookie(stranger) })).status).toBe(404);
    }
    expect(new Set(review.storyboard.scenes.map((s: any) => s.preview)).size).toBe(review.storyboard.scenes.length);
  });

  it("the review is built in the public shape by the domain: the stored scenes' media keys and paths never leave it", async () => {
    const where = { jobId_name: { jobId, name: "art_direction" } };
    const stored = (await app.services.prisma.jobStep.findUniqueOrThrow({ where })).output as any;
    const leaky = structuredClone(stored);
    Object.assign(leaky.storyboard.scenes[0], {
      imageKey: "jobs/x/picture.png",
      imagePath: "/tmp/picture.png",
      imageSize: { width: 10, height: 10 },
      subject: { x: 0, y: 0, w: 1, h: 1 },
      videoKey: "jobs/x/clip.mp4",
      videoStartSec: 1,
    });
    leaky.storyboard.brand.logoKey = "brand/logo.png";
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    const state = toReviewState(app.services, job, leaky);
    expect(ReviewState.strict().safeParse(state).success).toBe(true);
    expect(Object.keys(state.storyboard!.scenes[0]!).sort()).toEqual(Object.keys(review.storyboard.scenes[0]).sort());
    expect(Object.keys(state.storyboard!.brand).sort()).toEqual(["accent", "name", "primary", "secondary", "text"]);
    // And over REST (whose output check under tests refuses an undeclared field) with the keys stored.
    await app.services.prisma.jobStep.update({ where, data: { output: leaky } });
    try {
      const res = await user.client.get(`/workflow/hitl?jobId=${jobId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(JSON.stringify(res.body.data)).not.toMatch(/imageKey|imagePath|videoKey|logoKey|subject/);
      expect(res.body.data.storyboard).toEqual(review.storyboard);
    } finally {
      await app.services.prisma.jobStep.update({ where, data: { output: stored } });
    }
  });

  it("answers 400 for a bad action or a missing jobId, and 404 to another account", async () => {
    for (const body of [{ jobId, action: "maybe" }, { jobId }, { jobId, action: "APPROVE" }]) {
      const res = await user.client.post("/workflow/hitl", body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Choose approve or reject" });
    }
    expect((await user.client.post("/workflow/hitl", { action: "approve" })).body).toEqual({ success: false, error: "jobId is required" });
    expect((await stranger.client.post("/workflow/hitl", { jobId, action: "reject" })).status).toBe(404);
    expect((await stranger.client.get(`/workflow/hitl?jobId=${jobId}`)).status).toBe(404);
    expect((await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data.status).toBe("awaiting_review");
  });

  it("approve resumes from the stored storyboard and completes with the video", { timeout: 90_000 }, async () => {
    const directedAt = (await app.services.prisma.jobStep.findUniqueOrThrow({ where: { jobId_name: { jobId, name: "art_direction" } } }))
      .completedAt;
    const approved = await user.client.post("/workflow/hitl", { jobId, action: "approve", feedback: "Ship it" });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.review).toMatchObject({ feedback: "Ship it" });
    expect(["queued", "processing", "completed"]).toContain(approved.body.data.status);

    const events = await readUntil(stream, "workflow.completed", 60_000);
    expect(events.at(-1)).toMatchObject({ event: "result", success: true, videoUrl: expect.stringMatching(/ad-9x16\.mp4$/) });
    expect(events.map((e) => e.type)).toContain("video.ready");
    // art_direction was not directed again: no second step event for it, the stored step is untouched.
    expect(events.filter((e) => e.type === "workflow.step" && e.step === "art_direction")).toEqual([]);
    const job = await waitForStatus(jobId, ["completed", "failed"]);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.storyboard).toEqual({
      title: review.storyboard.title,
      brand: review.storyboard.brand,
      // The music's mood comes with the preset (the review shows the scenes, not the sound).
      mood: expect.stringMatching(/^(energetic|calm|luxurious|playful|warm)$/),
      // The type's layout system (a cinematic ad is full-bleed and sparse).
      style: "cinematic",
      // Which of the framework's beats were written and which were left out.
      beats: expect.arrayContaining([{ role: "attention", written: true }]),
      // The scenes as reviewed, with what the copywriter marks on each (its role in the story, its key word).
      scenes: review.storyboard.scenes.map(({ preview, ...scene }: any) =>
        expect.objectContaining({ ...scene, role: expect.stringMatching(/^(hook|problem|solution|benefit|proof|cta)$/) }),
      ),
    });
    // A standard video is 720p (the review previews above are drawn at the format's full size).
    expect(job.result.assets).toEqual([expect.objectContaining({ type: "video", format: "9:16", width: 720, height: 1280 })]);
    const steps = await app.services.prisma.jobStep.findMany({ where: { jobId }, orderBy: { completedAt: "asc" } });
    expect(steps.map((s) => s.name)).toEqual(["art_direction", "render:9:16"]);
    expect(steps[0]!.completedAt).toEqual(directedAt);
    const started = await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.started" } });
    expect(started).toBe(1);

    const after = (await user.client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
    expect(after).toMatchObject({ status: "completed", review: { state: "approved", feedback: "Ship it", decidedAt: expect.any(String) } });
    // A decision on a job that is not waiting for review is a 409.
    for (const action of ["approve", "reject"]) {
      const late = await user.client.post("/workflow/hitl", { jobId, action });
      expect(late.status).toBe(409);
      expect(late.body.error).toMatch(/is not waiting for review: it is completed/);
    }
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(9);
    // The review history lists the decision.
    const history = (await user.client.get("/workflow/review")).body.data;
    expect(history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ projectId: jobId, review: expect.objectContaining({ decision: "approved", feedback: "Ship it" }) }),
      ]),
    );
  });

  it("reject fails the job and refunds it exactly once", { timeout: 60_000 }, async () => {
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const launched = await user.client.post("/workflow", { type: "avatar", hitl: true });
    const id = launched.body.data.jobId as string;
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before - 2);
    await waitForStatus(id, ["awaiting_review"]);
    const results = await Promise.all([
      user.client.post("/workflow/hitl", { jobId: id, action: "reject", feedback: "Wrong colours" }),
      user.client.post("/workflow/hitl", { jobId: id, action: "reject", feedback: "Wrong colours" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const res of results) expect([200, 409]).toContain(res.status);
    const ok = results.find((r) => r.status === 200)!;
    expect(ok.body.data).toMatchObject({ status: "failed", review: { state: "rejected", feedback: "Wrong colours" } });
    const job = (await user.client.get(`/workflow/job?jobId=${id}`)).body.data;
    expect(job).toMatchObject({ status: "failed", refunded: true, error: "Rejected in review: Wrong colours; credits refunded" });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    const refunds = await app.services.prisma.creditLedgerEntry.findMany({ where: { userId: user.id, reason: "workflow_refund" } });
    expect(refunds.map((r) => [r.reference, r.delta])).toEqual([[id, 2]]);
    const failed = await app.services.prisma.jobEvent.findMany({ where: { jobId: id, kind: "workflow.failed" } });
    expect(failed).toHaveLength(1);
    // Approving after the reject is refused.
    expect((await user.client.post("/workflow/hitl", { jobId: id, action: "approve" })).status).toBe(409);
    // Nothing was rendered.
    expect(await app.services.prisma.jobStep.count({ where: { jobId: id, name: { startsWith: "render:" } } })).toBe(0);
  });

  it("approve and reject sent at once: exactly one wins, and credits come back at most once", { timeout: 60_000 }, async () => {
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const id = (await user.client.post("/workflow", { type: "staticad", hitl: true })).body.data.jobId as string;
    await waitForStatus(id, ["awaiting_review"]);
    const [approve, reject] = await Promise.all([
      user.client.post("/workflow/hitl", { jobId: id, action: "approve" }),
      user.client.post("/workflow/hitl", { jobId: id, action: "reject" }),
    ]);
    expect([approve.status, reject.status].sort()).toEqual([200, 409]);
    const job = await waitForStatus(id, ["completed", "failed"]);
    const refunds = await app.services.prisma.creditLedgerEntry.count({ where: { reference: id, reason: "workflow_refund" } });
    if (approve.status === 200) {
      expect({ status: job.status, refunds }).toEqual({ status: "completed", refunds: 0 });
      expect((await user.client.get("/user/credits")).body.data.balance).toBe(before - 1);
    } else {
      expect({ status: job.status, refunds }).toEqual({ status: "failed", refunds: 1 });
      expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    }
  });

  it("a job launched without hitl is never waiting for review (409) and its state says not_requested", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", { type: "staticad" });
    const id = launched.body.data.jobId as string;
    await waitForStatus(id, ["completed"]);
    const state = (await user.client.get(`/workflow/hitl?jobId=${id}`)).body.data;
    expect(state).toMatchObject({ jobId: id, hitl: false, status: "completed", review: { state: "not_requested" } });
    expect(state.storyboard.scenes.every((s: any) => s.preview === null)).toBe(true);
    const res = await user.client.post("/workflow/hitl", { jobId: id, action: "approve" });
    expect(res.status).toBe(409);
  });
});
