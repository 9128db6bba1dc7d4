// Media within bounds before anything decodes them: a clip whose frames are 16000×16000 (75 KB on disk) is
// refused from its container header with a 400 naming the limit; an 8000×8000 photo is refused for its pixel
// count; the largest photo allowed (8000×6000) is stored as a working copy of at most 2048 px, which is what
// renders read. Heavy child work runs in a pool fair between accounts, each child under a real memory limit.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChildPool } from "../src/media/child-pool.ts";
import { runLimited } from "../src/media/limited-child.ts";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import { imageSize } from "../src/modules/render/image-size.ts";
import { workingPicturePath } from "../src/modules/render/working-picture.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const ffmpeg = locateFfmpeg();
// Made once with: ffmpeg -f lavfi -i color=c=0x3050c0:size=16000x16000:rate=1 -t 2 -c:v libx264 -preset veryfast
// -crf 51 -pix_fmt yuv420p -movflags +faststart (making it takes a minute and 600 MB, so it is kept as a file).
const HUGE_CLIP = join(import.meta.dirname, "fixtures", "media", "clip-16000x16000.mp4");

let app: TestApp;
let owner: Account;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "bounds-owner");
  dir = mkdtempSync(join(tmpdir(), "media-bounds-"));
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function upload(account: Account, bytes: Uint8Array, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${account.jwt}` }, body: form });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: any; error?: string } };
}

/** A flat PNG of the given size, drawn by an ffmpeg child (so this process never holds its pixels). */
async function bigPng(width: number, height: number): Promise<Buffer> {
  const file = join(dir, `${width}x${height}.png`);
  await promisify(execFile)(ffmpeg, [
    "-y",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `color=c=0xe0533a:size=${width}x${height}`,
    "-frames:v",
    "1",
    file,
  ]);
  return readFileSync(file);
}

describe("uploads within bounds", () => {
  it("refuses a 16000×16000 clip from its header, with a 400 that names the limit", { timeout: 30_000 }, async () => {
    const res = await upload(owner, readFileSync(HUGE_CLIP), "tiny-but-huge.mp4", { role: "footage" });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(/16000×16000 px.*at most 4096 px on a side/);
    expect((await owner.client.get("/user/brand/media")).body.data).toEqual([]);
  });

  it("refuses an 8000×8000 photo for its pixel count, and stores the largest allowed as a 2048 px working copy", {
    timeout: 90_000,
  }, async () => {
    const refused = await upload(owner, await bigPng(8000, 8000), "square.png");
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatch(/8000×8000 px \(64\.0 megapixels\).*at most 50\.0 megapixels/);

    const accepted = await upload(owner, await bigPng(8000, 6000), "camera.png");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ width: 2048, height: 1536, mime: "image/png", kind: "image" });
    const served = await fetch(`${app.url}${new URL(accepted.body.data.url).pathname}`, { headers: { cookie: `session=${owner.jwt}` } });
    const png = Buffer.from(await served.arrayBuffer());
    // What a render reads is the working copy: its header says 2048×1536.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2048, 1536]);
  });
});

describe("renders", () => {
  it("decode a picture larger than 2048 px only as a copy scaled by a child", { timeout: 90_000 }, async () => {
    await bigPng(8000, 6000);
    const original = join(dir, "8000x6000.png");
    const working = await workingPicturePath(original);
    expect(working).not.toBe(original);
    expect(await imageSize(working!)).toEqual({ width: 2048, height: 1536 });
    // A small picture is decoded as it is.
    await bigPng(1200, 900);
    expect(await workingPicturePath(join(dir, "1200x900.png"))).toBe(join(dir, "1200x900.png"));
  });
});

describe("the media child pool", () => {
  it("runs at most one item per account and takes accounts in turn", async () => {
    const pool = new ChildPool({ slots: 2 });
    const order: string[] = [];
    const gates: (() => void)[] = [];
    const item = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        gates.push(resolve);
      });
    // One account queues three items, then two other accounts one each.
    const all = [
      pool.run("heavy", item("heavy-1")),
      pool.run("heavy", item("heavy-2")),
      pool.run("heavy", item("heavy-3")),
      pool.run("light", item("light-1")),
      pool.run("other", item("other-1")),
    ];
    // Two slots, but only one for "heavy": the second goes to the next account.
    expect(order).toEqual(["heavy-1", "light-1"]);
    expect(pool.stats).toEqual({ running: 2, waiting: 3 });
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
    // "heavy" just ran, so "other" (waiting longer in turn order) goes before heavy's second item.
    expect(order).toEqual(["heavy-1", "light-1", "other-1"]);
    while (gates.length) {
      gates.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(all);
    expect(order).toEqual(["heavy-1", "light-1", "other-1", "heavy-2", "heavy-3"]);
  });

  it("bounds a child's memory for real: a frame that needs 450 MB fails under 256 MB and decodes under 1 GB", {
    timeout: 60_000,
  }, async () => {
    const args = [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "color=size=8000x8000",
      "-frames:v",
      "1",
      "-vf",
      "format=rgba",
      "-f",
      "null",
      "-",
    ];
    const limited = await runLimited(ffmpeg, args, { memoryBytes: 256 * 1024 * 1024, timeoutMs: 30_000 });
    expect(limited.outOfMemory, limited.stderr).toBe(true);
    expect(limited.code).not.toBe(0);
    const roomy = await runLimited(ffmpeg, args, { memoryBytes: 1024 * 1024 * 1024, timeoutMs: 30_000 });
    expect({ code: roomy.code, outOfMemory: roomy.outOfMemory }, roomy.stderr).toEqual({ code: 0, outOfMemory: false });
  });
});
