// Every failure path refunds exactly once: a renderer that always fails (a test double: what is tested
// here is the retry, dead-letter and refund path, not rendering), a cancel that races a running
// worker, and a review that expires while the periodic sweep and GET /workflow/hitl race to expire it.
import { waitFor } from "./support/wait-for.ts";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderRequest, RenderResult, Storyboard, VideoRenderer } from "../src/modules/render/types.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";

// A 1×1 PNG for review previews.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const renders: { title: string; at: number }[] = [];
const renderer: VideoRenderer = {
  name: "failing-test-double",
  async render(request: RenderRequest): Promise<RenderResult> {
    renders.push({ title: request.storyboard.title, at: Date.now() });
    if (request.storyboard.title.includes("hang")) {
      // Runs until the job is stopped elsewhere (cancel), like a long ffmpeg run.
      await new Promise<void>((_, reject) => {
        if (request.signal?.aborted) reject(request.signal.reason);
        request.signal?.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })), {
          once: true,
        });
      });
    }
    throw new Error("ffmpeg exited with code 1: Conversion failed! (simulated)");
  },
  async previewFrame(_storyboard: Storyboard, _sceneIndex: number, _format, outPath: string) {
    await writeFile(outPath, PNG);
    return outPath;
  },
};

let app: TestApp;
let user: Account;
const streams: SseStream[] = [];
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", JOB_RETRY_LIMIT: "1", JOB_RETRY_DELAY_SECONDS: "1", HITL_TIMEOUT_SECONDS: "1" }, { renderer });
  user = await signUp(app, "failures");
  await givePresenter(app, user.jwt);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
});

const balance = async () => (await user.client.get("/user/credits")).body.data.balance as number;

async function refundsOf(jobId: string) {
  return app.services.prisma.creditLedgerEntry.findMany({ where: { reference: jobId, reason: "workflow_refund" } });
}

async function expectLedgerConsistent() {
  const rows = await app.services.prisma.creditLedgerEntry.findMany({ where: { userId: user.id } });
  const cached = (await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).creditsBalance;
  expect(rows.reduce((sum, r) => sum + r.delta, 0)).toBe(cached);
}

describe("a renderer that always fails", () => {
  it("is retried, then the dead-letter worker fails the job and refunds it once, with a workflow.failed event", {
    timeout: 60_000,
  }, async () => {
    const before = await balance();
    const launched = await user.client.post("/workflow", { type: "avatar", concept: "Retry me", formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    expect(await balance()).toBe(before - 2);
    const stream = await openSse(`${app.url}/api/workflow/stream?jobId=${jobId}`, { cookie: `session=${user.client.cookie}` });
    streams.push(stream);

    const messages: { event: string; data: any }[] = [];
    for (;;) {
      const message = await stream.next(30_000);
      messages.push({ event: message.event, data: JSON.parse(message.data) });
      if (message.event === "result") break;
    }
    const result = messages.at(-1)!;
    expect(result.data).toMatchObject({
      jobId,
      type: "workflow.failed",
      status: "failed",
      success: false,
      error: expect.stringContaining("ffmpeg exited with code 1: Conversion failed! (simulated)"),
      result: { refunded: 2 },
    });
    expect(messages.slice(0, -1).every((m) => m.event === "step")).toBe(true);

    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job).toMatchObject({
      status: "failed",
      refunded: true,
      error: expect.stringMatching(/^The workflow failed: ffmpeg exited with code 1/),
    });
    // One try and one retry (JOB_RETRY_LIMIT=1), the retry resuming after the stored art direction.
    expect(renders.filter((r) => r.title.startsWith("Retry me"))).toHaveLength(2);
    const stored = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(stored.attempts).toBe(2);
    expect((await app.services.prisma.jobStep.findMany({ where: { jobId } })).map((s) => s.name).sort()).toEqual([
      "art_direction",
      "voice",
    ]);
    expect(await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.started" } })).toBe(1);
    expect(await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.failed" } })).toBe(1);

    expect(await balance()).toBe(before);
    expect((await refundsOf(jobId)).map((r) => r.delta)).toEqual([2]);
    await expectLedgerConsistent();
    // Later sweeps and a late cancel change nothing.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await user.client.post("/workflow/cancel", { jobId })).status).toBe(409);
    expect(await refundsOf(jobId)).toHaveLength(1);
    const project = (await user.client.get("/user/projects")).body.data.find((p: { id: string }) => p.id === jobId);
    expect(project).toMatchObject({ status: "failed", credits_used: 2 });
    expect(JSON.parse(project.output_data)).toEqual({ error: job.error });
  });

  it("a cancel while the worker renders stops it and refunds once; the worker's own failure adds nothing", {
    timeout: 60_000,
  }, async () => {
    const before = await balance();
    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Please hang for a while", formats: ["9:16"] });
    const jobId = launched.body.data.jobId as string;
    await waitFor("the render to start", async () => renders.some((r) => r.title.startsWith("Please hang")));
    const cancelled = await user.client.post("/workflow/cancel", { jobId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "failed", refunded: true, error: "Cancelled by the user; 1 credit refunded" });
    // Give the stopped worker, the queue and the dead-letter worker time to do anything they would.
    await new Promise((r) => setTimeout(r, 3000));
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "failed", error: "Cancelled by the user; 1 credit refunded" });
    expect(renders.filter((r) => r.title.startsWith("Please hang"))).toHaveLength(1);
    expect((await refundsOf(jobId)).map((r) => r.delta)).toEqual([1]);
    expect(await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.failed" } })).toBe(1);
    expect(await balance()).toBe(before);
    await expectLedgerConsistent();
  });
});

describe("review expiry (HITL_TIMEOUT_SECONDS=1)", () => {
  it("an unanswered review fails and refunds once although the sweep and GET /workflow/hitl race", { timeout: 60_000 }, async () => {
    const before = await balance();
    const launched = await user.client.post("/workflow", { type: "painpoint", hitl: true });
    const jobId = launched.body.data.jobId as string;
    expect(await balance()).toBe(before - 1);
    await waitFor(
      "the review pause",
      async () => (await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.suspended" } })) > 0,
    );

    // Hammer GET /workflow/hitl while the sweep runs, until the job is expired.
    const answers: any[] = [];
    const deadline = Date.now() + 10_000;
    for (;;) {
      const batch = await Promise.all(Array.from({ length: 4 }, () => user.client.get(`/workflow/hitl?jobId=${jobId}`)));
      for (const res of batch) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        answers.push(res.body.data);
      }
      if (batch.every((res) => res.body.data.status === "failed") || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 40));
    }
    // And once more after the 2 s of the contract's example.
    await new Promise((r) => setTimeout(r, 2000));
    const state = (await user.client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
    expect(state).toMatchObject({ jobId, status: "failed", review: { state: "expired", decidedAt: expect.any(String) } });
    expect(answers.at(-1).status).toBe("failed");
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "failed", reviewDecision: "expired" });
    expect(job.error).toMatch(/^Review expired/);
    expect(job.refundedAt).not.toBeNull();

    expect((await refundsOf(jobId)).map((r) => r.delta)).toEqual([1]);
    expect(await app.services.prisma.jobEvent.count({ where: { jobId, kind: "workflow.failed" } })).toBe(1);
    expect(await balance()).toBe(before);
    await expectLedgerConsistent();

    const late = await user.client.post("/workflow/hitl", { jobId, action: "approve" });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/review expired and the credits were refunded/);
    // Nothing was rendered.
    expect(await app.services.prisma.jobStep.count({ where: { jobId, name: { startsWith: "render:" } } })).toBe(0);
  });
});
