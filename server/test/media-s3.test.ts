// Media in an S3-compatible object store (MEDIA_STORAGE=s3), against s3rver: the store itself (round
// trips, ranges, deletes, parts, local copies), then the service on it: a brand photo uploaded, a job
// rendered with it, the video served with byte ranges, both ZIP exports, the admin figures, the
// integrity check and a project's deletion, with nothing kept on the local disk.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/env.ts";
import { DownloadCache } from "../src/media/download-cache.ts";
import { S3MediaStorage } from "../src/media/s3-storage.ts";
import { ADMIN_ENV, type Account, adminClient, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { startS3, type TestS3 } from "./support/s3-server.ts";
import { readZip } from "./support/zip.ts";

let s3: TestS3;
let scratch: string;
beforeAll(async () => {
  s3 = await startS3();
  scratch = await mkdtemp(join(tmpdir(), "adgen-s3-test-"));
});
afterAll(async () => {
  await s3?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function storageFor(bucket = s3.bucket): S3MediaStorage {
  return new S3MediaStorage(
    {
      bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      forcePathStyle: true,
    },
    join(scratch, "local"),
  );
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function localFileWith(name: string, bytes: Buffer): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, bytes);
  return path;
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the S3 media store", () => {
  it("stores, stats, reads whole and by range, lists and deletes, and moves the local file into the bucket", async () => {
    const media = storageFor();
    const bytes = randomBytes(10_000);
    const local = await localFileWith("round-trip.mp4", bytes);
    expect(await media.put("jobs/round1/ad.mp4", local)).toEqual({ key: "jobs/round1/ad.mp4", bytes: 10_000 });
    expect(existsSync(local)).toBe(false);

    const info = await media.stat("jobs/round1/ad.mp4");
    expect(info?.bytes).toBe(10_000);
    expect(info?.modifiedAt).toBeInstanceOf(Date);
    expect(await media.stat("jobs/round1/missing.mp4")).toBeNull();
    expect((await bytesOf(media.read("jobs/round1/ad.mp4"))).equals(bytes)).toBe(true);
    expect((await bytesOf(media.read("jobs/round1/ad.mp4", { start: 100, end: 199 }))).equals(bytes.subarray(100, 200))).toBe(true);
    expect((await bytesOf(media.read("jobs/round1/ad.mp4", { start: 9_990, end: 9_999 }))).equals(bytes.subarray(9_990))).toBe(true);
    await expect(bytesOf(media.read("jobs/round1/missing.mp4"))).rejects.toThrow();

    // A folder and its neighbour with a longer name: removing one leaves the other.
    await media.put("jobs/round1/thumb.jpg", await localFileWith("t.jpg", randomBytes(10)));
    await media.put("jobs/round10/ad.mp4", await localFileWith("n.mp4", randomBytes(20)));
    expect((await media.list("jobs")).filter((o) => o.key.startsWith("jobs/round1")).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: "jobs/round1/ad.mp4", bytes: 10_000 },
      { key: "jobs/round1/thumb.jpg", bytes: 10 },
      { key: "jobs/round10/ad.mp4", bytes: 20 },
    ]);
    await media.remove("jobs/round1");
    expect(await media.stat("jobs/round1/ad.mp4")).toBeNull();
    expect(await media.stat("jobs/round1/thumb.jpg")).toBeNull();
    expect(await media.stat("jobs/round10/ad.mp4")).not.toBeNull();
    // One file, and something absent, are removed alike.
    await media.remove("jobs/round10/ad.mp4");
    await media.remove("jobs/never-was");
    expect(await media.stat("jobs/round10/ad.mp4")).toBeNull();
    media.close();
  });

  it("uploads a large file in parts and streams any range of it back", async () => {
    const media = storageFor();
    const sent: string[] = [];
    const send = media.client.send.bind(media.client);
    media.client.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
      sent.push(command.constructor.name);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof media.client.send;
    const bytes = randomBytes(20 * 1024 * 1024);
    const stored = await media.put("jobs/big/ad.mp4", await localFileWith("big.mp4", bytes));
    expect(stored.bytes).toBe(bytes.length);
    expect(sent.filter((name) => name === "UploadPartCommand")).toHaveLength(3);
    expect(sent).toContain("CompleteMultipartUploadCommand");
    expect(sent).not.toContain("PutObjectCommand");
    const middle = { start: 9 * 1024 * 1024 - 5, end: 9 * 1024 * 1024 + 4 };
    expect((await bytesOf(media.read("jobs/big/ad.mp4", middle))).equals(bytes.subarray(middle.start, middle.end + 1))).toBe(true);
    expect(sha(await bytesOf(media.read("jobs/big/ad.mp4")))).toBe(sha(bytes));
    expect((await media.usage()).bytes).toBeGreaterThanOrEqual(bytes.length);
    await media.remove("jobs/big");
    media.close();
  });

  it("gives tools a local copy, downloaded again when the object changes, and refuses missing objects and escaping keys", async () => {
    const media = storageFor();
    await media.put("brand/u1/photo.png", await localFileWith("p1.png", Buffer.from("first version")));
    const copy = await media.localFile("brand/u1/photo.png");
    expect(copy.startsWith(join(scratch, "local", ".cache"))).toBe(true);
    expect(readFileSync(copy, "utf8")).toBe("first version");
    await media.put("brand/u1/photo.png", await localFileWith("p2.png", Buffer.from("second, longer version")));
    expect(await readFile(await media.localFile("brand/u1/photo.png"), "utf8")).toBe("second, longer version");
    await expect(media.localFile("brand/u1/none.png")).rejects.toThrow(/not found/);
    await media.remove("brand/u1");
    expect(existsSync(copy)).toBe(false);
    await expect(media.put("../outside.png", await localFileWith("o.png", Buffer.from("x")))).rejects.toThrow(/escapes/);
    expect(() => media.read("jobs/../brand/x.png")).toThrow(/escapes/);
    media.close();
  });

  it("deletes local copies unused for an hour, and keeps those in use", async () => {
    let downloads = 0;
    const cache = new DownloadCache(join(scratch, "sweep-cache"), {
      version: async (key) => (key.includes("missing") ? null : "v1"),
      read: () => {
        downloads++;
        return Readable.from([Buffer.from("bytes")]);
      },
    });
    const old = await cache.file("jobs/j1/picture-1.png");
    expect(await cache.file("jobs/j1/picture-1.png")).toBe(old);
    expect(downloads).toBe(1);
    await cache.sweep(Date.now() + 30 * 60 * 1000);
    expect(existsSync(old)).toBe(true);
    await cache.sweep(Date.now() + 2 * 60 * 60 * 1000);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(scratch, "sweep-cache", "jobs"))).toBe(false);
    expect(readFileSync(await cache.file("jobs/j1/picture-1.png"), "utf8")).toBe("bytes");
    expect(downloads).toBe(2);
  });

  it("is configured by MEDIA_STORAGE and S3_*; a wrong setting is refused at start-up naming the variable", () => {
    const base = { DATA_DIR: scratch, SESSION_SECRET: "s".repeat(40) };
    expect(loadConfig(base).media).toEqual({ kind: "local" });
    expect(loadConfig({ ...base, ...s3.env }).media).toEqual({
      kind: "s3",
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      forcePathStyle: true,
    });
    const refused: [Record<string, string>, RegExp][] = [
      [{ MEDIA_STORAGE: "gcs" }, /MEDIA_STORAGE must be local or s3/],
      [{ MEDIA_STORAGE: "s3" }, /needs S3_BUCKET/],
      [{ MEDIA_STORAGE: "s3", S3_BUCKET: "b1", S3_ENDPOINT: "s3.example.com" }, /S3_ENDPOINT must be the service's http\(s\) URL/],
      [{ MEDIA_STORAGE: "s3", S3_BUCKET: "b1", S3_ACCESS_KEY_ID: "k" }, /must be set together/],
      [{ MEDIA_STORAGE: "s3", S3_BUCKET: "b1", S3_FORCE_PATH_STYLE: "maybe" }, /S3_FORCE_PATH_STYLE must be/],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env })).toThrow(message);
    }
  });
});

