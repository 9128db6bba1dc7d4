// The clip adapters against fal's queue API and Replicate's predictions, answered by msw at the
// network edge in their documented shapes: what a submit sends (address, key, the model's input with the
// direction text as its prompt), how each provider status reads, the finished MP4's bytes (a real clip made
// by ffmpeg), a refused generation told apart from a provider that is down, and webhook signatures (fal's
// ED25519 over a JWKS, Replicate's Standard Webhooks HMAC): a correctly signed call names its generation, a
// tampered body, a wrong key or a stale timestamp does not. No message names a provider.
import { execFile } from "node:child_process";
import { createHash, createHmac, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ClipGenerator, type ClipHandle, type ClipRequest, MAX_CLIP_BYTES } from "../src/modules/providers/clip-generator.ts";
import { createFalClips, FAL_JWKS_URL } from "../src/modules/providers/fal-clips.ts";
import { ProviderError } from "../src/modules/providers/provider-error.ts";
import { chooseClips, GENERATED_VIDEO, remoteProvidersFrom, TALKING_PRESENTER } from "../src/modules/providers/remote-providers.ts";
import { createReplicateClips } from "../src/modules/providers/replicate-clips.ts";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";

const network = setupServer();
const calls: { method: string; url: string; headers: Headers; body: any }[] = [];
let dir: string;
let mp4: Buffer;

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
  dir = mkdtempSync(join(tmpdir(), "adgen-clips-"));
  // A real one-second H.264 MP4, as a video model would answer.
  const file = join(dir, "clip.mp4");
  await promisify(execFile)(locateFfmpeg(), [
    ...["-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x568:rate=24", "-t", "1"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", file],
  ]);
  mp4 = readFileSync(file);
});
afterEach(() => {
  network.resetHandlers();
  calls.length = 0;
});
afterAll(() => {
  network.close();
  rmSync(dir, { recursive: true, force: true });
});

const FAST = { tries: 2, backoffMs: 5, callTimeoutMs: 5_000 };
const DIRECTION = "Slow push-in on the cold brew can, condensation beading, morning light";
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ProviderError,
  );
