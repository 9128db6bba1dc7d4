// A brief read as a brief, end to end: a concept that mixes direction, tone, copy and a quoted tagline
// gives an ad whose on-screen text and narration say the copy and the tagline word for word and none of
// the direction or tone; the result lists how each sentence was read. The structured brief (hook,
// benefits, proof, offer, cta, direction) works on REST beside or instead of the concept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { settledJob } from "./support/wait-for.ts";

let app: TestApp;
let user: Account;

beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "15", SIGNUP_CREDITS: "200" });
  user = await signUp(app, "brief");
  await givePresenter(app, user.jwt);
  // Influencer (a narrated type) is not offered on the trial plan.
  await app.services.prisma.user.update({ where: { id: user.id }, data: { currentPlanId: "subscription_pro" } });
});
afterAll(async () => {
  await app?.close();
});

const local = (url: string) => `${app.url}${new URL(url).pathname}`;

async function waitForJob(jobId: string): Promise<any> {
  const job = await settledJob(user.client, jobId);
  if (job.status === "failed") throw new Error(`job failed: ${job.error}`);
  return job;
}

// A rating or an offer may be shown as a badge beside the copy (scene.stickers), in the brief's words.
type Scene = { headline: string; body?: string; cta?: string; stickers?: { text: string }[] };
const onScreen = (job: any) =>
  [
    job.result.storyboard.title,
    ...(job.result.storyboard.scenes as Scene[]).flatMap((s) => [s.headline, s.body, s.cta, ...(s.stickers ?? []).map((k) => k.text)]),
  ]
    .filter(Boolean)
    .join(" | ");

const TAGLINE = "Cold for the long way up.";
const COPY = "Keeps water ice-cold for 24 hours";
const DIRECTION = [
  "A friendly trail guide talks.",
  "Slow push-ins on the condensation on the steel, then the view from the top.",
  "Show the bottle big and the offer clearly.",
];
const TONE = "Casual, honest, a bit funny.";
const CONCEPT = `${DIRECTION[0]} The Glacier bottle ${COPY.charAt(0).toLowerCase()}${COPY.slice(1)}. ${DIRECTION[1]} ${TONE} ${DIRECTION[2]} Rated 4.8 stars by 2,314 hikers. "${TAGLINE}"`;

