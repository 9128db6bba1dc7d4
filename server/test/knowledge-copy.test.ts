// Knowledge facts fill the slots they suit: an uploaded TXT's shipping, returns and rating reach the ad's
// offer and proof scenes, listed in `result.sources` with their passage; retrieval ranks against this
// brief, so two briefs of one brand draw on different passages; and no storyboard line is cut short.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeForBrief } from "../src/modules/knowledge/retrieve.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { makeDocx, settled, uploadKnowledge } from "./support/knowledge-files.ts";
import { settledJob } from "./support/wait-for.ts";

let app: TestApp;
let user: Account;
let factsId: string;
let guideId: string;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "6" });
  user = await signUp(app, "knowledge-copy");
  const facts = await uploadKnowledge(
    app,
    user,
    new TextEncoder().encode("Ships in 24 hours. 30-day free returns. Rated 4.8 stars from 2,314 reviews."),
    "facts.txt",
    "text/plain",
  );
  expect(facts.status, JSON.stringify(facts.body)).toBe(200);
  factsId = facts.body.data.id;
  const guide = await uploadKnowledge(
    app,
    user,
    await makeDocx([
      "Glacier bottles are insulated with a vacuum double wall of 18/8 stainless steel.",
      "Hikers carry the one-litre bottle on alpine trails: it keeps water cold for 24 hours.",
      "Cyclists clip the slim bottle into any cage, and the sports lid opens with one hand.",
      "Office workers keep coffee hot through long meetings in the 500 ml desk tumbler.",
      "Parents pack the kids' bottle: leak-proof, dishwasher safe, and light enough for school bags.",
      "Our founders built the first bottle in a garage in Tromsø in 2016.",
    ]),
    "guide.docx",
  );
  expect(guide.status, JSON.stringify(guide.body)).toBe(200);
  guideId = guide.body.data.id;
  expect((await settled(user, factsId)).status).toBe("ready");
  expect((await settled(user, guideId)).status).toBe("ready");
  await user.client.post("/user/brand", {
    name: "Glacier Bottle Co.",
    productDescription: "Insulated stainless steel water bottles.",
  });
});
afterAll(() => app?.close());

const waitForJob = (jobId: string) => settledJob(user.client, jobId);

describe("knowledge in the copy", () => {
  it("two different briefs of one brand retrieve different passages", async () => {
    const brand = { brandName: "Glacier Bottle Co.", productDescription: "Insulated stainless steel water bottles." };
    const hikers = await knowledgeForBrief(app.services.prisma, user.id, { concept: "Cold water on alpine trails for hikers.", brand });
    const office = await knowledgeForBrief(app.services.prisma, user.id, { concept: "Hot coffee through long office meetings.", brand });
    expect(hikers.sources[0]?.passage).toMatch(/alpine trails/);
    expect(office.sources[0]?.passage).toMatch(/long meetings/);
    const passages = (k: typeof hikers) => k.sources.map((s) => s.passage).sort();
    expect(passages(hikers)).not.toEqual(passages(office));
  });

  it("puts the uploaded shipping, returns and rating into the ad's offer and proof scenes, each listed in result.sources", {
    timeout: 200_000,
  }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "staticad",
      framework: "uvp",
      concept: "A water bottle for hikers that keeps water cold on alpine trails. How long does it keep?",
      formats: ["1:1"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    const scenes = job.result.storyboard.scenes as { id: string; headline: string; body?: string; cta?: string }[];
    const text = (s: (typeof scenes)[number]) => [s.headline, s.body].filter(Boolean).join("\n");
    // Proof in the proof slot, the offer beside the call to action.
    const proof = scenes.find((s) => s.id.endsWith("-proof"));
    expect(proof && text(proof), JSON.stringify(scenes)).toMatch(/4\.8 stars from 2,314 reviews/);
    const action = scenes.at(-1)!;
    expect(action.cta).toBeTruthy();
    expect(text(action)).toMatch(/Ships in 24 hours|30-day free returns/);
    // Every fact on screen is listed with the passage it came from.
    expect(job.result.sources).toContainEqual({ itemId: factsId, name: "facts.txt", passage: expect.stringContaining("2,314 reviews") });
    for (const line of scenes.flatMap((s) => [s.headline, s.body, s.cta].filter(Boolean) as string[])) {
      expect(line).not.toMatch(/…$|\.\.$|\.\.\.$/);
      expect(line).not.toMatch(/Glacier Bottle Co\.\./);
    }
  });
});