describe("the service with its media in S3", () => {
  let app: TestApp;
  let user: Account;
  let jobId: string;
  let video: Buffer;
  let videoKey: string;
  const cookie = () => ({ cookie: `session=${user.jwt}` });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers: { ...cookie(), ...headers } });
  const media = () => app.services.media as S3MediaStorage;

  beforeAll(async () => {
    app = await startTestApp({ ...s3.env, ...ADMIN_ENV, WORKERS: "1" });
    user = await signUp(app, "s3-media");
    // A product photo for the library: uploaded into the bucket, then copied among the job's media.
    const canvas = createCanvas(400, 320);
    const g = canvas.getContext("2d");
    g.fillStyle = "#2a7de1";
    g.fillRect(0, 0, 400, 320);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await canvas.encode("png"))], { type: "image/png" }), "product.png");
    const uploaded = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: cookie(), body: form });
    expect(uploaded.status).toBe(200);

    const launched = await user.client.post("/workflow", { type: "cinematic", concept: "Ads stored in a bucket", formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    jobId = launched.body.data.jobId;
    const deadline = Date.now() + 120_000;
    let job: any;
    for (;;) {
      job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
      if (job.status === "completed" || job.status === "failed" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(job.status, job.error).toBe("completed");
    const path = new URL(job.result.finalVideo).pathname;
    videoKey = path.replace(/^\/api\/media\//, "jobs/");
    video = await bytesOf(media().read(videoKey));
    expect(video.length).toBeGreaterThan(1000);
  }, 150_000);
  afterAll(() => app?.close());

  it("keeps the render, its thumbnail and the library photo's copy in the bucket, none on the local disk", async () => {
    const keys = (await media().list(`jobs/${jobId}`)).map((o) => o.key);
    expect(keys).toContain(videoKey);
    expect(keys).toContain(`jobs/${jobId}/picture-1.png`);
    expect(keys.some((key) => key.endsWith(".jpg"))).toBe(true);
    expect((await media().list(`brand/${user.id}`)).length).toBe(1);
    expect(existsSync(join(app.config.dataDir, "media", "jobs"))).toBe(false);
    expect(existsSync(join(app.config.dataDir, "media", "brand"))).toBe(false);
  });

  it("serves the video from the bucket with byte ranges: 200 whole, 206 with Content-Range, 416 past the end", async () => {
    const path = `/api/media/${videoKey.replace(/^jobs\//, "")}`;
    const whole = await get(path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);

    const ranged = await get(path, { range: "bytes=100-1099" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-1099/${video.length}`);
    expect(ranged.headers.get("content-length")).toBe("1000");
    expect(Buffer.from(await ranged.arrayBuffer()).equals(video.subarray(100, 1100))).toBe(true);

    const tail = await get(path, { range: "bytes=-500" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(video.length - 500))).toBe(true);

    const past = await get(path, { range: `bytes=${video.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${video.length}`);
    expect((await get(`/api/media/${jobId}/nothing.mp4`)).status).toBe(404);
  });

  it("streams the video from the bucket into the projects ZIP and into a background export", async () => {
    const zip = await get("/api/user/projects/export?format=zip");
    expect(zip.status).toBe(200);
    const entries = readZip(Buffer.from(await zip.arrayBuffer()));
    // The project's folder is its name with the start of its id (zipFolderOf), the file its own name.
    const videoFile = videoKey.split("/").pop()!;
    const name = [...entries.keys()].find((entry) => entry.endsWith(`${jobId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8)}/${videoFile}`));
    expect(name, [...entries.keys()].join(", ")).toBeDefined();
    expect(entries.get(name!)?.equals(video)).toBe(true);
    expect(entries.has("projects.json")).toBe(true);

    const started = await user.client.post("/export");
    expect(started.status).toBe(200);
    const exportId = started.body.data.exportId;
    const deadline = Date.now() + 30_000;
    let status: any;
    for (;;) {
      status = (await user.client.get(`/export/${exportId}`)).body.data;
      if (status.status === "completed" || status.status === "failed" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status.status, status.error).toBe("completed");
    expect(await media().stat(`exports/${user.id}/${exportId}.zip`)).not.toBeNull();
    const file = await get(`/api/export/${exportId}/download`);
    expect(file.status).toBe(200);
    expect(
      readZip(Buffer.from(await file.arrayBuffer()))
        .get(name!)
        ?.equals(video),
    ).toBe(true);
  });

  it("counts the bucket in the admin system report and finds an object no job owns", async () => {
    const admin = await adminClient(app);
    const system = await admin.get("/admin/system");
    expect(system.status).toBe(200);
    expect(system.body.data.storage.mediaFiles).toBeGreaterThanOrEqual(3);
    expect(system.body.data.storage.mediaBytes).toBeGreaterThan(video.length);

    const orphan = "jobs/no-such-job/ad-9x16.mp4";
    await media().put(orphan, await localFileWith("orphan.mp4", Buffer.from("left behind")));
    const report = (await admin.get("/integrity")).body.data;
    expect(report.orphanedMediaFiles.examples).toContainEqual(expect.objectContaining({ key: orphan }));
    expect(report.jobsWithMissingFiles.count).toBe(0);
    await media().remove("jobs/no-such-job");
  });

  it("the admin health report asks the bucket, and says so when it is not there", async () => {
    const admin = await adminClient(app);
    const health = (await admin.get("/admin/health")).body.data;
    expect(health.checks).toContainEqual(expect.objectContaining({ name: "media bucket", status: "ok" }));
    const missing = storageFor("no-such-bucket");
    await expect(missing.list("health/")).rejects.toThrow();
  });

  it("deleting the project deletes its objects from the bucket", async () => {
    expect((await user.client.delete(`/user/projects/${jobId}`)).status).toBe(200);
    expect(await media().list(`jobs/${jobId}`)).toEqual([]);
    expect((await get(`/api/media/${videoKey.replace(/^jobs\//, "")}`)).status).toBe(404);
  });
});
