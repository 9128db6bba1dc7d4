// Options that change the price change the output, or the launch refuses them before charging:
// `models.*` must name a model of GET /config/studio (400 naming the field on REST, tRPC and GraphQL),
// `publish` needs a connected social account (400), `quality: premium` renders at a measurably higher
// bitrate (ffprobe), and a provider preference this instance cannot use is said in the result's
// warnings. GET /models/status lists as active only what a job can use here.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStudioRenderer, type Storyboard } from "../src/modules/render/index.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { locateFfprobe, probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);

/** Bits per second of the file's first video and audio streams, as ffprobe reports them. */
async function bitRates(path: string): Promise<{ video: number; audio: number }> {
  const { stdout } = await run(locateFfprobe(), ["-v", "error", "-print_format", "json", "-show_streams", path]);
  const streams = (JSON.parse(stdout) as { streams: { codec_type: string; bit_rate?: string }[] }).streams;
  const rate = (type: string) => Number(streams.find((s) => s.codec_type === type)?.bit_rate ?? Number.NaN);
  return { video: rate("video"), audio: rate("audio") };
}

const PROVIDER_NAMES = ["fal", "fal-ai", "replicate", "runway", "kling", "luma", "pika", "elevenlabs", "openai", "stability"];

function expectNoProviderName(text: string) {
  for (const provider of PROVIDER_NAMES) expect(text).not.toMatch(new RegExp(`\\b${provider}\\b`, "i"));
}

let app: TestApp;
let dir: string;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "0" });
  dir = mkdtempSync(join(tmpdir(), "adgen-options-"));
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function nothingCharged(user: Account) {
  expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);
  expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(0);
  expect(await app.services.prisma.creditLedgerEntry.count({ where: { userId: user.id, reason: { not: "signup_grant" } } })).toBe(0);
}

describe("what this instance offers", () => {
  it("GET /config/studio lists only the built-in studio's models, named for users", async () => {
    const res = await new RestClient(app.url).get("/config/studio");
    expect(res.status).toBe(200);
    expect(res.body.data.models).toEqual({
      image: [{ id: "studio-stills", name: "Studio stills", tiers: ["standard", "premium"], default: true }],
      video: [{ id: "studio-motion", name: "Studio motion", tiers: ["standard", "premium"], default: true }],
      voice: [{ id: "studio-voice", name: "Studio voice", tiers: ["standard", "premium"], default: true }],
    });
    expectNoProviderName(JSON.stringify(res.body.data.models));
  });

  it("GET /models/status is the exact list of what works here, categories and tiers only", async () => {
    const res = await new RestClient(app.url).get("/models/status");
    expect(res.status).toBe(200);
    const { capabilities, stats, recentUpgrades } = res.body.data;
    expect(
      capabilities.map((c: { name: string; category: string; tier: string; status: string }) => [c.name, c.category, c.tier, c.status]),
    ).toEqual([
      ["Studio video", "video", "standard", "active"],
      ["Studio video, premium", "video", "premium", "active"],
      ["Studio stills", "image", "standard", "active"],
      ["Studio stills, premium", "image", "premium", "active"],
      ["Art direction", "language", "standard", "active"],
      ["Voice-over", "voice", "standard", "active"],
    ]);
    // Nothing this instance cannot use is listed, and nothing says "unavailable" (SPEC 2.7: active, deprecated).
    expect(JSON.stringify(res.body.data)).not.toMatch(/unavailable/);
    const byFeature = (feature: string) => capabilities.filter((c: { features: string[] }) => c.features.includes(feature));
    expect(byFeature("text-to-speech").map((c: { name: string }) => c.name)).toEqual(["Voice-over"]);
    for (const feature of ["text-to-video", "upscale", "text-to-image", "word-timings"]) expect(byFeature(feature), feature).toEqual([]);
    expect(stats).toEqual({ totalCapabilities: 6, recentlyUpdated: 2, categories: 4 });
    for (const upgrade of recentUpgrades) {
      expect(capabilities.find((c: { name: string }) => c.name === upgrade.name)?.status).toBe("active");
    }
    expectNoProviderName(JSON.stringify(res.body.data));
  });

  it("GET /config/pricing says what premium buys, in words", async () => {
    const res = await new RestClient(app.url).get("/config/pricing");
    expect(res.status).toBe(200);
    expect(res.body.data.qualityTiers.map((t: { id: string }) => t.id)).toEqual(["standard", "premium"]);
    const premium = res.body.data.qualityTiers[1];
    expect(premium.name).toBe("Premium");
    expect(premium.description).toMatch(/higher bitrate/);
    expect(premium.description).toMatch(/second still/);
  });
});

