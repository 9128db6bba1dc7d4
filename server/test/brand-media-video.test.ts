// Presenters and product footage in the brand media library: an MP4, MOV or WebM clip (judged by what ffmpeg
// finds in it) of 2–60 s and at most 50 MB is transcoded once at upload to H.264 MP4 without sound, at most
// 1080 px on its long side at 30 fps, with a JPEG poster frame; anything else is a 400 saying what to fix. A
// presenter is stored only with the shown person's consent (name, date, the ticked checkbox).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "clip-owner");
  dir = mkdtempSync(join(tmpdir(), "brand-clips-"));
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Each test starts from an empty library.
afterEach(async () => {
  for (const item of await list(owner)) await owner.client.call("DELETE", `/user/brand/media/${item.id}`);
});

const ffmpeg = locateFfmpeg();

/** A test clip: ffmpeg's testsrc2 pattern (with a tone when `audio`), `seconds` long. */
// Made asynchronously: the app under test runs in this process, and a blocked event loop lets its idle
// keep-alive sockets time out under the client's feet (ECONNRESET on the next request).
async function clip(
  name: string,
  { seconds = 3, size = "640x360", rate = 30, audio = false, codec = [] as string[] } = {},
): Promise<Buffer> {
  const file = join(dir, name);
  const args = ["-y", "-loglevel", "error", "-f", "lavfi", "-i", `testsrc2=size=${size}:rate=${rate}`];
  if (audio) args.push("-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100");
  args.push("-t", String(seconds), ...codec);
  if (!codec.length) args.push("-pix_fmt", "yuv420p");
  await promisify(execFile)(ffmpeg, [...args, file]);
  return readFileSync(file);
}

/** What ffmpeg reports on a file: its streams and duration. */
function probe(file: string): string {
  try {
    execFileSync(ffmpeg, ["-hide_banner", "-i", file], { stdio: "pipe" });
  } catch (error) {
    return String((error as { stderr: Buffer }).stderr);
  }
  return "";
}

async function upload(account: Account, bytes: Uint8Array, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${account.jwt}` }, body: form });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: any; error?: string } };
}

async function getFile(account: Account, url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${account.jwt}` } });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

const list = async (account: Account) => (await account.client.get("/user/brand/media")).body.data as any[];
const storedFiles = (account: Account) => {
  const folder = join(app.config.dataDir, "media", "brand", account.id);
  return existsSync(folder) ? readdirSync(folder) : [];
};

async function photo(width = 400, height = 500): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext("2d");
  g.fillStyle = "#f0e0d0";
  g.fillRect(0, 0, width, height);
  g.fillStyle = "#3050c0";
  g.fillRect(width / 3, height / 4, width / 3, height / 2);
  return Buffer.from(await canvas.encode("jpeg"));
}

const consent = { role: "presenter", consent: "on", consentName: "Jamie Rivera", consentAt: "2026-11-20T10:00:00Z" };