const noProviderNamed = (error: ProviderError | null) => {
  expect(error).toBeInstanceOf(ProviderError);
  expect(error!.message).not.toMatch(/fal|replicate|kling|omni|bytedance/i);
};
const clip = () => new HttpResponse(new Uint8Array(mp4), { headers: { "content-type": "video/mp4" } });
const request = (over: Partial<ClipRequest> = {}): ClipRequest => ({
  kind: "image-to-video",
  prompt: DIRECTION,
  aspect: "9:16",
  durationSec: 5,
  tier: "standard",
  image: { url: "https://media.example.com/signed/product.png?sig=abc" },
  ...over,
});
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("fal clips (queue API)", () => {
  const fal = () => createFalClips("fal-key", { calls: FAST });
  const I2V = "https://queue.fal.run/fal-ai/kling-video/v2.1/standard/image-to-video";
  const APP = "https://queue.fal.run/fal-ai/kling-video";
  const queued = {
    request_id: "r1",
    status_url: `${APP}/requests/r1/status`,
    response_url: `${APP}/requests/r1`,
    cancel_url: `${APP}/requests/r1/cancel`,
  };
  const handle: ClipHandle = {
    provider: "fal",
    id: "r1",
    model: "fal-ai/kling-video/v2.1/standard/image-to-video",
    statusUrl: queued.status_url,
    resultUrl: queued.response_url,
    submittedAt: new Date().toISOString(),
  };

  it("submits an image-to-video with the key, the webhook and the model's documented input", async () => {
    network.use(http.post(I2V, () => HttpResponse.json(queued)));
    const started = await fal().submit(request({ webhookUrl: "https://ads.example.com/api/webhooks/clips/fal" }));
    expect(started).toMatchObject({
      provider: "fal",
      id: "r1",
      model: handle.model,
      statusUrl: queued.status_url,
      resultUrl: queued.response_url,
    });
    const [submit] = calls;
    expect(submit!.url).toBe(`${I2V}?fal_webhook=${encodeURIComponent("https://ads.example.com/api/webhooks/clips/fal")}`);
    expect(submit!.headers.get("authorization")).toBe("Key fal-key");
    // Exactly the documented fields: the direction as the prompt, nothing else of the job.
    expect(submit!.body).toEqual({
      prompt: DIRECTION,
      image_url: "https://media.example.com/signed/product.png?sig=abc",
      duration: "5",
      aspect_ratio: "9:16",
    });
  });

  it("sends bytes as a data URI, asks the premium model for premium, and 10 s for a longer scene", async () => {
    network.use(http.post("https://queue.fal.run/fal-ai/kling-video/v2.1/pro/image-to-video", () => HttpResponse.json(queued)));
    await fal().submit(request({ tier: "premium", durationSec: 8, aspect: "16:9", image: { bytes: png, mime: "image/png" } }));
    expect(calls[0]!.url).toBe("https://queue.fal.run/fal-ai/kling-video/v2.1/pro/image-to-video");
    expect(calls[0]!.body).toEqual({
      prompt: DIRECTION,
      image_url: `data:image/png;base64,${png.toString("base64")}`,
      duration: "10",
      aspect_ratio: "16:9",
    });
  });

  it("submits text-to-video without a picture and a talking presenter with the photo and the voice-over", async () => {
    network.use(
      http.post("https://queue.fal.run/fal-ai/kling-video/v1.6/standard/text-to-video", () => HttpResponse.json(queued)),
      http.post("https://queue.fal.run/fal-ai/bytedance/omnihuman", () => HttpResponse.json(queued)),
    );
    const generator = fal();
    await generator.submit(request({ kind: "text-to-video", image: undefined, aspect: "1:1" }));
    await generator.submit(
      request({
        kind: "talking-presenter",
        image: { url: "https://media.example.com/face.jpg" },
        audio: { bytes: Buffer.from("RIFF"), mime: "audio/wav" },
      }),
    );
    expect(calls[0]!.body).toEqual({ prompt: DIRECTION, duration: "5", aspect_ratio: "1:1" });
    expect(calls[1]!.body).toEqual({
      image_url: "https://media.example.com/face.jpg",
      audio_url: `data:audio/wav;base64,${Buffer.from("RIFF").toString("base64")}`,
    });
  });

  it("refuses, before any call, a presenter without a voice-over", async () => {
    const error = await failure(fal().submit(request({ kind: "talking-presenter" })));
    expect(error?.kind).toBe("refused");
    expect(error?.message).toBe("The video service needs the voice-over for this clip");
    expect(calls).toHaveLength(0);
  });

  it("reads each queue status", async () => {
    const answers: unknown[] = [
      [{ status: "IN_QUEUE", queue_position: 3 }, 202],
      [{ status: "IN_PROGRESS" }, 202],
      [{ status: "COMPLETED" }, 200],
      [{ status: "COMPLETED", error: "Content policy violation: the image was flagged" }, 200],
      [{ status: "COMPLETED", error: "Runner crashed" }, 200],
    ];
    let n = 0;
    network.use(
      http.get(queued.status_url, () => {
        const [body, status] = answers[n++] as [object, number];
        return HttpResponse.json(body, { status });
      }),
    );
    const generator = fal();
    const seen = [];
    for (let i = 0; i < answers.length; i++) seen.push(await generator.check(handle));
    expect(seen).toEqual([
      { state: "queued" },
      { state: "running" },
      { state: "done" },
      { state: "refused", message: "The video service refused the clip's content or input" },
      { state: "failed", message: "The video service could not make the clip" },
    ]);
    expect(calls.every((c) => c.headers.get("authorization") === "Key fal-key")).toBe(true);
  });

  it("fetches the finished MP4's bytes", async () => {
    network.use(
      http.get(queued.response_url, () =>
        HttpResponse.json({ video: { url: "https://v3.fal.media/files/out.mp4", content_type: "video/mp4", file_size: mp4.length } }),
      ),
      http.get("https://v3.fal.media/files/out.mp4", clip),
    );
    const result = await fal().fetchResult(handle);
    expect(result.bytes.equals(mp4)).toBe(true);
    expect(result.bytes.toString("latin1", 4, 8)).toBe("ftyp");
  });

  it("tells a refused generation (422 on the result) from a service that is down (5xx, retried)", async () => {
    network.use(http.get(queued.response_url, () => HttpResponse.json({ detail: [{ msg: "image rejected" }] }, { status: 422 })));
    const refused = await failure(fal().fetchResult(handle));
    expect(refused?.kind).toBe("refused");
    expect(refused?.transient).toBe(false);
    noProviderNamed(refused);
    expect(calls).toHaveLength(1);

    calls.length = 0;
    network.use(http.post(I2V, () => HttpResponse.json({ detail: "overloaded" }, { status: 503 })));
    const down = await failure(fal().submit(request()));
    expect(down?.kind).toBe("unavailable");
    expect(down?.transient).toBe(true);
    expect(down?.message).toBe("The video service answered HTTP 503");
    expect(calls).toHaveLength(FAST.tries);
  });

  it("calls an answer that is not a video malformed", async () => {
    network.use(
      http.get(queued.response_url, () => HttpResponse.json({ video: { url: "https://v3.fal.media/files/out.mp4" } })),
      http.get(
        "https://v3.fal.media/files/out.mp4",
        () => new HttpResponse("<html>oops</html>", { headers: { "content-type": "text/html" } }),
      ),
    );
    const error = await failure(fal().fetchResult(handle));
    expect(error?.kind).toBe("malformed");
    noProviderNamed(error);
  });

  it("refuses a clip announced larger than the cap without downloading it", async () => {
    network.use(
      http.get(queued.response_url, () =>
        HttpResponse.json({
          video: { url: "https://v3.fal.media/files/huge.mp4", content_type: "video/mp4", file_size: MAX_CLIP_BYTES + 1 },
        }),
      ),
    );
    const error = await failure(fal().fetchResult(handle));
    expect(error?.kind).toBe("malformed");
    expect(calls.some((c) => c.url.endsWith("huge.mp4"))).toBe(false);
  });

  describe("webhooks", () => {
    const ours = generateKeyPairSync("ed25519");
    const stranger = generateKeyPairSync("ed25519");
    let jwksFetches = 0;
    const serveJwks = () =>
      network.use(
        http.get(FAL_JWKS_URL, () => {
          jwksFetches++;
          return HttpResponse.json({ keys: [{ ...ours.publicKey.export({ format: "jwk" }), kid: "k1" }] });
        }),
      );
    const body = Buffer.from(
      JSON.stringify({ request_id: "r1", status: "OK", payload: { video: { url: "https://v3.fal.media/files/out.mp4" } } }),
    );
    const signed = (raw: Buffer, key: KeyObject, timestamp = Math.floor(Date.now() / 1000)) => {
      const headers = { "X-Fal-Webhook-Request-Id": "r1", "X-Fal-Webhook-User-Id": "user-7", "X-Fal-Webhook-Timestamp": String(timestamp) };
      const digest = createHash("sha256").update(raw).digest("hex");
      const message = Buffer.from(["r1", "user-7", String(timestamp), digest].join("\n"));
      return { ...headers, "X-Fal-Webhook-Signature": sign(null, message, key).toString("hex") };
    };

    it("verifies a call signed by a key of fal's JWKS and names the generation", async () => {
      serveJwks();
      jwksFetches = 0;
      const generator = fal();
      expect(await generator.verifyWebhook(body, signed(body, ours.privateKey))).toEqual({ id: "r1" });
      // Header names as a Node server hands them over (lower case) verify the same.
      const lower = Object.fromEntries(Object.entries(signed(body, ours.privateKey)).map(([k, v]) => [k.toLowerCase(), v]));
      expect(await generator.verifyWebhook(body, lower)).toEqual({ id: "r1" });
      expect(jwksFetches).toBe(1);
    });

    it("refuses a tampered body, a wrong key, a stale timestamp and missing headers", async () => {
      serveJwks();
      jwksFetches = 0;
      const generator = fal();
      const tampered = Buffer.from(body.toString().replace("out.mp4", "evil.mp4"));
      expect(await generator.verifyWebhook(tampered, signed(body, ours.privateKey))).toBeNull();
      expect(await generator.verifyWebhook(body, signed(body, stranger.privateKey))).toBeNull();
      expect(await generator.verifyWebhook(body, signed(body, ours.privateKey, Math.floor(Date.now() / 1000) - 6 * 60))).toBeNull();
      const { "X-Fal-Webhook-User-Id": _, ...withoutUser } = signed(body, ours.privateKey);
      expect(await generator.verifyWebhook(body, withoutUser)).toBeNull();
      // The keys are fetched once and cached; forged calls do not make us fetch them again and again.
      expect(jwksFetches).toBe(1);
    });

    it("says the keys are out of reach (so the call can be answered 503 and retried), rather than calling it forged", async () => {
      network.use(http.get(FAL_JWKS_URL, () => new HttpResponse(null, { status: 502 })));
      const error = await failure(fal().verifyWebhook(body, signed(body, ours.privateKey)));
      expect(error?.kind).toBe("unavailable");
      noProviderNamed(error);
    });
  });
});