describe("options the launch refuses before charging", () => {
  const LAUNCH = (args: string) => `mutation { workflowLaunch(type: cinematic, ${args}) { jobId cost } }`;
  const ESTIMATE = (args: string) => `query { workflowEstimate(type: cinematic, ${args}) { cost } }`;

  async function refusedEverywhere(
    user: Account,
    body: Record<string, unknown>,
    gqlArgs: string,
    field: string,
    message: RegExp,
  ): Promise<void> {
    const rest = await user.client.post("/workflow", { type: "cinematic", ...body });
    expect(rest.status, JSON.stringify(rest.body)).toBe(400);
    expect(rest.body.error).toMatch(message);
    const estimate = await user.client.post("/workflow/estimate", { type: "cinematic", ...body });
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(400);
    expect(estimate.body.error).toMatch(message);

    const api = trpcClient(app.url, user.jwt);
    for (const call of [
      () => api.workflow.launch.mutate({ type: "cinematic", ...body }),
      () => api.workflow.estimate.query({ type: "cinematic", ...body }),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      const e = error as TRPCClientError<any>;
      expect(e.data?.code).toBe("BAD_REQUEST");
      expect(e.message).toMatch(message);
      expect(e.data?.fields).toEqual([{ field, message: expect.stringMatching(message) }]);
    }

    for (const query of [LAUNCH(gqlArgs), ESTIMATE(gqlArgs)]) {
      const gql = await graphql(app.url, query, {}, user.jwt);
      expect(
        gql.body.errors?.map((e) => ({ message: e.message, code: e.extensions?.code })),
        JSON.stringify(gql.body),
      ).toEqual([{ message: expect.stringMatching(message), code: "BAD_REQUEST" }]);
    }
    await nothingCharged(user);
  }

  it("an unknown video model answers 400 naming models.video and the allowed ids", async () => {
    const user = await signUp(app, "options-video");
    await refusedEverywhere(
      user,
      { models: { video: "hyper-real-9000" }, quality: "premium" },
      `models: { video: "hyper-real-9000" }, quality: premium`,
      "models.video",
      /^The video model "[^"]*" is not available here: choose one of studio-motion\b/,
    );
  });

  it("an unknown image model answers 400 naming models.image", async () => {
    const user = await signUp(app, "options-image");
    await refusedEverywhere(
      user,
      { models: { image: "photoreal" } },
      `models: { image: "photoreal" }`,
      "models.image",
      /^The image model "[^"]*" is not available here: choose one of studio-stills\b/,
    );
  });

  it("an unknown voice answers 400 naming models.voice", async () => {
    const user = await signUp(app, "options-voice");
    await refusedEverywhere(
      user,
      { models: { voice: "celebrity-voice" } },
      `models: { voice: "celebrity-voice" }`,
      "models.voice",
      /^The voice "[^"]*" is not available here: choose one of studio-voice\b/,
    );
  });

  it("publish: true answers 400: no social account is connected", async () => {
    const user = await signUp(app, "options-publish");
    await refusedEverywhere(
      user,
      { publish: true },
      "publish: true",
      "publish",
      /^No social account is connected: connect one before publishing/,
    );
  });

  it("the studio's own models are accepted and charged at the listed price", async () => {
    const user = await signUp(app, "options-known");
    const res = await user.client.post("/workflow", {
      type: "cinematic",
      models: { video: "studio-motion", image: "studio-stills" },
      publish: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.creditsUsed).toBe(1);
    const estimate = await user.client.post("/workflow/estimate", {
      type: "cinematic",
      quality: "premium",
      models: { video: "studio-motion" },
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body.data.cost).toBe(2);
  });
});