describe("clips", () => {
  it("stores a footage clip transcoded: H.264 MP4 without sound, ≤ 1080 px at 30 fps, with its length and a poster", {
    timeout: 60_000,
  }, async () => {
    // 1920×1080 at 60 fps with sound, in a MOV: everything the stored copy must change.
    const source = await clip("big.mov", {
      seconds: 3,
      size: "1920x1080",
      rate: 60,
      audio: true,
      codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"],
    });
    expect(probe(join(dir, "big.mov"))).toMatch(/Audio: aac/);
    const res = await upload(owner, source, "Product Spin.MOV", { role: "footage" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      role: "footage",
      kind: "video",
      mime: "video/mp4",
      width: 1080,
      height: 606,
      consent: null,
      filename: "Product Spin.MOV",
    });
    expect(res.body.data.durationSec).toBeCloseTo(3, 0);

    const stored = await getFile(owner, res.body.data.url);
    expect(stored.status).toBe(200);
    expect(stored.type).toBe("video/mp4");
    expect(stored.body.length).toBe(res.body.data.bytes);
    const file = join(dir, "stored.mp4");
    writeFileSync(file, stored.body);
    const report = probe(file);
    expect(report).toMatch(/Video: h264/);
    expect(report).toMatch(/1080x606/);
    expect(report).toMatch(/30 fps/);
    expect(report).not.toMatch(/Audio:/);

    const poster = await getFile(owner, res.body.data.posterUrl);
    expect(poster.status).toBe(200);
    expect(poster.type).toBe("image/jpeg");
    expect(poster.body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(storedFiles(owner).sort()).toEqual([`${res.body.data.id}-poster.jpg`, `${res.body.data.id}.mp4`]);

    // Listed the same over REST, tRPC and GraphQL.
    const [listed] = await list(owner);
    expect(listed).toEqual(res.body.data);
    const viaTrpc = await trpcClient(app.url, owner.jwt).brand.media.query();
    expect(viaTrpc[0]).toMatchObject({ role: "footage", kind: "video", posterUrl: res.body.data.posterUrl });
    const gql = await graphql(app.url, "{ brandMedia { id role kind durationSec posterUrl consent { name givenAt } } }", {}, owner.jwt);
    expect(gql.body.data.brandMedia[0]).toMatchObject({
      id: listed.id,
      role: "footage",
      kind: "video",
      posterUrl: listed.posterUrl,
      consent: null,
    });

    // Deleting it removes the clip and its poster.
    expect((await owner.client.call("DELETE", `/user/brand/media/${listed.id}`)).status).toBe(200);
    expect(storedFiles(owner)).toEqual([]);
  });

  it("accepts a WebM selfie clip as a presenter with consent, and answers the consent", { timeout: 60_000 }, async () => {
    const webm = await clip("selfie.webm", {
      seconds: 2.5,
      size: "360x640",
      codec: ["-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime"],
    });
    const res = await upload(owner, webm, "selfie.webm", consent);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      role: "presenter",
      kind: "video",
      width: 360,
      height: 640,
      consent: { name: "Jamie Rivera", givenAt: "2026-11-20T10:00:00.000Z" },
    });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { targetId: res.body.data.id, action: "brand.media_uploaded" } });
    expect(audit?.metadata).toMatchObject({ role: "presenter", consentName: "Jamie Rivera" });
    await owner.client.call("DELETE", `/user/brand/media/${res.body.data.id}`);
  });

  it("refuses a presenter without consent or a name, with a 400 saying what to do, and stores nothing", async () => {
    const bytes = await photo();
    const unticked = await upload(owner, bytes, "me.jpg", { role: "presenter", consentName: "Jamie Rivera" });
    expect(unticked.status).toBe(400);
    expect(unticked.body.error).toMatch(/permission to use their likeness in ads/);
    const nameless = await upload(owner, bytes, "me.jpg", { role: "presenter", consent: "on" });
    expect(nameless.status).toBe(400);
    expect(nameless.body.error).toMatch(/name of the person shown/);
    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);

    const ok = await upload(owner, bytes, "me.jpg", { role: "presenter", consent: "on", consentName: "Jamie Rivera" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({
      role: "presenter",
      kind: "image",
      durationSec: null,
      posterUrl: null,
      consent: { name: "Jamie Rivera" },
    });
    expect((await getFile(owner, ok.body.data.url.replace(/\/file$/, "/poster"))).status).toBe(404);
    await owner.client.call("DELETE", `/user/brand/media/${ok.body.data.id}`);
  });

  it("refuses too long, too short, not a video, and the wrong kind for the role, each with a 400 saying what to fix", {
    timeout: 60_000,
  }, async () => {
    const long = await upload(owner, await clip("long.mp4", { seconds: 61, size: "320x240", rate: 5 }), "long.mp4", { role: "footage" });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/"long.mp4" is 61\.0 s long; clips may be at most 60 s, so trim it first/);

    const short = await upload(owner, await clip("short.mp4", { seconds: 1 }), "short.mp4", { role: "footage" });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/at least 2 s/);

    // Text under a video's name.
    const fake = await upload(owner, Buffer.from("this is not a video at all ".repeat(200)), "ad.mp4", { role: "footage" });
    expect(fake.status).toBe(400);
    expect(fake.body.error).toMatch(/"ad.mp4" is not an MP4, MOV or WebM video \(judged by its content/);

    // A photo as footage, a clip as a product photo, and a name that is neither.
    const still = await upload(owner, await photo(), "shot.jpg", { role: "footage" });
    expect(still.status).toBe(400);
    expect(still.body.error).toMatch(/Product footage must be an MP4, MOV or WebM video.*choose Product photo or Presenter/);
    const asProduct = await upload(owner, await clip("p.mp4"), "p.mp4");
    expect(asProduct.status).toBe(400);
    expect(asProduct.body.error).toMatch(/A product photo must be a PNG, JPEG or WebP image.*choose Product footage or Presenter/);
    const odd = await upload(owner, await clip("odd.mp4"), "clip.avi", { role: "footage" });
    expect(odd.status).toBe(400);
    expect(odd.body.error).toMatch(/must be an MP4, MOV or WebM video with a name ending in \.mp4, \.mov, \.webm/);

    const badRole = await upload(owner, await clip("r.mp4"), "r.mp4", { role: "hero" });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toMatch(/role must be product, presenter or footage/);

    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);
  });

  it("refuses a clip over 50 MB and a photo over 10 MB with a 400, and anything past 50 MB with a 413 as it streams", {
    timeout: 60_000,
  }, async () => {
    const mp4 = await clip("pad.mp4");
    // MP4 tolerates trailing bytes: judged by its size, not its content.
    const big = await upload(owner, Buffer.concat([mp4, Buffer.alloc(50 * 1024 * 1024 - mp4.length + 1)]), "pad.mp4", { role: "footage" });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/larger than 50 MB/);
    const jpeg = await photo();
    const bigPhoto = await upload(owner, Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024 + 1 - jpeg.length)]), "huge.jpg");
    expect(bigPhoto.status).toBe(400);
    expect(bigPhoto.body.error).toMatch(/"huge.jpg" is 10\.0 MB; photos may be at most 10 MB/);
    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);
  });
});