describe("a concept that mixes direction, tone, copy and a quoted tagline", () => {
  it("puts the copy and the tagline on screen and in the narration, never the direction or the tone", { timeout: 200_000 }, async () => {
    const launched = await user.client.post("/workflow", { type: "influencer", concept: CONCEPT, formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);

    const text = onScreen(job);
    expect(text).toContain(TAGLINE);
    expect(text).toContain("Rated 4.8 stars by 2,314 hikers");
    for (const sentence of [...DIRECTION, TONE]) {
      // Not the sentence, nor a telling part of it.
      expect(text).not.toContain(sentence.replace(/\.$/, ""));
      expect(text).not.toContain(sentence.split(/[ ,]+/).slice(0, 3).join(" "));
    }

    // The narration, as its captions say it.
    const captions = (job.result.assets as { type: string; url: string }[]).find((a) => a.type === "captions")!;
    const vtt = await (await fetch(local(captions.url), { headers: { cookie: `session=${user.client.cookie}` } })).text();
    const spoken = vtt
      .split(/\n\n+/)
      .slice(1)
      .map((block) =>
        block
          .split("\n")
          .filter((line) => line && !line.includes("-->") && !/^\d+$/.test(line))
          .join(" "),
      )
      .join(" ")
      .replace(/\s+/g, " ");
    expect(spoken).toContain("Cold for the long way up");
    for (const sentence of [...DIRECTION, TONE]) expect(spoken).not.toContain(sentence.split(/[ ,]+/).slice(0, 3).join(" "));

    // The tone sets the music: warm (casual, honest), not the influencer style's default playful bed.
    expect(job.result.storyboard.mood).toBe("warm");
    expect(job.result.briefReading).toEqual([
      { sentence: TAGLINE, kind: "tagline", from: "concept" },
      { sentence: DIRECTION[0], kind: "direction", from: "concept" },
      { sentence: `The Glacier bottle keeps water ice-cold for 24 hours.`, kind: "copy", from: "concept" },
      { sentence: DIRECTION[1], kind: "direction", from: "concept" },
      { sentence: TONE, kind: "tone", from: "concept" },
      { sentence: DIRECTION[2], kind: "direction", from: "concept" },
      { sentence: "Rated 4.8 stars by 2,314 hikers.", kind: "copy", from: "concept" },
    ]);
  });
});

describe("the structured brief on REST", () => {
  it("says the hook, benefits, proof, offer and call to action as written, and none of the direction notes", {
    timeout: 120_000,
  }, async () => {
    const brief = {
      hook: "Lukewarm water again?",
      benefits: ["Ice-cold for 24 hours", "Hot for 12"],
      proof: "4.8 stars from 2,314 reviews",
      offer: "Free shipping this week",
      cta: "Get your Glacier",
      direction: "Slow push-in on the bottle. Then the view from the summit.",
    };
    const launched = await user.client.post("/workflow", { type: "cinematic", brief, formats: ["1:1"], imagesOnly: true });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);

    const text = onScreen(job);
    for (const line of [brief.hook, brief.benefits[0]!, brief.proof, brief.offer, brief.cta]) expect(text).toContain(line);
    expect(text).not.toMatch(/push-in|summit/i);
    expect(job.input.brief).toEqual(brief);
    expect(job.result.briefReading.map((r: { from: string; kind: string }) => `${r.from}:${r.kind}`)).toEqual([
      "hook:copy",
      "benefits:copy",
      "benefits:copy",
      "proof:copy",
      "offer:copy",
      "cta:cta",
      "direction:direction",
      "direction:direction",
    ]);
    // The cinematic shot list takes the move the direction asks for.
    expect(job.result.shotList[0].motion).toBe("Slow push-in");
    expect(job.result.shotList[0].prompt).toContain("Slow push-in on the bottle");
  });

  it("shows the reviewer how the brief was read, beside the storyboard", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      concept: `Cold brew in ten seconds. ${TONE}`,
      brief: { direction: "Open on a close-up of the pour." },
      formats: ["1:1"],
      hitl: true,
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId;
    let review: any;
    const deadline = Date.now() + 50_000;
    while (!review?.storyboard && Date.now() < deadline) {
      review = (await user.client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
      if (!review?.storyboard) await new Promise((r) => setTimeout(r, 250));
    }
    expect(review.storyboard.briefReading).toEqual([
      { sentence: "Cold brew in ten seconds.", kind: "copy", from: "concept" },
      { sentence: TONE, kind: "tone", from: "concept" },
      { sentence: "Open on a close-up of the pour.", kind: "direction", from: "direction" },
    ]);
  });

  it.each([
    [{ benefits: "Cold for 24 hours" }, /^The brief's benefits must be a list of lines/],
    [{ cta: "x".repeat(61) }, /^The brief's call to action must be at most 60 characters/],
    [{ headline: "Hi" }, /brief/i],
  ])("refuses a malformed brief %j with a 400 that says what to fix", async (brief, message) => {
    const res = await user.client.post("/workflow", { type: "cinematic", concept: "Cold brew", brief });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(message.source.startsWith("^") ? new RegExp(message.source.slice(1)) : message);
  });

  it("is taken and checked the same way over GraphQL and tRPC", { timeout: 60_000 }, async () => {
    const LAUNCH = `mutation($brief: StructuredBriefInput) {
      workflowLaunch(type: cinematic, concept: "Cold brew", formats: ["1:1"], imagesOnly: true, brief: $brief) { jobId }
    }`;
    const ok = await graphql(app.url, LAUNCH, { brief: { hook: "Too hot for hot coffee?", direction: "Open on the pour." } }, user.jwt);
    expect(ok.body.errors).toBeUndefined();
    const job = await waitForJob(ok.body.data.workflowLaunch.jobId);
    expect(onScreen(job)).toContain("Too hot for hot coffee?");
    expect(onScreen(job)).not.toContain("Open on the pour");
    const bad = await graphql(app.url, LAUNCH, { brief: { cta: "x".repeat(61) } }, user.jwt);
    expect(bad.body.errors?.map((e: any) => [e.message, e.extensions?.code])).toEqual([
      ["The brief's call to action must be at most 60 characters", "BAD_REQUEST"],
    ]);

    const api = trpcClient(app.url, user.jwt);
    const launched = await api.workflow.launch.mutate({
      type: "cinematic",
      formats: ["1:1"],
      imagesOnly: true,
      brief: { offer: "Free shipping this week" },
    });
    expect(onScreen(await waitForJob(launched.jobId))).toContain("Free shipping this week");
    const error = await api.workflow.launch.mutate({ type: "cinematic", brief: { benefits: ["x".repeat(201)] } }).then(
      () => null,
      (e: any) => ({ message: e.message, code: e.data?.code }),
    );
    expect(error).toEqual({ message: "The brief's benefits must be at most 200 characters", code: "BAD_REQUEST" });
  });
});
