// A user's presenter and product footage reach the ad: a presenter photo fills the presenter slot of an
// avatar ad (and is never shown as a product picture), and product clips are cut to the beats, each scene
// playing the next stretch of them. A person ad without a presenter is refused before charging (400).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateFfmpeg } from "../src/modules/render/ffmpeg.ts";
import type { TRPCClientError } from "@trpc/client";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { difference, frameAt, share } from "./support/frames.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { presenterPhoto } from "./support/presenter.ts";
import { settledJob } from "./support/wait-for.ts";

const ffmpeg = locateFfmpeg();
let app: TestApp;
let dir: string;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "8" });
  dir = mkdtempSync(join(tmpdir(), "presenter-footage-"));
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
  const body = (await res.json()) as { data?: any; error?: string };
  expect(res.status, body.error).toBe(200);
  return body.data;
}

/** A product clip whose colours turn as it plays. Made asynchronously: the server runs in this process. */
async function footage(name: string, seconds: number): Promise<Buffer> {
  const file = join(dir, name);
  await promisify(execFile)(ffmpeg, [
    "-y",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=640x360:rate=30,hue=h=t*120",
    "-t",
    String(seconds),
    "-pix_fmt",
    "yuv420p",
    file,
  ]);
  return readFileSync(file);
}

async function video(account: Account, job: any): Promise<string> {
  const address = `${app.url}${new URL(job.result.finalVideo).pathname}`;
  const init = { headers: { cookie: `session=${account.jwt}` } };
  // Once more on a dropped keep-alive connection (a socket the server closed while the test waited).
  const res = await fetch(address, init).catch(() => fetch(address, init));
  expect(res.status).toBe(200);
  const file = join(dir, `${job.jobId}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

async function launch(account: Account, body: Record<string, unknown>) {
  const launched = await account.client.post("/workflow", { formats: ["9:16"], ...body });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await settledJob(account.client, launched.body.data.jobId);
  expect(job.status, job.error).toBe("completed");
  return job;
}

const isOrange = (r: number, g: number, b: number) => r > 200 && g > 90 && g < 170 && b < 80;

describe("a presenter from the brand media library", () => {
  it("fills the avatar ad's presenter slot, and is not shown as a product picture", { timeout: 240_000 }, async () => {
    const user = await signUp(app, "presenter-owner");
    await upload(user, presenterPhoto(), "sam.png", { role: "presenter", consentName: "Sam Lee", consent: "on" });
    const job = await launch(user, { type: "avatar", concept: "Glow serum: skin that stays soft all day. 'Try it tonight.'" });
    // The persona the voice step made carries the photo; no scene shows it as the product.
    const step = await app.services.prisma.jobStep.findFirst({ where: { jobId: job.jobId, name: "voice" } });
    expect((step!.output as any).persona.photoKey).toMatch(/presenter\.png$/);
    // The name bar names the person as their consent gave it, over the brand they speak for.
    expect((step!.output as any).persona.name).toBe("Sam Lee");
    expect((step!.output as any).persona.label).not.toBe("Presenter");
    expect(job.result.storyboard.scenes.every((s: any) => !s.imageKey?.includes("presenter"))).toBe(true);
    const file = await video(user, job);
    const frame = await frameAt(file, 1.5, 108, 192);
    expect(share(frame, isOrange), "the presenter's face is on screen").toBeGreaterThan(0.01);
  });

  it("is required: without one a person ad is refused 400 on every transport, saying what to upload, and nothing is charged", {
    timeout: 60_000,
  }, async () => {
    const user = await signUp(app, "no-presenter");
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const rest = await user.client.post("/workflow", { type: "avatar", concept: "Glow serum: skin that stays soft all day." });
    expect(rest.status, JSON.stringify(rest.body)).toBe(400);
    expect(rest.body.error).toMatch(/upload a photo or short clip of the presenter to your media library/);
    // The plan's refusal comes first: the trial plan may not launch an Influencer at all.
    expect((await user.client.post("/workflow", { type: "influencer" })).status).toBe(403);
    const estimate = await user.client.post("/workflow/estimate", { type: "avatar" });
    expect(estimate.status).toBe(400);
    const trpc = await trpcClient(app.url, user.jwt)
      .workflow.launch.mutate({ type: "avatar" })
      .then(
        () => null,
        (error: TRPCClientError<any>) => ({ code: error.data?.code, fields: error.data?.fields }),
      );
    expect(trpc).toMatchObject({ code: "BAD_REQUEST", fields: [{ field: "presenter" }] });
    const gql = await graphql(app.url, "mutation { workflowLaunch(type: avatar) { jobId } }", {}, user.jwt);
    expect(gql.body.errors?.[0]?.message).toMatch(/media library/);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    expect(await app.services.prisma.job.count({ where: { userId: user.id } })).toBe(0);
  });

  it("is named on the name bar as given with the consent, never as 'Presenter'", { timeout: 30_000 }, async () => {
    const { personaFor } = await import("../src/modules/workflows/pipeline/persona-name.ts");
    expect(personaFor("presenter", "Glow Labs", "Sam Lee", {})).toMatchObject({ name: "Sam Lee", label: "Glow Labs" });
    expect(personaFor("presenter", "Glow Labs", undefined, {})).toMatchObject({ name: "Glow Labs", label: "" });
    expect(personaFor("selfie", "Glow Labs", "Sam Lee", {}).name).toBe("@samlee");
  });
});

describe("product footage from the brand media library", () => {
  it("is cut to the beats: each scene plays the next stretch of the clips, and the clip moves on screen", {
    timeout: 240_000,
  }, async () => {
    const user = await signUp(app, "footage-owner");
    await upload(user, await footage("pour.mp4", 6), "pour.mp4", { role: "footage" });
    const job = await launch(user, {
      type: "cinematic",
      concept:
        "Cold brew that is ready in ten seconds. No machine, no mess. Brewed for 20 hours from single-origin beans. One bottle makes 16 cups.",
    });
    const scenes = job.result.storyboard.scenes as any[];
    const clipped = scenes.filter((s) => s.videoKey);
    expect(clipped.length).toBeGreaterThanOrEqual(2);
    expect(clipped.every((s) => /footage-1\.mp4$/.test(s.videoKey))).toBe(true);
    // Stretches follow each other through the clip, from its start.
    expect(clipped[0].videoStartSec).toBe(0);
    for (let i = 1; i < clipped.length; i++) expect(clipped[i].videoStartSec).toBeGreaterThan(clipped[i - 1].videoStartSec);
    const file = await video(user, job);
    const first = scenes[0].durationSec as number;
    const a = await frameAt(file, first * 0.4, 108, 192);
    const b = await frameAt(file, first * 0.9, 108, 192);
    expect(difference(a, b), "the clip plays").toBeGreaterThan(3);
  });
});
