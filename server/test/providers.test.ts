// The remote provider adapters against their documented HTTP APIs, answered by msw at the network edge:
// fal's queue API and Replicate's predictions for pictures, ElevenLabs' speech with timestamps. Each:
// success, a timeout, a 5xx (retried, then given up), refused content (not retried) and a malformed answer.
// No message names a provider.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpResponse, delay, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  cachedVoiceList,
  createElevenLabsVoice,
  VOICE_LIST_TTL_MS,
  wordsFromAlignment,
} from "../src/modules/providers/elevenlabs-voice.ts";
import { createFalPictures } from "../src/modules/providers/fal-pictures.ts";
import { ProviderError } from "../src/modules/providers/provider-error.ts";
import { createReplicatePictures } from "../src/modules/providers/replicate-pictures.ts";
import { parseWav, rmsDb } from "../src/modules/voice/index.ts";
import { writeTestPictures } from "./support/frames.ts";

const network = setupServer();
let dir: string;
let png: Buffer;
const calls: { method: string; url: string; headers: Headers; body: any }[] = [];

beforeAll(async () => {
  network.listen({ onUnhandledRequest: "error" });
  network.events.on("request:start", async ({ request }) => {
    const body =
      request.method === "POST"
        ? await request
            .clone()
            .json()
            .catch(() => null)
        : null;
    calls.push({ method: request.method, url: request.url, headers: request.headers, body });
  });
  dir = mkdtempSync(join(tmpdir(), "adgen-providers-"));
  png = readFileSync((await writeTestPictures(dir)).logo);
});
afterEach(() => {
  network.resetHandlers();
  calls.length = 0;
});
afterAll(() => {
  network.close();
  rmSync(dir, { recursive: true, force: true });
});

const FAST = { pollMs: 20, timeoutMs: 2_000, tries: 3 };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ProviderError,
  );
const noProviderNamed = (error: ProviderError | null) => {
  expect(error).toBeInstanceOf(ProviderError);
  expect(error!.message).not.toMatch(/fal|replicate|eleven/i);
};
const picture = () => new HttpResponse(new Uint8Array(png), { headers: { "content-type": "image/png" } });

