// Generated clips inside jobs: with a video service's key, `models.video` generated-video animates
// each scene into a clip per frame shape and talking-presenter makes the user's presenter speak the
// voice-over; the job submits, lets go of its worker while the service works, comes back by polling or by
// the service's signed webhook, and composes the clips into every format. A review pauses before any clip
// is generated; an outage or a refusal fails the job with a refund; the cost guard refuses a launch its
// credits cannot pay for. fal's queue API and Replicate's predictions are answered by msw in their
// documented shapes.
import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/index.ts";
import { type Account, eventually, signUp } from "./support/accounts.ts";
import { frameAt, isBlue, isGreen, isMagenta, share } from "./support/frames.ts";
import {
  clipsSince,
  falRequests,
  prepareVideoService,
  replicateRequests,
  resetVideoService,
  service,
  videoServiceHandlers,
  WEBHOOK_SECRET,
} from "./support/fake-video-service.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);
const PROVIDER_NAMES = /fal\.|fal-ai|\bfal\b|replicate|kling|omni-?human|bytedance/i;
const network = setupServer(...videoServiceHandlers);

let plain: TestApp;
let app: TestApp;
let hooked: TestApp;
let dir: string;

const ENV = {
  WORKERS: "1",
  SIGNUP_CREDITS: "100",
  STUDIO_MAX_AD_SECONDS: "4",
  JOB_RETRY_LIMIT: "1",
  JOB_RETRY_DELAY_SECONDS: "0",
  PROVIDER_POLL_SECONDS: "1",
  // Half a cent a second: a one-credit ad can pay for its clips in two frame shapes.
  PROVIDER_COST_VIDEO_CENTS_PER_SECOND: "0.5",
  PROVIDER_COST_PRESENTER_CENTS_PER_SECOND: "2",
};

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  dir = mkdtempSync(join(tmpdir(), "adgen-clip-jobs-"));
  await prepareVideoService(dir);

  [plain, app, hooked] = await Promise.all([
    startTestApp({ ...ENV }),
    startTestApp({ ...ENV, FAL_KEY: "fal-test-key", REPLICATE_API_TOKEN: "r8-test", PRESENTER_STOCK_AVATAR: "emily_vertical_primary" }),
    // An instance with a public address: the service calls back, and polling alone would take ten minutes.
    startTestApp({ ...ENV, REPLICATE_API_TOKEN: "r8-test", PUBLIC_URL: "https://ads.example.com", PROVIDER_POLL_SECONDS: "600" }),
  ]);
});
afterEach(resetVideoService);
afterAll(async () => {
  await Promise.all([plain?.close(), app?.close(), hooked?.close()]);
  network.close();
  rmSync(dir, { recursive: true, force: true });
});

const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;

