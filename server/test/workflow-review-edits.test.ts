// Review that changes the ad: the reviewer sees the creative score, edits scene text, reorders and drops
// scenes, and approval renders exactly what was approved.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let user: Account;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1" });
  user = await signUp(app, "review-edits");
});
afterAll(() => app?.close());

async function waitForStatus(jobId: string, statuses: string[], timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("editing the storyboard in review", () => {
  it("renders the scenes the reviewer kept, in their order, with their text", { timeout: 120_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      hitl: true,
      concept: 'Cold brew in ten seconds. Rated 4.9 by 12,000 nurses. CTA: "Order a trial pack"',
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    await waitForStatus(jobId, ["awaiting_review"]);
    const review = (await user.client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
    expect(review.storyboard.creativeScore).toMatchObject({ max: 100, score: expect.any(Number) });
    expect(review.storyboard.creativeScore.checks).toHaveLength(7);
    const scenes = review.storyboard.scenes as { id: string; headline: string; cta?: string }[];
    expect(scenes.length).toBeGreaterThanOrEqual(3);

    // Refused edits change nothing.
    const unknown = await user.client.post("/workflow/hitl", { jobId, action: "approve", scenes: [{ id: "scene-99" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("scenes.0.id: scene-99 is not a scene of this storyboard");
    const withReject = await user.client.post("/workflow/hitl", { jobId, action: "reject", scenes: [{ id: scenes[0]!.id }] });
    expect(withReject.status).toBe(400);
    expect((await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data.status).toBe("awaiting_review");

    // Keep the last scene first with a new headline, drop the middle ones, keep the first.
    const last = scenes.at(-1)!;
    const approved = await user.client.post("/workflow/hitl", {
      jobId,
      action: "approve",
      scenes: [
        { id: last.id, headline: "Nightowl: brewed for the night shift" },
        { id: scenes[0]!.id, body: null },
      ],
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.storyboard.scenes.map((s: { id: string }) => s.id)).toEqual([last.id, scenes[0]!.id]);

    const job = await waitForStatus(jobId, ["completed", "failed"]);
    expect(job.status, job.error).toBe("completed");
    const rendered = job.result.storyboard.scenes;
    expect(rendered.map((s: { headline: string }) => s.headline)).toEqual(["Nightowl: brewed for the night shift", scenes[0]!.headline]);
    expect(rendered[0].cta).toBe("Order a trial pack");
    expect(rendered[1].body).toBeUndefined();
    // The ad keeps its length, shared by the kept scenes; the score follows the edit.
    expect(rendered.reduce((sum: number, s: { durationSec: number }) => sum + s.durationSec, 0)).toBeCloseTo(
      job.result.assets[0].duration,
      0,
    );
    expect(job.result.creativeScore.checks.find((c: { id: string }) => c.id === "hook").reason).toContain(
      "Nightowl: brewed for the night shift",
    );
  });

  it("GraphQL and tRPC take the same edits (typed)", async () => {
    const res = await graphql(
      app.url,
      `mutation { workflowHitlDecide(jobId: "nope", action: approve, scenes: [{ id: "scene-1", headline: "x" }]) { jobId } }`,
      {},
      user.jwt,
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