describe("fal (queue API)", () => {
  const fal = () => createFalPictures("fal-key", { poll: FAST });
  const Q = "https://queue.fal.run/fal-ai/flux/schnell";
  const queued = { request_id: "r1", status_url: `${Q}/requests/r1/status`, response_url: `${Q}/requests/r1` };

  it("submits, polls until COMPLETED, reads the result and fetches the picture", async () => {
    let polls = 0;
    network.use(
      http.post(Q, () => HttpResponse.json(queued)),
      http.get(`${Q}/requests/r1/status`, () =>
        HttpResponse.json({ status: ++polls < 3 ? "IN_QUEUE" : "COMPLETED" }, { status: polls < 3 ? 202 : 200 }),
      ),
      http.get(`${Q}/requests/r1`, () =>
        HttpResponse.json({ images: [{ url: "https://fal.media/files/p.png", width: 400, height: 160 }], has_nsfw_concepts: [false] }),
      ),
      http.get("https://fal.media/files/p.png", picture),
    );
    const bytes = await fal().generate({ prompt: "A can of cold brew", aspect: "9:16" });
    expect(bytes.equals(png)).toBe(true);
    const submit = calls.find((c) => c.method === "POST")!;
    expect(submit.headers.get("authorization")).toBe("Key fal-key");
    expect(submit.body).toMatchObject({ prompt: "A can of cold brew", image_size: "portrait_16_9" });
    expect(polls).toBe(3);
  });

  it("retries a 5xx, then gives up as unavailable", async () => {
    let submits = 0;
    network.use(
      http.post(Q, () => {
        submits++;
        return HttpResponse.json({ detail: "overloaded" }, { status: 503 });
      }),
    );
    const error = await failure(fal().generate({ prompt: "x", aspect: "1:1" }));
    expect(error?.kind).toBe("unavailable");
    expect(submits).toBe(3);
    noProviderNamed(error);
  });

  it("recovers when a retry succeeds", async () => {
    let submits = 0;
    network.use(
      http.post(Q, () => (++submits === 1 ? new HttpResponse(null, { status: 502 }) : HttpResponse.json(queued))),
      http.get(`${Q}/requests/r1/status`, () => HttpResponse.json({ status: "COMPLETED" })),
      http.get(`${Q}/requests/r1`, () => HttpResponse.json({ images: [{ url: "https://fal.media/files/p.png" }] })),
      http.get("https://fal.media/files/p.png", picture),
    );
    expect((await fal().generate({ prompt: "x", aspect: "1:1" })).equals(png)).toBe(true);
    expect(submits).toBe(2);
  });

  it("refuses flagged content without retrying", async () => {
    network.use(
      http.post(Q, () => HttpResponse.json(queued)),
      http.get(`${Q}/requests/r1/status`, () => HttpResponse.json({ status: "COMPLETED" })),
      http.get(`${Q}/requests/r1`, () =>
        HttpResponse.json({ images: [{ url: "https://fal.media/files/p.png" }], has_nsfw_concepts: [true] }),
      ),
    );
    const error = await failure(fal().generate({ prompt: "x", aspect: "1:1" }));
    expect(error?.kind).toBe("refused");
    noProviderNamed(error);
    expect(calls.filter((c) => c.url.endsWith("p.png"))).toHaveLength(0);
  });

  it("refuses a 422 (the request refused) without retrying", async () => {
    network.use(http.post(Q, () => HttpResponse.json({ detail: [{ msg: "prompt rejected" }] }, { status: 422 })));
    const error = await failure(fal().generate({ prompt: "x", aspect: "1:1" }));
    expect(error?.kind).toBe("refused");
    expect(calls).toHaveLength(1);
  });

  it("calls a malformed answer malformed", async () => {
    network.use(http.post(Q, () => HttpResponse.json({ hello: "world" })));
    expect((await failure(fal().generate({ prompt: "x", aspect: "1:1" })))?.kind).toBe("malformed");
  });

  it("gives up when the queue never finishes", async () => {
    network.use(
      http.post(Q, () => HttpResponse.json(queued)),
      http.get(`${Q}/requests/r1/status`, () => HttpResponse.json({ status: "IN_PROGRESS" })),
    );
    const generator = createFalPictures("k", { poll: { pollMs: 20, timeoutMs: 200, tries: 1 } });
    expect((await failure(generator.generate({ prompt: "x", aspect: "1:1" })))?.kind).toBe("timeout");
  });
});