async function waitForEnd(account: Account, jobId: string, timeoutMs = 150_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job?.status === "completed" || job?.status === "failed" || job?.status === "awaiting_review") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job?.status} at ${job?.step}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function launch(account: Account, body: object): Promise<string> {
  const res = await account.client.post("/workflow", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId as string;
}

async function download(target: TestApp, account: Account, url: string): Promise<string> {
  const address = `${target.url}${new URL(url).pathname}`;
  const init = { headers: { cookie: `session=${account.client.cookie}` } };
  // Once more on a dropped keep-alive connection (a socket the server closed while the test waited).
  const res = await fetch(address, init).catch(() => fetch(address, init));
  expect(res.status).toBe(200);
  const file = join(dir, `${randomBytes(4).toString("hex")}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const DIRECTION = "Camera: slow dolly in on the bottle at dawn, then a close-up of the first sip.";
const CONCEPT = `Brewly cold brew keeps night-shift nurses sharp. ${DIRECTION} Questions to ops@brewly.example.com`;

describe("what the instance offers", () => {
  it("lists generated video and talking presenters only with a video service's key, never by default", async () => {
    const status = async (target: TestApp) => (await (await fetch(`${target.url}/api/models/status`)).json()).data;
    const names = (s: any) => s.capabilities.map((c: any) => c.name);
    expect(names(await status(plain))).not.toContain("Generated video");
    expect(names(await status(app))).toEqual(expect.arrayContaining(["Generated video", "Talking presenter"]));
    expect(JSON.stringify(await status(app))).not.toMatch(PROVIDER_NAMES);
    const studio = (await (await fetch(`${app.url}/api/config/studio`)).json()).data;
    expect(studio.models.video.map((m: any) => [m.id, m.default])).toEqual([
      ["studio-motion", true],
      ["generated-video", false],
      ["talking-presenter", false],
    ]);
    const user = await signUp(plain, "noclips");
    const refused = await user.client.post("/workflow", { type: "cinematic", concept: CONCEPT, models: { video: "generated-video" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/video model "generated-video" is not available here/);
    expect(await balance(user)).toBe(100);
  });
});

describe("the prompt builder's prompt as a launch's picture and clip prompt", () => {
  const PICTURE = "Product photograph of a frosted glass bottle of cold brew on a steel hospital counter, teal rim light, 85mm";
  const CLIP = "Slow orbit around the frosted bottle as condensation beads roll down, shallow depth of field";

  it("feeds each generated picture and each generated clip, as the provider receives them", { timeout: 240_000 }, async () => {
    const user = await signUp(app, "prompts");
    const before = falRequests.length;
    const jobId = await launch(user, {
      type: "cinematic",
      concept: "Brewly cold brew keeps night-shift nurses sharp",
      formats: ["9:16"],
      models: { video: "generated-video" },
      prompts: { picture: `  ${PICTURE}  `, clip: CLIP },
    });
    const job = await waitForEnd(user, jobId);
    expect(job.status, job.error).toBe("completed");
    const sent = falRequests.slice(before);
    const pictures = sent.filter((r) => r.model.includes("flux"));
    const clipRequests = clipsSince(falRequests, before);
    expect(pictures.length).toBeGreaterThanOrEqual(1);
    expect(clipRequests.length).toBeGreaterThanOrEqual(1);
    // Trimmed, then word for word, with the scene's moment and no lettering after it.
    for (const request of pictures) expect(request.body.prompt).toMatch(new RegExp(`^${PICTURE}\\. The moment: .+No text or lettering`));
    for (const request of clipRequests) expect(request.body.prompt).toMatch(new RegExp(`^${CLIP}\\. The moment: .+No text`));
    // The launch keeps them, so Try again sends them again.
    const row = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(JSON.stringify(row.input)).toContain(CLIP);
  });

  it("is refused before charging where it would not be used: no key, the studio's models, or a bad shape", async () => {
    const keyless = await signUp(plain, "prompts-nokey");
    const noKey = await keyless.client.post("/workflow", { type: "cinematic", concept: CONCEPT, prompts: { picture: PICTURE } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toMatch(/picture prompt feeds generated pictures, which this instance does not make/);
    const noClipKey = await keyless.client.post("/workflow", { type: "cinematic", concept: CONCEPT, prompts: { clip: CLIP } });
    expect(noClipKey.status).toBe(400);
    expect(noClipKey.body.error).toMatch(/clip prompt feeds generated video, which this instance does not make/);
    expect(await balance(keyless)).toBe(100);

    const user = await signUp(app, "prompts-refused");
    const studioStills = await user.client.post("/workflow", {
      type: "cinematic",
      concept: CONCEPT,
      models: { image: "studio-stills" },
      prompts: { picture: PICTURE },
    });
    expect(studioStills.status).toBe(400);
    expect(studioStills.body.error).toMatch(/choose models\.image generated-pictures/);
    // A clip prompt needs generated video, which is never the default.
    const studioMotion = await user.client.post("/workflow", { type: "cinematic", concept: CONCEPT, prompts: { clip: CLIP } });
    expect(studioMotion.status).toBe(400);
    expect(studioMotion.body.error).toMatch(/choose models\.video generated-video/);
    for (const prompts of [{ picture: "   " }, { clip: "x".repeat(2001) }, { shot: PICTURE }]) {
      const bad = await user.client.post("/workflow", { type: "cinematic", concept: CONCEPT, prompts });
      expect(bad.status, JSON.stringify(prompts)).toBe(400);
    }
    expect(await balance(user)).toBe(100);
  });
});

describe("generated video, polled", () => {
  it("animates every scene in each frame shape and composes the clips into every format, without holding a worker", {
    timeout: 240_000,
  }, async () => {
    const user = await signUp(app, "clips");
    const other = await signUp(app, "other");
    service.hold = true;
    const before = falRequests.length;
    const jobId = await launch(user, {
      type: "cinematic",
      concept: CONCEPT,
      formats: ["9:16", "1:1"],
      models: { video: "generated-video" },
    });

    // The clips are submitted, then the job lets go of its worker while the service works.
    const waiting = await eventually(async () => {
      const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(job.awaitingProviderSince).not.toBeNull();
      expect(job.leaseOwner).toBeNull();
      return job;
    }, 90_000);
    expect(waiting.status).toBe("processing");
    const tasks = await app.services.prisma.providerTask.findMany({ where: { jobId } });
    const scenes = (await app.services.prisma.jobStep.findUniqueOrThrow({ where: { jobId_name: { jobId, name: "art_direction" } } }))
      .output as any;
    expect(tasks).toHaveLength(scenes.storyboard.scenes.length * 2);

    // The only worker is free: another account's ad is made meanwhile.
    const otherJob = await launch(other, { type: "staticad", concept: "Lumen desk lamp: light that follows your day", formats: ["1:1"] });
    expect((await waitForEnd(other, otherJob)).status).toBe("completed");
    expect((await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("processing");

    service.hold = false;
    const job = await waitForEnd(user, jobId);
    expect(job.status, job.error).toBe("completed");

    // What was sent: the scene's direction as the motion prompt, the picture to animate, each frame shape, the key.
    const sent = clipsSince(falRequests, before);
    expect(sent).toHaveLength(tasks.length);
    for (const request of sent) {
      expect(request.headers.authorization).toBe("Key fal-test-key");
      expect(request.body.prompt).toMatch(/dolly in on the bottle at dawn/i);
      expect(JSON.stringify(request.body)).not.toMatch(/ops@brewly|@brewly\.example/);
      expect(["9:16", "1:1"]).toContain(request.body.aspect_ratio);
      if (request.model.includes("image-to-video")) expect(request.body.image_url).toMatch(/^data:image\/(png|jpeg|webp);base64,/);
    }
    expect(new Set(sent.map((r) => r.body.aspect_ratio))).toEqual(new Set(["9:16", "1:1"]));
    expect(sent.every((r) => r.checks >= 1)).toBe(true);

    // Each format shows its own shape's clip: magenta in the portrait ad, green in the square one.
    const byFormat = Object.fromEntries(job.result.assets.filter((a: any) => a.type === "video").map((a: any) => [a.format, a]));
    const portrait = await download(app, user, byFormat["9:16"].url);
    const square = await download(app, user, byFormat["1:1"].url);
    const middle = { x: 0.1, y: 0.3, w: 0.8, h: 0.3 };
    expect(share(await frameAt(portrait, 0.6, 72, 128), isMagenta, middle)).toBeGreaterThan(0.3);
    expect(share(await frameAt(square, 0.6, 96, 96), isGreen, middle)).toBeGreaterThan(0.3);
    expect(byFormat["9:16"].duration).toBeGreaterThan(2);
    expect(byFormat["9:16"].duration).toBeLessThanOrEqual(4.5);

    // The job's provider cost is what the clips took; nothing names the service.
    const row = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    // (Its generated pictures cost 0.3 cents.)
    expect(row.providerCostCents).toBeCloseTo(tasks.length * 5 * 0.5 + 0.3, 5);
    expect(JSON.stringify(job)).not.toMatch(PROVIDER_NAMES);
    expect(await balance(user)).toBe(99);
  });

  it("a review pauses before any clip is generated, and a rejection costs nothing", { timeout: 120_000 }, async () => {
    const user = await signUp(app, "review");
    const before = falRequests.length;
    const jobId = await launch(user, { type: "cinematic", concept: CONCEPT, hitl: true, models: { video: "generated-video" } });
    const paused = await waitForEnd(user, jobId);
    expect(paused.status).toBe("awaiting_review");
    const review = (await user.client.get(`/workflow/hitl?jobId=${jobId}`)).body.data;
    expect(review.storyboard.scenes.every((s: any) => typeof s.preview === "string")).toBe(true);
    expect(clipsSince(falRequests, before)).toEqual([]);
    expect(await balance(user)).toBe(99);
    const rejected = await user.client.post("/workflow/hitl", { jobId, action: "reject", feedback: "Not our tone" });
    expect(rejected.status).toBe(200);
    expect(await balance(user)).toBe(100);
    expect(clipsSince(falRequests, before)).toEqual([]);

    // Approved, the clips are made from the storyboard as the reviewer left it.
    const second = await launch(user, { type: "cinematic", concept: CONCEPT, hitl: true, models: { video: "generated-video" } });
    expect((await waitForEnd(user, second)).status).toBe("awaiting_review");
    expect(clipsSince(falRequests, before)).toEqual([]);
    const scenes = (await user.client.get(`/workflow/hitl?jobId=${second}`)).body.data.storyboard.scenes as { id: string }[];
    const kept = scenes.slice(1).map((scene) => ({ id: scene.id }));
    expect((await user.client.post("/workflow/hitl", { jobId: second, action: "approve", scenes: kept })).status).toBe(200);
    const job = await waitForEnd(user, second);
    expect(job.status, job.error).toBe("completed");
    const sent = clipsSince(falRequests, before);
    expect(sent).toHaveLength(kept.length);
  });
});

describe("every video type composes its clips in its own layout", () => {
  // (Types that need a web page or an earlier project are left to their own tests: the network is closed here.)
  it.each([
    ["painpoint", 1],
    ["influencer", 8],
    ["avatar", 2],
  ])("%s", { timeout: 240_000 }, async (type, credits) => {
    const user = await signUp(app, `type-${type}`);
    // Influencer ads are for paid plans.
    await app.services.prisma.user.update({ where: { id: user.id }, data: { currentPlanId: "subscription_pro" } });
    const before = falRequests.length;
    const jobId = await launch(user, { type, concept: CONCEPT, formats: ["9:16"], models: { video: "generated-video" } });
    const job = await waitForEnd(user, jobId);
    expect(job.status, job.error).toBe("completed");
    const sent = clipsSince(falRequests, before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => /dolly in on the bottle at dawn/i.test(r.body.prompt))).toBe(true);
    const video = await download(app, user, job.result.assets.find((a: any) => a.type === "video").url);
    const frames = await Promise.all([0.6, 1.6, 2.6].map((t) => frameAt(video, t, 72, 128)));
    const shown = Math.max(...frames.map((frame) => share(frame, isMagenta)));
    expect(shown, "a generated clip is on screen").toBeGreaterThan(0.15);
    expect(JSON.stringify(job)).not.toMatch(PROVIDER_NAMES);
    expect(await balance(user)).toBe(100 - credits);
  });
});

describe("failures", () => {
  it("a service that stays down fails the job and refunds it, naming no provider", { timeout: 180_000 }, async () => {
    const user = await signUp(app, "outage");
    service.statusOutage = true;
    const jobId = await launch(user, { type: "cinematic", concept: CONCEPT, models: { video: "generated-video" } });
    const job = await waitForEnd(user, jobId);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/video service/i);
    expect(job.error).not.toMatch(PROVIDER_NAMES);
    expect(await balance(user)).toBe(100);
  });

  it("a refused clip fails the job at once, with a refund", { timeout: 180_000 }, async () => {
    const user = await signUp(app, "refused");
    service.refuse = true;
    const jobId = await launch(user, { type: "cinematic", concept: CONCEPT, models: { video: "generated-video" } });
    const job = await waitForEnd(user, jobId);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/refused/);
    expect(job.error).not.toMatch(PROVIDER_NAMES);
    expect(await balance(user)).toBe(100);
  });

  it("the cost guard refuses a launch whose clips its credits cannot pay for, before charging", async () => {
    const user = await signUp(app, "guard");
    const before = falRequests.length;
    const res = await user.client.post("/workflow", {
      type: "cinematic",
      concept: CONCEPT,
      quality: "premium",
      formats: ["9:16", "1:1", "16:9", "4:5"],
      models: { video: "generated-video" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nothing was charged: ask for fewer formats, or choose the standard tier/);
    const estimate = await user.client.post("/workflow/estimate", {
      type: "cinematic",
      concept: CONCEPT,
      formats: ["9:16"],
      models: { video: "generated-video" },
    });
    expect(estimate.status).toBe(200);
    // Five scenes at most, a five-second clip each, half a cent a second; and the generated picture.
    expect(estimate.body.data.provider).toMatchObject({ seconds: 25, pictures: 1, costCents: 12.8 });
    expect(await balance(user)).toBe(100);
    expect(clipsSince(falRequests, before)).toEqual([]);
  });
});

/** A Presenter ad with a talking presenter, completed: the job and the one clip request it sent. */
async function presenterAd(user: Account) {
  const before = falRequests.length;
  const jobId = await launch(user, { type: "avatar", concept: CONCEPT, models: { video: "talking-presenter" } });
  const job = await waitForEnd(user, jobId);
  expect(job.status, job.error).toBe("completed");
  const sent = clipsSince(falRequests, before);
  expect(sent).toHaveLength(1);
  return { job, sent };
}

describe("talking presenter", () => {
  it("needs a narrated type, and a presenter photo where no stock presenter is set up, refused before charging", async () => {
    // (This instance's video service has no stock presenters.)
    const user = await signUp(hooked, "nophoto");
    const cinematic = await user.client.post("/workflow", { type: "cinematic", concept: CONCEPT, models: { video: "talking-presenter" } });
    expect(cinematic.status).toBe(400);
    expect(cinematic.body.error).toMatch(/speaks a voice-over: choose it for the avatar/);
    const avatar = await user.client.post("/workflow", { type: "avatar", concept: CONCEPT, models: { video: "talking-presenter" } });
    expect(avatar.status).toBe(400);
    expect(avatar.body.error).toMatch(/upload one to your media library as a presenter/);
    expect(await balance(user)).toBe(100);
  });

  it("without a photo, the operator's stock presenter speaks the voice-over", { timeout: 240_000 }, async () => {
    const user = await signUp(app, "stock");
    const { job, sent } = await presenterAd(user);
    expect(sent[0]!.model).toBe("veed/avatars/audio-to-video");
    expect(sent[0]!.body).toMatchObject({ avatar_id: "emily_vertical_primary" });
    expect(sent[0]!.body.audio_url).toMatch(/^data:audio\/wav;base64,/);
    const video = await download(app, user, job.result.finalVideo);
    expect(share(await frameAt(video, 1.5, 72, 128), isBlue), "the presenter's clip is on screen").toBeGreaterThan(0.01);
    expect(JSON.stringify(job)).not.toMatch(/veed|emily/i);
  });

  it("the user's presenter speaks the voice-over, lip-synced, in the presenter slot", { timeout: 240_000 }, async () => {
    const user = await signUp(app, "presenter");
    const photo = join(dir, "presenter.jpg");
    await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "color=c=0xd0a080:s=600x800", "-frames:v", "1", "-y", photo]);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      role: "presenter",
      consent: "on",
      consentName: "Jamie Rivera",
      consentAt: "2026-11-20T10:00:00Z",
    }))
      form.append(k, v);
    form.append("file", new Blob([new Uint8Array(await readFile(photo))]), "jamie.jpg");
    const uploaded = await fetch(`${app.url}/api/user/brand/media`, {
      method: "POST",
      headers: { cookie: `session=${user.client.cookie}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);

    const { job, sent } = await presenterAd(user);
    expect(sent[0]!.model).toContain("omnihuman");
    expect(sent[0]!.body.image_url).toMatch(/^data:image\/jpeg;base64,/);
    expect(sent[0]!.body.audio_url).toMatch(/^data:audio\/wav;base64,/);

    // The presenter's clip (blue here) plays in the slot; nothing else of the ad is blue.
    const video = await download(app, user, job.result.finalVideo);
    const frame = await frameAt(video, 1.5, 72, 128);
    expect(share(frame, isBlue), "the presenter's clip is on screen").toBeGreaterThan(0.01);
    expect(await balance(user)).toBe(98);
  });
});

