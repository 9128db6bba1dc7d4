// Publishing a finished ad (`publish: true`) to a connected Facebook Page: the Page and its token are
// checked with the Graph API before they are kept; a launch without a connected account is refused before
// anything is charged; a finished ad is scheduled for the schedule's next slot (at once without one), then
// posted through the Graph API video upload, and the result records the post id or the reason it failed.
// The Graph API is answered by msw in its documented shapes, and checks each call's appsecret_proof.
import { createHmac } from "node:crypto";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextSlot } from "../src/modules/social/next-slot.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const SECRET = "meta-app-secret-for-tests";
const PAGE = "104829384756123";
const GOOD = "EAAGgoodpagetoken0123456789";
const proof = (token: string) => createHmac("sha256", SECRET).update(token).digest("hex");
let uploadMode: "ok" | "refuse" = "ok";
const uploads: { pageId: string; bytes: number; head: string; description: string; proofOk: boolean }[] = [];

const graphError = (message: string, code: number) =>
  HttpResponse.json({ error: { message, type: "OAuthException", code, fbtrace_id: "AbC" } }, { status: 400 });

const network = setupServer(
  http.get("https://graph.facebook.com/v21.0/:pageId", ({ request, params }) => {
    const url = new URL(request.url);
    const token = url.searchParams.get("access_token") ?? "";
    if (url.searchParams.get("appsecret_proof") !== proof(token))
      return graphError("Invalid appsecret_proof provided in the API argument", 100);
    if (token !== GOOD || params.pageId !== PAGE) return graphError("Invalid OAuth access token - Cannot parse access token", 190);
    return HttpResponse.json({ id: PAGE, name: "Brewly Coffee" });
  }),
  http.post("https://graph-video.facebook.com/v21.0/:pageId/videos", async ({ request, params }) => {
    const form = await request.formData();
    const source = form.get("source") as File | null;
    const token = String(form.get("access_token"));
    const bytes = source ? new Uint8Array(await source.arrayBuffer()) : new Uint8Array();
    uploads.push({
      pageId: String(params.pageId),
      bytes: bytes.length,
      head: Buffer.from(bytes.subarray(4, 8)).toString("latin1"),
      description: String(form.get("description")),
      proofOk: form.get("appsecret_proof") === proof(token),
    });
    if (uploadMode === "refuse") return graphError("(#200) The user hasn't authorized the application to perform this action", 200);
    return HttpResponse.json({ id: "10160000000000001" });
  }),
);

let app: TestApp;
let plain: TestApp;
let user: Account;

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  const env = { WORKERS: "1", SIGNUP_CREDITS: "20", STUDIO_MAX_AD_SECONDS: "2" };
  [app, plain] = await Promise.all([startTestApp({ ...env, META_APP_SECRET: SECRET }), startTestApp(env)]);
  user = await signUp(app, "publisher");
});
afterAll(async () => {
  await Promise.all([app?.close(), plain?.close()]);
  network.close();
});

const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;

async function waitFor(account: Account, jobId: string, done: (job: any) => boolean): Promise<any> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job?.status === "failed") throw new Error(`job failed: ${job.error}`);
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(job?.result?.publication ?? job?.status)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("connecting a Page", () => {
  it("checks the Page and token with the Graph API, keeps them, lists them without the token, and disconnects", async () => {
    const other = await signUp(app, "other");
    const bad = await user.client.post("/user/social", { pageId: PAGE, accessToken: "EAAGwrongtoken0000000000" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Facebook refused: Invalid OAuth access token.*Check the Page id/);
    expect((await user.client.post("/user/social", { pageId: "my page", accessToken: GOOD })).body.error).toMatch(/Page id is a number/);

    const connected = await user.client.post("/user/social", { pageId: PAGE, accessToken: GOOD });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body.data).toMatchObject({ platform: "facebook", pageId: PAGE, pageName: "Brewly Coffee" });
    const listed = await user.client.get("/user/social");
    expect(listed.body.data).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(GOOD);

    const otherConnected = await other.client.post("/user/social", { pageId: PAGE, accessToken: GOOD });
    expect((await user.client.delete(`/user/social/${otherConnected.body.data.id}`)).status).toBe(404);
    expect((await other.client.delete(`/user/social/${otherConnected.body.data.id}`)).status).toBe(200);
    expect((await other.client.get("/user/social")).body.data).toEqual([]);
  });

  it("answers 503 where publishing is not set up, and refuses publish before charging without an account", async () => {
    const someone = await signUp(plain, "nopublish");
    const res = await someone.client.post("/user/social", { pageId: PAGE, accessToken: GOOD });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/Publishing is not set up on this instance/);
    const before = await balance(someone);
    const launch = await someone.client.post("/workflow", { type: "cinematic", publish: true });
    expect(launch.status).toBe(400);
    expect(launch.body.error).toMatch(/^No social account is connected/);
    expect(await balance(someone)).toBe(before);
  });

  it("refuses publish for an ad of still images, before charging", async () => {
    await user.client.post("/user/social", { pageId: PAGE, accessToken: GOOD });
    const before = await balance(user);
    const res = await user.client.post("/workflow", { type: "staticad", publish: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Publishing posts a video, and this launch makes still images only/);
    expect(await balance(user)).toBe(before);
  });
});