describe("Replicate (predictions)", () => {
  const replicate = () => createReplicatePictures("r8-token", { poll: FAST });
  const CREATE = "https://api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions";
  const GET = "https://api.replicate.com/v1/predictions/p1";
  const prediction = (status: string, extra: object = {}) => ({ id: "p1", status, urls: { get: GET, cancel: `${GET}/cancel` }, ...extra });

  it("creates a prediction (Prefer: wait), polls it and fetches the output", async () => {
    let polls = 0;
    network.use(
      http.post(CREATE, () => HttpResponse.json(prediction("starting"), { status: 201 })),
      http.get(GET, () =>
        HttpResponse.json(
          ++polls < 2 ? prediction("processing") : prediction("succeeded", { output: ["https://replicate.delivery/x/out.png"] }),
        ),
      ),
      http.get("https://replicate.delivery/x/out.png", picture),
    );
    const bytes = await replicate().generate({ prompt: "A can of cold brew", aspect: "4:5" });
    expect(bytes.equals(png)).toBe(true);
    const create = calls.find((c) => c.method === "POST")!;
    expect(create.headers.get("authorization")).toBe("Bearer r8-token");
    expect(create.headers.get("prefer")).toBe("wait=60");
    expect(create.body).toMatchObject({ input: { prompt: "A can of cold brew", aspect_ratio: "4:5" } });
  });

  it("refuses a prediction failed for unsafe content, and names no provider", async () => {
    network.use(
      http.post(CREATE, () =>
        HttpResponse.json(prediction("failed", { error: "NSFW content detected. Try a different prompt." }), { status: 201 }),
      ),
    );
    const error = await failure(replicate().generate({ prompt: "x", aspect: "1:1" }));
    expect(error?.kind).toBe("refused");
    noProviderNamed(error);
  });

  it("retries 5xx and 429, then gives up", async () => {
    let creates = 0;
    network.use(
      http.post(CREATE, () => {
        creates++;
        return HttpResponse.json({ detail: "slow down" }, { status: creates % 2 ? 429 : 500 });
      }),
    );
    expect((await failure(replicate().generate({ prompt: "x", aspect: "1:1" })))?.kind).toBe("unavailable");
    expect(creates).toBe(3);
  });

  it("calls a succeeded prediction without output malformed", async () => {
    network.use(http.post(CREATE, () => HttpResponse.json(prediction("succeeded", { output: null }), { status: 201 })));
    expect((await failure(replicate().generate({ prompt: "x", aspect: "1:1" })))?.kind).toBe("malformed");
  });

  it("times out a call that hangs", async () => {
    network.use(
      http.post(CREATE, async () => {
        await delay(5_000);
        return HttpResponse.json(prediction("starting"));
      }),
    );
    const generator = createReplicatePictures("t", { poll: { pollMs: 10, timeoutMs: 300, callTimeoutMs: 200, tries: 1 } });
    const error = await failure(generator.generate({ prompt: "x", aspect: "1:1" }));
    expect(error?.kind).toBe("timeout");
    noProviderNamed(error);
  });
});

