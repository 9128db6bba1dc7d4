// Narrated ads: avatar (a presenter to camera) and influencer (a creator, first person) get a voice-over
// from the storyboard's copy, mixed over the music bed, with captions burned in and served as WebVTT.
// Also the built-in voice on its own (eSpeak NG in WebAssembly, offline).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/index.ts";
import { createEspeakSynthesizer, narrate, parseWav, rmsDb, writeScript } from "../src/modules/voice/index.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);
const MAX_AD_SECONDS = 8;

let app: TestApp;
let user: Account;
let dir: string;

beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: String(MAX_AD_SECONDS), SIGNUP_CREDITS: "100" });
  user = await signUp(app, "voice");
  await givePresenter(app, user.jwt);
  // Influencer is not offered on the trial plan.
  await app.services.prisma.user.update({ where: { id: user.id }, data: { currentPlanId: "subscription_pro" } });
  dir = mkdtempSync(join(tmpdir(), "adgen-voice-"));
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cookie = () => ({ cookie: `session=${user.client.cookie}` });
const local = (url: string) => `${app.url}${new URL(url).pathname}`;

async function waitForJob(jobId: string, timeoutMs = 150_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job?.status === "completed") return job;
    if (job?.status === "failed") throw new Error(`job failed: ${job.error}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${jobId} (${job?.status} ${job?.step})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Mean volume (dB) of the audio between `from` and `to` seconds, by ffmpeg's volumedetect. */
async function meanVolume(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run(
    locateFfmpeg(),
    [
      "-hide_banner",
      "-nostats",
      "-ss",
      from.toFixed(3),
      "-t",
      (to - from).toFixed(3),
      "-i",
      file,
      "-af",
      "volumedetect",
      "-vn",
      "-f",
      "null",
      "-",
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match) throw new Error(`no volumedetect output:\n${stderr}`);
  return match[1] === "-inf" ? Number.NEGATIVE_INFINITY : Number(match[1]);
}

interface Cue {
  start: number;
  end: number;
  text: string;
}

function parseVtt(text: string): Cue[] {
  expect(text.startsWith("WEBVTT")).toBe(true);
  const time = (s: string) => {
    const [h, m, rest] = s.split(":");
    return Number(h) * 3600 + Number(m) * 60 + Number(rest);
  };
  const cues: Cue[] = [];
  for (const block of text.split(/\n\n+/).slice(1)) {
    const lines = block.split("\n").filter(Boolean);
    const timing = lines.find((l) => l.includes("-->"));
    if (!timing) continue;
    const match = /^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})/.exec(timing);
    expect(match, timing).not.toBeNull();
    cues.push({ start: time(match![1]!), end: time(match![2]!), text: lines.slice(lines.indexOf(timing) + 1).join(" ") });
  }
  return cues;
}

describe("the built-in voice", () => {
  it("speaks a sentence into a non-silent WAV whose length grows with the text", { timeout: 60_000 }, async () => {
    const voice = createEspeakSynthesizer();
    try {
      const short = await voice.synthesize("Hello there.", { voice: "en-us", outPath: join(dir, "short.wav") });
      const long = await voice.synthesize("Hello there. This sentence is quite a lot longer, so it takes longer to say out loud.", {
        voice: "en-us",
        outPath: join(dir, "long.wav"),
      });
      for (const result of [short, long]) {
        const pcm = parseWav(readFileSync(result.wavPath));
        expect(pcm.sampleRate).toBeGreaterThan(8000);
        expect(pcm.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
        expect(rmsDb(pcm)).toBeGreaterThan(-35);
        expect(result.durationSec).toBeCloseTo(pcm.samples.length / pcm.sampleRate, 3);
        expect(result.speech.endSec).toBeGreaterThan(result.speech.startSec);
        // Words in order, inside the speech.
        for (const [i, w] of result.words.entries()) {
          expect(w.endSec).toBeGreaterThanOrEqual(w.startSec);
          if (i) expect(w.startSec).toBeGreaterThanOrEqual(result.words[i - 1]!.endSec - 1e-9);
          expect(w.endSec).toBeLessThanOrEqual(result.durationSec + 1e-9);
        }
      }
      expect(short.words.map((w) => w.text)).toEqual(["Hello", "there."]);
      expect(long.durationSec).toBeGreaterThan(short.durationSec * 2);
      // Text that looks like an option is read, not obeyed; an unknown voice name is refused.
      const dash = await voice.synthesize("--version", { voice: "en-us", outPath: join(dir, "dash.wav") });
      expect(dash.durationSec).toBeGreaterThan(0.2);
      await expect(voice.synthesize("Hi", { voice: "en-us; rm -rf" })).rejects.toThrow(/Unknown voice/);
    } finally {
      await voice.close?.();
    }
  });

  it("scripts a presenter to camera and a creator in the first person, one line per scene", () => {
    const storyboard = {
      title: "t",
      brand: { name: "Acme Coffee", primary: "#112233", secondary: "#223344", accent: "#ee4444", text: "#ffffff" },
      scenes: [
        {
          id: "a",
          durationSec: 2,
          headline: "Better mornings",
          body: "Fresh beans every week",
          background: "#112233",
          accent: "#ee4444",
          transition: "fade" as const,
        },
        {
          id: "b",
          durationSec: 2,
          headline: "Acme Coffee",
          cta: "Shop now",
          background: "#112233",
          accent: "#ee4444",
          transition: "fade" as const,
        },
      ],
    };
    const presenter = writeScript(storyboard, "presenter");
    const selfie = writeScript(storyboard, "selfie");
    expect(presenter).toHaveLength(2);
    expect(selfie).toHaveLength(2);
    expect(presenter[0]!.map((p) => p.text).join(" ")).toMatch(/Let me show you Acme Coffee.*Better mornings.*Fresh beans every week/);
    expect(selfie[0]!.map((p) => p.text).join(" ")).toMatch(/^Okay, so I tried Acme Coffee\. Better mornings/);
    expect(selfie[1]!.map((p) => p.text).join(" ")).toMatch(/Trust me, shop now\./);
  });
});

describe("an ad too short for a line per scene", () => {
  it("still speaks: one line across the scenes, the call to action first, within the ad's length", { timeout: 60_000 }, async () => {
    const scene = (id: string, extra: { headline: string; body?: string; cta?: string }) => ({
      id,
      durationSec: 1,
      background: "#112233",
      accent: "#ee4444",
      transition: "fade" as const,
      ...extra,
    });
    const storyboard = {
      title: "t",
      brand: { name: "Acme Coffee", primary: "#112233", secondary: "#223344", accent: "#ee4444", text: "#ffffff" },
      scenes: [
        scene("a", { headline: "Better mornings start here", body: "Fresh beans every week" }),
        scene("b", { headline: "Roasted the day it ships" }),
        scene("c", { headline: "Acme Coffee", cta: "Shop now" }),
      ],
    };
    const voice = createEspeakSynthesizer();
    try {
      const narration = await narrate(storyboard, voice, { style: "presenter", maxAdSeconds: 2, workDir: dir });
      expect(narration.durationSec).toBeLessThanOrEqual(2);
      expect(narration.storyboard.scenes.every((s) => s.durationSec >= 0.5)).toBe(true);
      const said = narration.lines.filter((l) => l.text);
      expect(said).toHaveLength(1);
      expect(said[0]!.text).toMatch(/^Shop now/);
      expect(said[0]!.startSec + said[0]!.durationSec).toBeLessThanOrEqual(narration.durationSec);
      expect(narration.cues.map((c) => c.text).join(" ")).toContain("Shop now");
      const pcm = parseWav(readFileSync(narration.wavPath!));
      expect(pcm.samples.length / pcm.sampleRate).toBeCloseTo(narration.durationSec, 1);
      expect(rmsDb(pcm)).toBeGreaterThan(-40);
    } finally {
      await voice.close?.();
    }
  });
});

describe.each([
  ["avatar", "presenter"],
  ["influencer", "selfie"],
])("a %s ad", (type) => {
  it("has a spoken voice-over over the bed, timed scenes and captions inside the video", { timeout: 200_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type,
      concept: "Fresh coffee beans delivered weekly to your door",
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    const steps = (await app.services.prisma.jobStep.findMany({ where: { jobId: job.jobId }, orderBy: { completedAt: "asc" } })).map(
      (s) => s.name,
    );
    expect(steps).toEqual(["art_direction", "voice", "render:9:16"]);

    const assets = job.result.assets as { type: string; url: string; format: string; duration: number }[];
    const video = assets.find((a) => a.type === "video")!;
    const captions = assets.find((a) => a.type === "captions")!;
    expect(video.format).toBe("9:16");
    expect(captions).toMatchObject({ format: "vtt", url: expect.stringMatching(/\/captions\.vtt$/) });
    expect(assets.find((a) => a.type === "audio")).toMatchObject({ format: "wav", url: expect.stringMatching(/\/narration\.wav$/) });

    // The MP4: H.264 + AAC, no longer than the ad's maximum.
    const res = await fetch(local(video.url), { headers: cookie() });
    expect(res.status).toBe(200);
    const file = join(dir, `${type}.mp4`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const info = await probe(file);
    expect(info.audioCodec).toBe("aac");
    expect(info.durationSec).toBeLessThanOrEqual(MAX_AD_SECONDS + 0.1);

    // The captions: WebVTT with ordered cues inside the video.
    const vtt = await fetch(local(captions.url), { headers: cookie() });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toMatch(/^text\/vtt/);
    const cues = parseVtt(await vtt.text());
    expect(cues.length).toBeGreaterThanOrEqual(2);
    for (const [i, cue] of cues.entries()) {
      expect(cue.start).toBeLessThan(cue.end);
      expect(cue.text.length).toBeGreaterThan(0);
      if (i) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]!.end - 1e-6);
    }
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(info.durationSec);
    if (type === "influencer") expect(cues[0]!.text).toMatch(/^Okay, so I tried/);
    // The presenter closes on the call to action (the least expendable words).
    else expect(cues.map((c) => c.text).join(" ")).toMatch(/, today\.$/);

    // Speech in the mix: loud over the narration, and clearly louder than the same ad's bed between lines.
    const speaking = await meanVolume(file, cues[0]!.start, cues.at(-1)!.end);
    expect(speaking).toBeGreaterThan(-35);
    const wav = await fetch(local(assets.find((a) => a.type === "audio")!.url), { headers: cookie() });
    const voiceOnly = join(dir, `${type}.wav`);
    writeFileSync(voiceOnly, Buffer.from(await wav.arrayBuffer()));
    expect(await meanVolume(voiceOnly, cues[0]!.start, cues.at(-1)!.end)).toBeGreaterThan(-35);
    // The bed alone (between two lines, where nothing is said) is clearly quieter than the speech over it.
    const voiceStep = await app.services.prisma.jobStep.findFirstOrThrow({ where: { jobId: job.jobId, name: "voice" } });
    const lines = (voiceStep.output as { lines: { startSec: number; durationSec: number; text: string }[] }).lines.filter((l) => l.text);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const gapFrom = lines[0]!.startSec + lines[0]!.durationSec + 0.05;
    const gapTo = lines[1]!.startSec - 0.02;
    expect(gapTo - gapFrom).toBeGreaterThan(0.2);
    const bed = await meanVolume(file, gapFrom, gapTo);
    expect(speaking - bed).toBeGreaterThan(6);

    // The storyboard in the result is the retimed one: scenes add up to the video.
    const total = (job.result.storyboard.scenes as { durationSec: number }[]).reduce((s, x) => s + x.durationSec, 0);
    expect(Math.abs(total - info.durationSec)).toBeLessThan(0.1);

    // A frame mid-caption, for looking at.
    const mid = (cues[1]!.start + cues[1]!.end) / 2;
    await run(locateFfmpeg(), [
      "-loglevel",
      "error",
      "-y",
      "-ss",
      mid.toFixed(3),
      "-i",
      file,
      "-frames:v",
      "1",
      "-vf",
      "scale=540:-2",
      join(tmpdir(), `adgen-voice-${type}.png`),
    ]);
  });
});
