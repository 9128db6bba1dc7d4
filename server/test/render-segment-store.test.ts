// The service's scene segment cache: segments are kept in MediaStorage and indexed in the
// database, the least recently used go first past the size cap, and the admin system page shows the
// cache's size and hit rate. Every render of the service goes through it (WORKERS render real jobs).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSegmentStore } from "../src/modules/render/segment-store.ts";
import { ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-segment-store-"));
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", SIGNUP_CREDITS: "10" });
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

function fileOf(name: string, kb: number): string {
  const file = join(dir, name);
  writeFileSync(file, Buffer.alloc(kb * 1024, name));
  return file;
}

describe("the segment cache", () => {
  it("keeps segments until the cap, then lets the least recently used go", async () => {
    const store = createSegmentStore(app.services.prisma, app.services.media, 500 * 1024);
    await store.put("seg-a", fileOf("a", 200));
    await store.put("seg-b", fileOf("b", 200));
    // a is used again, so b is now the least recently used.
    expect(await store.get("seg-a")).toBeTruthy();
    await store.put("seg-c", fileOf("c", 200));
    expect(await store.get("seg-b")).toBeNull();
    const a = await store.get("seg-a");
    expect(a && readFileSync(a).length).toBe(200 * 1024);
    expect(await store.get("seg-c")).toBeTruthy();
    // The file handed in stays where it was (the render joins it next).
    expect(existsSync(join(dir, "c"))).toBe(true);
    expect(await app.services.media.stat("cache/segments/seg-b")).toBeNull();
  });

  it("is used by the service's renders, and the admin system page shows its size and hit rate", { timeout: 180_000 }, async () => {
    const user = await signUp(app, "cache");
    const video = async () => {
      const res = await user.client.post("/workflow", {
        type: "cinematic",
        concept: "Lumen desk lamp: light that follows your day",
        formats: ["1:1"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const jobId = res.body.data.jobId as string;
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
        const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
        if (job.status === "completed" || job.status === "failed") return job;
      }
      throw new Error(`job ${jobId} did not finish`);
    };
    expect((await video()).status).toBe("completed");
    // The same brief again: the same scenes, so their segments come from the cache.
    expect((await video()).status).toBe("completed");
    const admin = await adminClient(app);
    const system = (await admin.get("/admin/system")).body.data;
    expect(system.renderCache.entries).toBeGreaterThan(0);
    expect(system.renderCache.bytes).toBeGreaterThan(0);
    expect(system.renderCache.capBytes).toBe(2048 * 1024 * 1024);
    expect(system.renderCache.hits).toBeGreaterThan(0);
    expect(system.renderCache.hitRate).toBeGreaterThan(0);
  });
});
