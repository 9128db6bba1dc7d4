// Remote providers inside jobs: with FAL_KEY (or REPLICATE_API_TOKEN) each scene's picture is generated and
// shows in the video; with ELEVENLABS_API_KEY the natural voice speaks the narration. The models field and
// the account's preference choose; a provider that keeps failing fails the job with a refund; refused
// content fails it at once; no answer a user sees names a provider; GET /api/models/status follows the keys.
// The providers' APIs are answered by msw in their documented shapes.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/index.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { frameAt, isMagenta, PICTURE_BAND, share } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const run = promisify(execFile);
const Q = "https://queue.fal.run/fal-ai/flux/schnell";
const R = "https://api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions";
const PROVIDER_NAMES = /fal\.|fal-ai|\bfal\b|replicate|elevenlabs|flux/i;

type FalMode = "ok" | "down" | "nsfw";
let falMode: FalMode = "ok";
let falSubmits = 0;
let replicateCreates = 0;
const spoken: string[] = [];
let magentaPng: Buffer;

const network = setupServer(
  http.post(Q, () => {
    falSubmits++;
    if (falMode === "down") return HttpResponse.json({ detail: "service unavailable" }, { status: 503 });
    return HttpResponse.json({ request_id: "r1", status_url: `${Q}/requests/r1/status`, response_url: `${Q}/requests/r1` });
  }),
  http.get(`${Q}/requests/r1/status`, () => HttpResponse.json({ status: "COMPLETED" })),
  http.get(`${Q}/requests/r1`, () =>
    HttpResponse.json({
      images: [{ url: "https://fal.media/files/scene.png", width: 1024, height: 1024 }],
      has_nsfw_concepts: [falMode === "nsfw"],
    }),
  ),
  http.get(
    "https://fal.media/files/scene.png",
    () => new HttpResponse(new Uint8Array(magentaPng), { headers: { "content-type": "image/png" } }),
  ),
  http.post(R, () => {
    replicateCreates++;
    return HttpResponse.json(
      {
        id: "p1",
        status: "succeeded",
        output: ["https://replicate.delivery/p1/out.png"],
        urls: { get: "https://api.replicate.com/v1/predictions/p1" },
      },
      { status: 201 },
    );
  }),
  http.get(
    "https://replicate.delivery/p1/out.png",
    () => new HttpResponse(new Uint8Array(magentaPng), { headers: { "content-type": "image/png" } }),
  ),
  http.post("https://api.elevenlabs.io/v1/text-to-speech/:voice/with-timestamps", async ({ request }) => {
    const { text } = (await request.json()) as { text: string };
    spoken.push(text);
    // A 300 Hz tone, 0.06 s per character, and the characters' timings.
    const seconds = Math.max(0.5, text.length * 0.06);
    const pcm = Buffer.alloc(Math.round(22_050 * seconds) * 2);
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(10_000 * Math.sin((2 * Math.PI * 300 * i) / 22_050)), i * 2);
    const characters = [...text];
    return HttpResponse.json({
      audio_base64: pcm.toString("base64"),
      alignment: {
        characters,
        character_start_times_seconds: characters.map((_, i) => i * 0.06),
        character_end_times_seconds: characters.map((_, i) => (i + 1) * 0.06),
      },
    });
  }),
);

let plain: TestApp;
let keyed: TestApp;
let plainUser: Account;
let user: Account;
let dir: string;

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  dir = mkdtempSync(join(tmpdir(), "adgen-provider-jobs-"));
  const file = join(dir, "magenta.png");
  await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "color=c=0xff00ff:s=1024x1024", "-frames:v", "1", "-y", file]);
  magentaPng = await readFile(file);
  const env = { WORKERS: "1", SIGNUP_CREDITS: "100", STUDIO_MAX_AD_SECONDS: "3", JOB_RETRY_LIMIT: "1", JOB_RETRY_DELAY_SECONDS: "0" };
  [plain, keyed] = await Promise.all([
    startTestApp(env),
    startTestApp({ ...env, FAL_KEY: "fal-test-key", REPLICATE_API_TOKEN: "r8-test", ELEVENLABS_API_KEY: "xi-test" }),
  ]);
  [plainUser, user] = await Promise.all([signUp(plain, "plain"), signUp(keyed, "keyed")]);
  await givePresenter(keyed, user.jwt);
});
afterEach(() => {
  falMode = "ok";
});
afterAll(async () => {
  await Promise.all([plain?.close(), keyed?.close()]);
  network.close();
  rmSync(dir, { recursive: true, force: true });
});