describe("publishing a finished ad", () => {
  it("posts the video at once without a schedule, and records the post id", { timeout: 150_000 }, async () => {
    await user.client.post("/user/social", { pageId: PAGE, accessToken: GOOD });
    uploads.length = 0;
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      concept: "Brewly cold brew for night shifts",
      formats: ["9:16"],
      publish: true,
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitFor(user, launched.body.data.jobId, (j) => j?.result?.publication?.status === "posted");
    expect(job.result.publication).toMatchObject({
      platform: "facebook",
      pageName: "Brewly Coffee",
      postId: "10160000000000001",
      reason: null,
    });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ pageId: PAGE, head: "ftyp", proofOk: true });
    expect(uploads[0]!.bytes).toBeGreaterThan(10_000);
  });

  it("waits for the schedule's next slot", { timeout: 150_000 }, async () => {
    const schedule = {
      platforms: ["facebook"],
      weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
      times: ["03:00"],
      timezone: "Pacific/Kiritimati",
      frequency: "daily",
    };
    expect((await user.client.post("/user/brand/schedule", schedule)).status).toBe(200);
    try {
      const launched = await user.client.post("/workflow", { type: "cinematic", formats: ["1:1"], publish: true });
      const job = await waitFor(user, launched.body.data.jobId, (j) => j?.status === "completed");
      const publication = job.result.publication;
      expect(publication.status).toBe("scheduled");
      const at = new Date(publication.scheduledFor);
      expect(at.getTime()).toBeGreaterThan(Date.now());
      expect(at.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      // 03:00 in Kiritimati (UTC+14) is 13:00 UTC the day before.
      expect(at.toISOString()).toMatch(/T13:00:00\.000Z$/);
    } finally {
      await user.client.post("/user/brand/schedule", { ...schedule, times: ["03:00"] });
      await app.services.prisma.brandSchedule.deleteMany({ where: { userId: user.id } });
    }
  });

  it("records why a refused post failed", { timeout: 150_000 }, async () => {
    uploadMode = "refuse";
    try {
      const launched = await user.client.post("/workflow", { type: "cinematic", formats: ["1:1"], publish: true });
      const job = await waitFor(user, launched.body.data.jobId, (j) => j?.result?.publication?.status === "failed");
      expect(job.result.publication.reason).toMatch(/^Facebook refused: \(#200\) The user hasn't authorized/);
      expect(job.status).toBe("completed");
    } finally {
      uploadMode = "ok";
    }
  });
});

describe("the schedule's next slot", () => {
  it("reads times in the schedule's zone, across a clock change", () => {
    const paris = { weekdays: ["mon"], times: ["09:30"], timezone: "Europe/Paris" };
    // Friday 2026-03-27 12:00 UTC: the next Monday is 30 March, after the clocks went forward (UTC+2).
    expect(nextSlot(paris, new Date("2026-03-27T12:00:00Z"))?.toISOString()).toBe("2026-03-30T07:30:00.000Z");
    // In winter Paris is UTC+1.
    expect(nextSlot(paris, new Date("2026-01-07T12:00:00Z"))?.toISOString()).toBe("2026-01-12T08:30:00.000Z");
    // Later the same day when the time has not passed yet; the next week when it has.
    expect(nextSlot(paris, new Date("2026-01-12T08:00:00Z"))?.toISOString()).toBe("2026-01-12T08:30:00.000Z");
    expect(nextSlot(paris, new Date("2026-01-12T08:31:00Z"))?.toISOString()).toBe("2026-01-19T08:30:00.000Z");
    const ny = { weekdays: ["fri", "tue"], times: ["18:00", "08:15"], timezone: "America/New_York" };
    expect(nextSlot(ny, new Date("2026-07-01T00:00:00Z"))?.toISOString()).toBe("2026-07-03T12:15:00.000Z");
  });
});