describe("ElevenLabs (speech with timestamps)", () => {
  const URL_FOR = (voice: string) => `https://api.elevenlabs.io/v1/text-to-speech/${voice}/with-timestamps`;
  // An account whose voice list is empty: the synthesizer speaks with its premade voices.
  beforeEach(() => network.use(http.get("https://api.elevenlabs.io/v1/voices", () => HttpResponse.json({ voices: [] }))));
  /** 0.6 s of a 220 Hz tone as 16-bit PCM at 22.05 kHz, and the alignment of "Hi there". */
  const tone = () => {
    const samples = Buffer.alloc(22_050 * 0.6 * 2);
    for (let i = 0; i < samples.length / 2; i++)
      samples.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * 220 * i) / 22_050)), i * 2);
    return samples.toString("base64");
  };
  const alignment = {
    characters: [..."Hi there"],
    character_start_times_seconds: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4],
    character_end_times_seconds: [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5],
  };

  it("gives each word the start of its first character and the end of its last", () => {
    const words = wordsFromAlignment({
      characters: [..."Buy  now!"],
      character_start_times_seconds: [0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.62, 0.7, 0.8],
      character_end_times_seconds: [0.2, 0.3, 0.4, 0.45, 0.5, 0.62, 0.7, 0.8, 0.95],
    });
    expect(words).toEqual([
      { text: "Buy", startSec: 0.1, endSec: 0.4 },
      { text: "now!", startSec: 0.5, endSec: 0.95 },
    ]);
  });

  it("reads the account's voices once an hour and speaks with one of them", async () => {
    let listed = 0;
    // The documented shape of GET /v1/voices: { voices: [{ voice_id, name, category, labels }] }.
    network.use(
      http.get("https://api.elevenlabs.io/v1/voices", () => {
        listed++;
        return HttpResponse.json({
          voices: [
            { voice_id: "voice-m", name: "Adam", category: "premade", labels: { gender: "male", accent: "american" } },
            { voice_id: "voice-f", name: "Sarah", category: "premade", labels: { gender: "female", accent: "american" } },
          ],
        });
      }),
      http.post(URL_FOR(":voice"), () => HttpResponse.json({ audio_base64: tone(), alignment, normalized_alignment: alignment })),
    );
    let clock = 0;
    const list = cachedVoiceList("xi-key", { now: () => clock });
    expect((await list()).map((v) => [v.id, v.gender])).toEqual([
      ["voice-m", "male"],
      ["voice-f", "female"],
    ]);
    clock += VOICE_LIST_TTL_MS - 1;
    await list();
    expect(listed).toBe(1);
    clock += 2;
    await list();
    expect(listed).toBe(2);
    expect(calls.filter((c) => c.method === "GET").every((c) => c.headers.get("xi-api-key") === "xi-key")).toBe(true);

    // The premade voices are not on this account, so the synthesizer speaks with the account's own of the same kind.
    const voice = createElevenLabsVoice("xi-key");
    await voice.synthesize("Hi there", { voice: "en-us+f3", outPath: join(dir, "f.wav") });
    await voice.synthesize("Hi there", { voice: "en-us", outPath: join(dir, "m.wav") });
    const spoken = calls.filter((c) => c.method === "POST").map((c) => new URL(c.url).pathname);
    expect(spoken).toEqual(["/v1/text-to-speech/voice-f/with-timestamps", "/v1/text-to-speech/voice-m/with-timestamps"]);
    expect(listed).toBe(3);
  });

  it("speaks into a WAV with word timings from the characters'", async () => {
    network.use(
      http.post(URL_FOR(":voice"), () => HttpResponse.json({ audio_base64: tone(), alignment, normalized_alignment: alignment })),
    );
    const voice = createElevenLabsVoice("xi-key");
    const result = await voice.synthesize("Hi there", { voice: "en-us+f3", wordsPerMinute: 180, outPath: join(dir, "hi.wav") });
    const pcm = parseWav(readFileSync(result.wavPath));
    expect(pcm.sampleRate).toBe(22_050);
    expect(result.durationSec).toBeCloseTo(0.6, 2);
    expect(rmsDb(pcm)).toBeGreaterThan(-20);
    expect(result.words).toEqual([
      { text: "Hi", startSec: 0.05, endSec: 0.15 },
      { text: "there", startSec: 0.2, endSec: 0.5 },
    ]);
    const call = calls.find((c) => c.method === "POST")!;
    expect(call.headers.get("xi-api-key")).toBe("xi-key");
    expect(new URL(call.url).searchParams.get("output_format")).toBe("pcm_22050");
    expect(call.body).toMatchObject({ text: "Hi there", model_id: "eleven_multilingual_v2" });
  });

  it("retries a 5xx, then gives up as unavailable", async () => {
    let posts = 0;
    network.use(
      http.post(URL_FOR(":voice"), () => {
        posts++;
        return HttpResponse.json({ detail: "busy" }, { status: 500 });
      }),
    );
    const error = await failure(createElevenLabsVoice("k").synthesize("Hi", { voice: "en-us" }));
    expect(error?.kind).toBe("unavailable");
    expect(posts).toBe(3);
    noProviderNamed(error);
  }, 20_000);

  it("calls silence or broken audio malformed, and a 400 refused", async () => {
    network.use(
      http.post(URL_FOR(":voice"), () => HttpResponse.json({ audio_base64: Buffer.alloc(4410).toString("base64"), alignment: null })),
    );
    expect((await failure(createElevenLabsVoice("k").synthesize("Hi", { voice: "en-us" })))?.kind).toBe("malformed");
    network.use(http.post(URL_FOR(":voice"), () => HttpResponse.json({ audio: "nope" })));
    expect((await failure(createElevenLabsVoice("k").synthesize("Hi", { voice: "en-us" })))?.kind).toBe("malformed");
    network.use(http.post(URL_FOR(":voice"), () => HttpResponse.json({ detail: { status: "invalid_text" } }, { status: 400 })));
    expect((await failure(createElevenLabsVoice("k").synthesize("Hi", { voice: "en-us" })))?.kind).toBe("refused");
  });

  it("times out", async () => {
    network.use(
      http.post(URL_FOR(":voice"), async () => {
        await delay(3_000);
        return HttpResponse.json({});
      }),
    );
    const error = await failure(createElevenLabsVoice("k", { timeoutMs: 200, tries: 1 }).synthesize("Hi", { voice: "en-us" }));
    expect(error?.kind).toBe("timeout");
  });
});