describe("the service's webhook", () => {
  /** A Standard Webhooks delivery, signed as Replicate signs it. */
  function signed(body: string, secret = WEBHOOK_SECRET) {
    const id = `msg_${randomBytes(6).toString("hex")}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
    return { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
  }

  it("resumes the waiting job at once; a forged call changes nothing", { timeout: 240_000 }, async () => {
    const user = await signUp(hooked, "hooked");
    service.hold = true;
    const before = replicateRequests.length;
    const jobId = await launch(user, { type: "cinematic", concept: CONCEPT, models: { video: "generated-video" } });
    await eventually(async () => {
      const job = await hooked.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(job.awaitingProviderSince).not.toBeNull();
      expect(job.leaseOwner).toBeNull();
    }, 90_000);
    const sent = clipsSince(replicateRequests, before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.headers.authorization).toBe("Bearer r8-test");
      expect(request.body.webhook).toBe("https://ads.example.com/api/webhook/clips/replicate");
      expect(request.body.webhook_events_filter).toEqual(["completed"]);
    }

    const body = JSON.stringify({ id: sent[0]!.id, status: "succeeded", output: `https://replicate.delivery/${sent[0]!.id}/out.mp4` });
    const forged = await fetch(`${hooked.url}/api/webhook/clips/replicate`, {
      method: "POST",
      headers: signed(body, `whsec_${randomBytes(24).toString("base64")}`),
      body,
    });
    expect(forged.status).toBe(400);
    expect((await hooked.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("processing");

    service.hold = false;
    const delivered = await fetch(`${hooked.url}/api/webhook/clips/replicate`, { method: "POST", headers: signed(body), body });
    expect(delivered.status).toBe(200);
    expect((await delivered.json()).data).toMatchObject({ received: true, outcome: "resumed" });
    // Polling alone would come back in ten minutes: the webhook brings the job back now.
    const job = await waitForEnd(user, jobId, 120_000);
    expect(job.status, job.error).toBe("completed");
  });
});
