// Knowledge that generation really uses: passages indexed with PostgreSQL full-text search rank the one
// that answers a question first; and a fact that only an uploaded document holds reaches the ad's
// storyboard, with the passage listed in `result.sources`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchPassages, splitPassages } from "../src/modules/knowledge/passages.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { makeDocx, settled, uploadKnowledge } from "./support/knowledge-files.ts";

let app: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "4" });
  user = await signUp(app, "knowledge-retrieval");
  stranger = await signUp(app, "knowledge-retrieval-other");
});
afterAll(() => app?.close());

const HANDBOOK = [
  "Brewly company handbook.",
  "Our office dog is called Pixel and she sleeps under the espresso machine.",
  "Shipping: orders leave the Bergen warehouse within two working days, by bicycle courier inside the city.",
  "Refunds are paid back to the original card within 14 days of the return arriving.",
  "Caffeine: each Brewly can holds 212 mg of caffeine, measured by Eurofins in March.",
  "The founders met at a jazz festival in Molde.",
].join("\n\n");

async function waitForJob(jobId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("retrieval", () => {
  let itemId: string;
  beforeAll(async () => {
    const up = await uploadKnowledge(app, user, await makeDocx(HANDBOOK.split("\n\n")), "handbook.docx");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    itemId = up.body.data.id;
    expect((await settled(user, itemId)).status).toBe("ready");
    // One passage per paragraph: ranking has to choose.
    expect(await app.services.prisma.knowledgePassage.count({ where: { itemId } })).toBe(6);
  });

  it("splits long text into passages of a few sentences", () => {
    const passages = splitPassages(`${"A sentence about coffee. ".repeat(60)}\n\nThe end.`);
    expect(passages.length).toBeGreaterThan(1);
    expect(Math.max(...passages.map((p) => p.length))).toBeLessThanOrEqual(600);
  });

  it.each([
    ["how much caffeine is in a Brewly can?", "212 mg of caffeine"],
    ["when will my refund be paid back?", "within 14 days"],
    ["how quickly are orders shipped from the warehouse", "Bergen warehouse"],
  ])("ranks the passage that answers %j first", async (question, answer) => {
    const ranked = await searchPassages(app.services.prisma, user.id, question);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked[0]!.passage).toContain(answer);
    for (const other of ranked.slice(1)) expect(other.rank).toBeLessThanOrEqual(ranked[0]!.rank);
    expect(ranked[0]).toMatchObject({ itemId, name: "handbook.docx" });
  });

  it("ranks the answer above other passages that share a word with the question", async () => {
    const ranked = await searchPassages(app.services.prisma, user.id, "how much caffeine is in a Brewly can?");
    expect(ranked.map((r) => r.passage.slice(0, 20))).toEqual(["Caffeine: each Brewl", "Brewly company handb"]);
    expect(ranked[0]!.rank).toBeGreaterThan(ranked[1]!.rank);
  });

  it("searches only the account's own knowledge", async () => {
    expect(await searchPassages(app.services.prisma, stranger.id, "caffeine in a can")).toEqual([]);
  });

  it("puts a fact only the document holds into the storyboard, and lists its source", { timeout: 180_000 }, async () => {
    await user.client.post("/user/brand", { name: "Brewly", productDescription: "Cold brew coffee in a can." });
    const launched = await user.client.post("/workflow", {
      type: "staticad",
      concept: "Brewly cold brew: the caffeine kick for night-shift nurses, in a can.",
      formats: ["1:1"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    const lines = job.result.storyboard.scenes.flatMap((s: any) => [s.headline, s.body].filter(Boolean)).join("\n");
    // "212 mg" is in the uploaded handbook only: not in the concept, the brand or any page.
    expect(lines).toMatch(/212 mg of caffeine/);
    expect(job.result.sources[0]).toEqual({ itemId, name: "handbook.docx", passage: expect.stringContaining("212 mg of caffeine") });
  });

  it("leaves the knowledge out once the document is deleted", { timeout: 180_000 }, async () => {
    expect((await user.client.delete(`/user/brand/knowledge/${itemId}`)).status).toBe(200);
    const launched = await user.client.post("/workflow", {
      type: "staticad",
      concept: "Brewly cold brew: the caffeine kick for night-shift nurses, in a can.",
      formats: ["1:1"],
    });
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    expect(JSON.stringify(job.result.storyboard)).not.toMatch(/212 mg/);
    expect(job.result.sources).toBeUndefined();
  });
});
