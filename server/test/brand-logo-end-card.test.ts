// A logo uploaded to the brand page (POST /user/brand/logo) closes the brand's ads. Its address is
// this service's own (http://localhost:… on a local install), which the outbound network guard refuses to
// fetch, so the pipeline reads an uploaded logo from the media store instead. The end card's frame shows the
// logo's colour, centred, where the closing scene puts it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { frameAt, share } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let user: Account;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "adgen-logo-card-"));
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "6" });
  user = await signUp(app, "logo-card");
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A colour no template, tint or test picture uses: pure orange. */
const isOrange = (r: number, g: number, b: number) => r > 200 && g > 90 && g < 170 && b < 70;

async function orangeLogo(): Promise<Buffer> {
  const canvas = createCanvas(400, 160);
  const g = canvas.getContext("2d");
  g.fillStyle = "#ff8000";
  g.fillRect(0, 0, 400, 160);
  return Buffer.from(await canvas.encode("png"));
}

async function waitForJob(jobId: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("an uploaded logo on the end card", () => {
  it("a job for a brand with an uploaded logo closes on that logo, read from the media store", { timeout: 200_000 }, async () => {
    const saved = await user.client.post("/user/brand", { name: "Ember Roasters" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await orangeLogo())]), "logo.png");
    const uploaded = await fetch(`${app.url}/api/user/brand/logo`, {
      method: "POST",
      headers: { cookie: `session=${user.jwt}` },
      body: form,
    });
    const logo = (await uploaded.json()) as { data: { logoUrl: string; brandId: string } };
    expect(uploaded.status, JSON.stringify(logo)).toBe(200);
    // The service's own address, which the outbound guard refuses (loopback).
    expect(new URL(logo.data.logoUrl).hostname).toBe("localhost");

    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      brand: logo.data.brandId,
      concept: "Ember Roasters: small-batch coffee roasted the day it ships. 'Taste the difference.'",
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.warnings?.join("\n") ?? "").not.toMatch(/logo/i);
    expect(job.result.storyboard.brand.logoKey).toBe(`jobs/${job.jobId}/logo.png`);

    const res = await fetch(`${app.url}${new URL(job.result.finalVideo).pathname}`, { headers: { cookie: `session=${user.jwt}` } });
    expect(res.status).toBe(200);
    const file = join(dir, "ad.mp4");
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    // The middle of the closing scene (the end card), away from the transitions.
    const scenes = job.result.storyboard.scenes as { durationSec: number }[];
    const closingStart = scenes.slice(0, -1).reduce((sum, s) => sum + s.durationSec, 0);
    const closing = await frameAt(file, closingStart + scenes.at(-1)!.durationSec / 2, 108, 192);
    const centre = { x: 0.2, y: 0, w: 0.6, h: 1 };
    expect(share(closing, isOrange, centre), "the logo is on the end card, centred").toBeGreaterThan(0.01);
    // Only the end card carries it: the opening scene has no orange.
    const opening = await frameAt(file, scenes[0]!.durationSec / 2, 108, 192);
    expect(share(opening, isOrange), "the opening shows no logo").toBeLessThan(0.002);
  });
});