describe("Replicate clips (predictions)", () => {
  const replicate = () => createReplicateClips("r8-token", { calls: FAST });
  const API = "https://api.replicate.com/v1";
  const prediction = (over: object = {}) => ({
    id: "p1",
    status: "starting",
    output: null,
    error: null,
    urls: { get: `${API}/predictions/p1`, cancel: `${API}/predictions/p1/cancel` },
    ...over,
  });
  const handle: ClipHandle = { provider: "replicate", id: "p1", model: "kwaivgi/kling-v2.1", submittedAt: new Date().toISOString() };

  it("creates a prediction with the token, the model's documented input and a completed-only webhook", async () => {
    network.use(http.post(`${API}/models/kwaivgi/kling-v2.1/predictions`, () => HttpResponse.json(prediction(), { status: 201 })));
    const started = await replicate().submit(
      request({
        tier: "premium",
        durationSec: 10,
        image: { bytes: png, mime: "image/png" },
        webhookUrl: "https://ads.example.com/api/webhooks/clips/replicate",
      }),
    );
    expect(started).toMatchObject({ provider: "replicate", id: "p1", model: "kwaivgi/kling-v2.1" });
    const [create] = calls;
    expect(create!.headers.get("authorization")).toBe("Bearer r8-token");
    expect(create!.body).toEqual({
      input: { prompt: DIRECTION, start_image: `data:image/png;base64,${png.toString("base64")}`, duration: 10, mode: "pro" },
      webhook: "https://ads.example.com/api/webhooks/clips/replicate",
      webhook_events_filter: ["completed"],
    });
  });

  it("creates by version when the model is pinned, and text-to-video with the format", async () => {
    network.use(http.post(`${API}/predictions`, () => HttpResponse.json(prediction(), { status: 201 })));
    const generator = createReplicateClips("r8-token", {
      calls: FAST,
      models: { "text-to-video": { standard: "kwaivgi/kling-v1.6-standard:abc123", premium: "x/y" } },
    });
    await generator.submit(request({ kind: "text-to-video", image: undefined }));
    expect(calls[0]!.body).toEqual({ version: "abc123", input: { prompt: DIRECTION, duration: 5, aspect_ratio: "9:16" } });
  });

  it("reads each prediction status", async () => {
    const answers = [
      prediction(),
      prediction({ status: "processing" }),
      prediction({ status: "succeeded", output: "https://replicate.delivery/p1/out.mp4" }),
      prediction({
        status: "failed",
        error: "The input or output was flagged as sensitive. Please try again with different inputs. (E005)",
      }),
      prediction({ status: "failed", error: "CUDA out of memory" }),
      prediction({ status: "canceled" }),
    ];
    let n = 0;
    network.use(http.get(`${API}/predictions/p1`, () => HttpResponse.json(answers[n++])));
    const generator = replicate();
    const seen = [];
    for (let i = 0; i < answers.length; i++) seen.push((await generator.check(handle)).state);
    expect(seen).toEqual(["queued", "running", "done", "refused", "failed", "failed"]);
    expect(calls.every((c) => c.headers.get("authorization") === "Bearer r8-token")).toBe(true);
  });

  it("fetches the finished MP4's bytes (output as a list)", async () => {
    network.use(
      http.get(`${API}/predictions/p1`, () =>
        HttpResponse.json(
          prediction({ status: "succeeded", output: ["https://replicate.delivery/p1/out.mp4"], metrics: { predict_time: 90.2 } }),
        ),
      ),
      http.get("https://replicate.delivery/p1/out.mp4", clip),
    );
    const result = await replicate().fetchResult(handle);
    expect(result.bytes.equals(mp4)).toBe(true);
  });

  it("tells a refused generation (400) from a service that is down (5xx, retried)", async () => {
    network.use(
      http.post(`${API}/models/kwaivgi/kling-v2.1/predictions`, () =>
        HttpResponse.json({ title: "Input validation failed", detail: "start_image: invalid" }, { status: 422 }),
      ),
    );
    const refused = await failure(replicate().submit(request()));
    expect(refused?.kind).toBe("refused");
    noProviderNamed(refused);
    expect(calls).toHaveLength(1);

    calls.length = 0;
    network.use(http.get(`${API}/predictions/p1`, () => HttpResponse.json({ detail: "busy" }, { status: 429 })));
    const down = await failure(replicate().check(handle));
    expect(down?.kind).toBe("unavailable");
    noProviderNamed(down);
    expect(calls).toHaveLength(FAST.tries);
  });

  describe("webhooks", () => {
    const key = randomBytes(24);
    const secret = `whsec_${key.toString("base64")}`;
    let secretFetches = 0;
    const serveSecret = () =>
      network.use(
        http.get(`${API}/webhooks/default/secret`, ({ request }) => {
          if (request.headers.get("authorization") !== "Bearer r8-token")
            return HttpResponse.json({ detail: "Unauthenticated" }, { status: 401 });
          secretFetches++;
          return HttpResponse.json({ key: secret });
        }),
      );
    const body = Buffer.from(JSON.stringify(prediction({ status: "succeeded", output: "https://replicate.delivery/p1/out.mp4" })));
    const signed = (raw: Buffer, hmacKey: Buffer, timestamp = Math.floor(Date.now() / 1000)) => {
      const signature = createHmac("sha256", hmacKey).update(`msg_2x9.${timestamp}.${raw.toString()}`).digest("base64");
      return { "webhook-id": "msg_2x9", "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
    };

    it("verifies a Standard Webhooks signature made with the account's secret and names the prediction", async () => {
      serveSecret();
      secretFetches = 0;
      const generator = replicate();
      expect(await generator.verifyWebhook(body, signed(body, key))).toEqual({ id: "p1" });
      // Several signatures (a secret being rotated): one that matches is enough.
      const two = signed(body, key);
      two["webhook-signature"] = `v1,${randomBytes(32).toString("base64")} ${two["webhook-signature"]}`;
      expect(await generator.verifyWebhook(body, two)).toEqual({ id: "p1" });
      expect(secretFetches).toBe(1);
    });

    it("refuses a tampered body, a wrong secret and a stale timestamp", async () => {
      serveSecret();
      secretFetches = 0;
      const generator = replicate();
      const tampered = Buffer.from(body.toString().replace("out.mp4", "evil.mp4"));
      expect(await generator.verifyWebhook(tampered, signed(body, key))).toBeNull();
      expect(await generator.verifyWebhook(body, signed(body, randomBytes(24)))).toBeNull();
      expect(await generator.verifyWebhook(body, signed(body, key, Math.floor(Date.now() / 1000) - 6 * 60))).toBeNull();
      expect(secretFetches).toBe(1);
    });
  });
});

describe("choosing a clip generator", () => {
  const providers = remoteProvidersFrom({ providers: { falKey: "fal-key", replicateToken: "r8-token", elevenLabsKey: null } });
  const provider = (generator: ClipGenerator | null) => generator?.provider ?? null;

  it("has a clip generator for each key, and picks by the model's id and the account's preference", () => {
    expect(providers.clips.map((c) => c.provider)).toEqual(["fal", "replicate"]);
    expect(provider(chooseClips(providers, GENERATED_VIDEO, "auto"))).toBe("fal");
    expect(provider(chooseClips(providers, GENERATED_VIDEO, "replicate"))).toBe("replicate");
    expect(provider(chooseClips(providers, TALKING_PRESENTER, "fal"))).toBe("fal");
    expect(chooseClips(providers, "studio-motion", "auto")).toBeNull();
    expect(chooseClips(providers, undefined, "auto")).toBeNull();
    expect(chooseClips(providers, "constructor", "auto")).toBeNull();
    expect(
      chooseClips(remoteProvidersFrom({ providers: { falKey: null, replicateToken: null, elevenLabsKey: null } }), GENERATED_VIDEO, "auto"),
    ).toBeNull();
  });

  it("names what a model does, never who runs it", () => {
    expect([GENERATED_VIDEO, TALKING_PRESENTER]).toEqual(["generated-video", "talking-presenter"]);
  });
});
