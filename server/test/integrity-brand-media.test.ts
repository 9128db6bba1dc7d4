// The admin integrity report on a brand library: a clip's poster (and any file made from a row and kept
// beside it as `<id>-<kind>`) is owned by its row, so a healthy library reports ok; a file no row owns,
// or one left by a deleted clip, is still reported orphaned.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let admin: RestClient;
let dir: string;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  owner = await signUp(app, "integrity-brand");
  admin = await adminClient(app);
  dir = mkdtempSync(join(tmpdir(), "integrity-brand-"));
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A 3 s test-pattern clip, made asynchronously so the server in this process keeps answering. */
async function clip(): Promise<Buffer> {
  const file = join(dir, "spin.mp4");
  await promisify(execFile)(locateFfmpeg(), [
    ...["-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30"],
    ...["-t", "3", "-pix_fmt", "yuv420p", file],
  ]);
  return readFileSync(file);
}

async function photo(): Promise<Buffer> {
  const canvas = createCanvas(300, 300);
  const g = canvas.getContext("2d");
  g.fillStyle = "#3050c0";
  g.fillRect(0, 0, 300, 300);
  return Buffer.from(await canvas.encode("png"));
}

async function upload(bytes: Buffer, filename: string, role: string) {
  const form = new FormData();
  form.append("role", role);
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${owner.jwt}` }, body: form });
  const body = (await res.json()) as { data?: { id: string; url: string; posterUrl: string | null } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data!;
}

const served = async (url: string) =>
  (await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${owner.jwt}` } })).status;

const report = async () => {
  const res = await admin.get("/integrity");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { ok: boolean; orphanedMediaFiles: { count: number; examples: { key: string; bytes: number }[] } };
};

const plant = (name: string, text: string) => {
  writeFileSync(join(app.config.dataDir, "media", "brand", owner.id, name), text);
  return { key: `brand/${owner.id}/${name}`, bytes: Buffer.byteLength(text) };
};

describe("the integrity report on a brand library", () => {
  let liveClip: { id: string; url: string; posterUrl: string | null };

  it("reports ok with no orphans while a clip (with its poster) and a photo are live", { timeout: 60_000 }, async () => {
    liveClip = await upload(await clip(), "spin.mp4", "footage");
    const still = await upload(await photo(), "product.png", "product");
    // Both the clip's poster and its file are live: served to their owner.
    expect(liveClip.posterUrl).toBeTruthy();
    expect(await served(liveClip.posterUrl!)).toBe(200);
    expect(await served(liveClip.url)).toBe(200);
    expect(await served(still.url)).toBe(200);

    const healthy = await report();
    expect(healthy.orphanedMediaFiles).toEqual({ count: 0, examples: [] });
    expect(healthy.ok).toBe(true);
  });

  it("counts a file kept beside a live clip as `<id>-<kind>` (a working copy) as that clip's", async () => {
    plant(`${liveClip.id}-working.jpg`, "a working copy");
    expect(await report()).toMatchObject({ ok: true, orphanedMediaFiles: { count: 0 } });
  });

  it("reports a file no row owns, a poster of no clip and what a deleted clip left behind", async () => {
    const stray = plant(`${randomUUID()}.mp4`, "no row's clip");
    const strayPoster = plant(`${randomUUID()}-poster.jpg`, "no clip's poster");
    const gone = await upload(await clip(), "gone.mp4", "footage");
    const deleted = await owner.client.call("DELETE", `/user/brand/media/${gone.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const leftover = plant(`${gone.id}-working.jpg`, "left by a deleted clip");
    // A name that merely starts like a live row's id is not that row's.
    const lookalike = plant(`${liveClip.id.slice(0, 8)}-poster.jpg`, "only looks like one");

    const found = await report();
    expect(found.ok).toBe(false);
    expect(found.orphanedMediaFiles.count).toBe(4);
    expect(found.orphanedMediaFiles.examples).toEqual(expect.arrayContaining([stray, strayPoster, leftover, lookalike]));
  });
});