const storyboard: Storyboard = {
  title: "Premium check",
  brand: { name: "Acme Coffee Co.", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#f1faee" },
  scenes: [
    {
      id: "a",
      durationSec: 1.5,
      headline: "Wake up to better coffee",
      body: "Single-origin beans, delivered in 48 hours.",
      background: "#1d3557",
      accent: "#e63946",
      transition: "fade",
    },
    { id: "b", durationSec: 1.5, headline: "Order now", cta: "Shop now", background: "#f1faee", accent: "#e63946", transition: "slide" },
  ],
};

describe("premium renders measurably better", () => {
  it("the same storyboard at premium has a higher video and audio bitrate than at standard", { timeout: 120_000 }, async () => {
    const renderer = createStudioRenderer();
    const rates: Record<string, { video: number; audio: number }> = {};
    for (const quality of ["standard", "premium"] as const) {
      const out = await renderer.render({ storyboard, format: "1:1", outputDir: join(dir, quality), fileStem: "ad", quality });
      const probed = await probe(out.videoPath);
      // Standard is 720p at 30 fps, premium 1080p at 60 fps (render-tiers.test.ts).
      const tier =
        quality === "premium" ? { width: 1080, height: 1080, frameRate: "60/1" } : { width: 720, height: 720, frameRate: "30/1" };
      expect(probed).toMatchObject({ ...tier, videoCodec: "h264", audioCodec: "aac" });
      rates[quality] = await bitRates(out.videoPath);
    }
    const { standard, premium } = rates as { standard: { video: number; audio: number }; premium: { video: number; audio: number } };
    expect(premium.video, JSON.stringify(rates)).toBeGreaterThan(standard.video * 1.25);
    // The music bed is simple, so the encoder uses well under either budget; premium still spends more.
    expect(premium.audio, JSON.stringify(rates)).toBeGreaterThan(standard.audio);
    // Left out, quality is standard: the same encode as before. Both are constant-bitrate at standard's rate, so
    // they measure within a percent or two of each other (x264's threads and HRD filler vary the last few kb/s),
    // far from premium's.
    const plain = await renderer.render({ storyboard, format: "1:1", outputDir: join(dir, "plain"), fileStem: "ad" });
    const plainVideo = (await bitRates(plain.videoPath)).video;
    expect(Math.abs(plainVideo - standard.video) / standard.video, JSON.stringify({ plainVideo, ...rates })).toBeLessThan(0.02);
    expect(premium.video).toBeGreaterThan(plainVideo * 1.25);
  });
});

describe("jobs through the API honour the options", () => {
  let runner: TestApp;
  let user: Account;
  beforeAll(async () => {
    runner = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" });
    user = await signUp(runner, "options-runs");
    await givePresenter(runner, user.jwt);
    const granted = await (await adminClient(runner)).post(`/admin/users/${user.id}/credits`, { amount: 40, reason: "options tests" });
    expect(granted.status).toBe(200);
  });
  afterAll(() => runner?.close());

  async function launch(body: Record<string, unknown>) {
    const res = await user.client.post("/workflow", { async: false, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status, JSON.stringify(res.body)).toBe("completed");
    return res.body.data.result;
  }

  async function download(url: string, name: string): Promise<string> {
    const res = await fetch(`${runner.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
    expect(res.status).toBe(200);
    const path = join(dir, name);
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    return path;
  }

  it("a premium job's video has a higher bitrate than the same standard job's; both record their models", {
    timeout: 180_000,
  }, async () => {
    const body = { type: "cinematic", concept: "Cold brew for night owls", formats: ["1:1"], models: { video: "studio-motion" } };
    const standard = await launch(body);
    const premium = await launch({ ...body, quality: "premium" });
    for (const [result, quality] of [
      [standard, "standard"],
      [premium, "premium"],
    ] as const) {
      expect(result.models).toEqual({ image: "studio-stills", video: "studio-motion" });
      expect(result.quality).toBe(quality);
      expect(result.warnings).toEqual([]);
      // Premium adds one more cut per format, opening on another hook (premium-variant.test.ts).
      expect(result.assets.map((a: { variant?: string }) => a.variant ?? null)).toEqual(quality === "premium" ? [null, "B"] : [null]);
    }
    const standardRates = await bitRates(await download(standard.finalVideo, "job-standard.mp4"));
    const premiumRates = await bitRates(await download(premium.finalVideo, "job-premium.mp4"));
    expect(premiumRates.video, JSON.stringify({ standardRates, premiumRates })).toBeGreaterThan(standardRates.video * 1.25);
    expect(premiumRates.audio).toBeGreaterThan(standardRates.audio);
    const balance = (await user.client.get("/user/credits")).body.data.balance;
    expect(balance).toBe(50 - 1 - 2);
  });

  it("a premium image ad has a second still per format, the closing scene; standard has one", { timeout: 120_000 }, async () => {
    const body = { type: "cinematic", concept: "Cold brew for night owls", formats: ["1:1", "9:16"], imagesOnly: true };
    const standard = await launch(body);
    const premium = await launch({ ...body, quality: "premium" });
    const shape = (result: { assets: { type: string; format: string }[] }) => result.assets.map((a) => [a.type, a.format]);
    expect(shape(standard)).toEqual([
      ["image", "1:1"],
      ["image", "9:16"],
    ]);
    expect(shape(premium)).toEqual([
      ["image", "1:1"],
      ["image", "9:16"],
      ["image", "1:1"],
      ["image", "9:16"],
    ]);
    expect(premium.models).toEqual({ image: "studio-stills" });
    expect(premium.finalVideo).toBeNull();
    const urls = premium.assets.map((a: { url: string }) => a.url);
    expect(new Set(urls).size).toBe(4);
    for (const [i, size] of [
      [2, [1080, 1080]],
      [3, [1080, 1920]],
    ] as const) {
      const res = await fetch(`${runner.url}${new URL(urls[i]).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
      expect(res.status).toBe(200);
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(size);
    }
  });

  it("a preferred provider this instance cannot use: the studio makes the ad and the result says so", { timeout: 120_000 }, async () => {
    const set = await user.client.post("/user/provider-preference", { preference: "replicate" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const result = await launch({ type: "cinematic", formats: ["1:1"], models: { voice: "studio-voice" } });
    expect(result.finalVideo).toMatch(/\.mp4$/);
    expect(result.warnings).toEqual([
      "The preferred generation provider is not configured; the built-in studio made this ad",
      "models.voice was not used: cinematic ads have no voice-over",
    ]);
    expect(result.models).toEqual({ image: "studio-stills", video: "studio-motion" });
    expectNoProviderName(JSON.stringify(result.warnings));
    await user.client.post("/user/provider-preference", { preference: "auto" });
  });

  it("a narrated ad records the voice that spoke it", { timeout: 120_000 }, async () => {
    const result = await launch({ type: "avatar", formats: ["1:1"], models: { voice: "studio-voice" } });
    expect(result.models).toEqual({ image: "studio-stills", video: "studio-motion", voice: "studio-voice" });
    expect(result.warnings).toEqual([]);
  });
});