const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;

async function waitForEnd(account: Account, jobId: string): Promise<any> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job?.status === "completed" || job?.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job?.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function launch(account: Account, body: object) {
  const res = await account.client.post("/workflow", { concept: "Brewly cold brew keeps night-shift nurses sharp", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return waitForEnd(account, res.body.data.jobId);
}

async function videoOf(app: TestApp, account: Account, job: any): Promise<string> {
  const res = await fetch(`${app.url}${new URL(job.result.finalVideo).pathname}`, {
    headers: { cookie: `session=${account.client.cookie}` },
  });
  expect(res.status).toBe(200);
  const file = join(dir, `${job.jobId}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe("GET /api/models/status and /api/config/studio follow the keys", () => {
  it("lists generated pictures and the natural voice only where a key configures them, naming no provider", async () => {
    const status = async (app: TestApp) => (await (await fetch(`${app.url}/api/models/status`)).json()).data;
    const byName = (s: any) => Object.fromEntries(s.capabilities.map((c: any) => [c.name, c.status]));
    const before = byName(await status(plain));
    const after = byName(await status(keyed));
    // What this instance cannot use is left out, never listed as "unavailable" (SPEC 2.7: active, deprecated).
    expect(before["Studio video"]).toBe("active");
    expect(Object.keys(before)).not.toContain("Generated pictures");
    expect(Object.keys(before)).not.toContain("Natural voice");
    expect(after).toMatchObject({ "Generated pictures": "active", "Natural voice": "active", "Studio video": "active" });
    expect(Object.keys(before)).not.toContain("Generated video");
    expect(after).toMatchObject({ "Generated video": "active", "Talking presenter": "active" });
    expect(JSON.stringify([before, after])).not.toMatch(/unavailable/);
    expect(JSON.stringify(await status(keyed))).not.toMatch(PROVIDER_NAMES);

    const studio = (await (await fetch(`${keyed.url}/api/config/studio`)).json()).data;
    expect(studio.models.image.map((m: any) => [m.id, m.default])).toEqual([
      ["generated-pictures", true],
      ["studio-stills", false],
    ]);
    expect(studio.models.voice.map((m: any) => m.id)).toEqual(["natural-voice", "studio-voice"]);
    const plainStudio = (await (await fetch(`${plain.url}/api/config/studio`)).json()).data;
    expect(plainStudio.models.image.map((m: any) => m.id)).toEqual(["studio-stills"]);
    // A model this instance has no key for is refused before anything is charged.
    const refused = await plainUser.client.post("/workflow", { type: "cinematic", models: { image: "generated-pictures" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^The image model "generated-pictures" is not available here: choose one of studio-stills/);
  });
});

describe("generated pictures", () => {
  it("puts a generated picture on each scene, and it shows in the video", { timeout: 180_000 }, async () => {
    const submitsBefore = falSubmits;
    // (Not a pain-point ad: its opening problem scene shows its picture in grey.)
    const job = await launch(user, { type: "cinematic", formats: ["9:16"] });
    expect(job.status, JSON.stringify(job.error)).toBe("completed");
    expect(job.result.models.image).toBe("generated-pictures");
    expect(falSubmits - submitsBefore).toBeGreaterThanOrEqual(1);
    expect(job.result.storyboard.scenes[0].imageKey).toMatch(/generated-1\.png$/);
    const frame = await frameAt(await videoOf(keyed, user, job), 0.5, 108, 192);
    expect(share(frame, isMagenta, PICTURE_BAND), "the generated picture is on screen").toBeGreaterThan(0.5);
    expect(JSON.stringify(job)).not.toMatch(PROVIDER_NAMES);
  });

  it("follows the account's preference, and the studio's stills when the launch names them", { timeout: 180_000 }, async () => {
    await user.client.post("/user/provider-preference", { preference: "replicate" });
    try {
      const before = { fal: falSubmits, replicate: replicateCreates };
      const preferred = await launch(user, { type: "staticad", formats: ["1:1"] });
      expect(preferred.status).toBe("completed");
      expect(replicateCreates).toBeGreaterThan(before.replicate);
      expect(falSubmits).toBe(before.fal);
      expect(preferred.result.warnings).toEqual([]);

      const afterPreferred = replicateCreates;
      const studio = await launch(user, { type: "staticad", formats: ["1:1"], models: { image: "studio-stills" } });
      expect(studio.result.models.image).toBe("studio-stills");
      expect(replicateCreates, "no picture is generated for the studio's stills").toBe(afterPreferred);
      expect(studio.result.storyboard.scenes.some((s: any) => /generated-/.test(s.imageKey ?? ""))).toBe(false);
    } finally {
      await user.client.post("/user/provider-preference", { preference: "auto" });
    }
  });

  it("fails the job with a refund when the picture service stays down, after retrying", { timeout: 180_000 }, async () => {
    falMode = "down";
    const before = await balance(user);
    const submitsBefore = falSubmits;
    // (Not a pain-point ad: its opening problem scene shows its picture in grey.)
    const job = await launch(user, { type: "cinematic", formats: ["9:16"] });
    expect(job.status).toBe("failed");
    // Three tries per attempt, and the job's own retry (JOB_RETRY_LIMIT=1).
    expect(falSubmits - submitsBefore).toBe(6);
    expect(await balance(user)).toBe(before);
    expect(job.error).toMatch(/picture could not be made: The picture service answered HTTP 503/);
    expect(JSON.stringify(job)).not.toMatch(PROVIDER_NAMES);
  });

  it("fails at once, refunded, when the picture service refuses the content", { timeout: 180_000 }, async () => {
    falMode = "nsfw";
    const before = await balance(user);
    const submitsBefore = falSubmits;
    // (Not a pain-point ad: its opening problem scene shows its picture in grey.)
    const job = await launch(user, { type: "cinematic", formats: ["9:16"] });
    expect(job.status).toBe("failed");
    expect(falSubmits - submitsBefore).toBe(1);
    expect(await balance(user)).toBe(before);
    expect(job.error).toMatch(/refused the picture's content/);
  });
});

describe("the natural voice", () => {
  it("speaks an avatar ad's narration, and the studio voice when the launch names it", { timeout: 180_000 }, async () => {
    spoken.length = 0;
    const job = await launch(user, { type: "avatar", formats: ["1:1"], models: { image: "studio-stills" } });
    expect(job.status, JSON.stringify(job.error)).toBe("completed");
    expect(job.result.models.voice).toBe("natural-voice");
    // The ad's lines were spoken by the natural voice, and the captions carry its words.
    expect(spoken.length).toBeGreaterThan(0);
    const vtt = job.result.assets.find((a: any) => a.type === "captions");
    const captions = await fetch(`${keyed.url}${new URL(vtt.url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } }).then(
      (r) => r.text(),
    );
    expect(captions).toMatch(/^WEBVTT/);
    const cue = captions.split("\n\n")[1]!.split("\n")[2]!;
    expect(spoken.join(" "), "the first caption is words the natural voice said").toContain(cue);
    expect(JSON.stringify(job)).not.toMatch(PROVIDER_NAMES);

    const calls = spoken.length;
    const studio = await launch(user, { type: "avatar", formats: ["1:1"], models: { image: "studio-stills", voice: "studio-voice" } });
    expect(studio.result.models.voice).toBe("studio-voice");
    expect(spoken.length, "the studio voice spoke this one").toBe(calls);
  });
});
