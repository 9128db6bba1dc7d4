// `restrict` does something real: the project may no longer leave the service. On a rendered video with a
// post scheduled on a connected Facebook Page (the Graph API answered by msw), a restriction cancels the
// scheduled post at once (the project page says why), a post that comes due anyway is not made, and a
// `publish: true` launch built on the project (ad-optimizer) answers 403 before anything is charged. The
// media stay with the owner and the admins (as all media do; a stranger gets 404). The owner is told the
// effect by e-mail. A successful appeal lifts it.
import { createHmac } from "node:crypto";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_PUBLISHABLE } from "../src/modules/moderation/media-gate.ts";
import { PUBLICATION_CANCELLED } from "../src/modules/moderation/publication-hold.ts";
import { runPublication } from "../src/modules/social/publish.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const SECRET = "meta-app-secret-for-restrict-tests";
const PAGE = "104829384756999";
const TOKEN = "EAAGrestrictpagetoken0123456789";
const uploads: string[] = [];

const network = setupServer(
  http.get("https://graph.facebook.com/v21.0/:pageId", ({ request }) => {
    const url = new URL(request.url);
    const token = url.searchParams.get("access_token") ?? "";
    const proof = createHmac("sha256", SECRET).update(token).digest("hex");
    if (token !== TOKEN || url.searchParams.get("appsecret_proof") !== proof) {
      return HttpResponse.json({ error: { message: "Invalid OAuth access token", type: "OAuthException", code: 190 } }, { status: 400 });
    }
    return HttpResponse.json({ id: PAGE, name: "Oak & Iron" });
  }),
  http.post("https://graph-video.facebook.com/v21.0/:pageId/videos", ({ params }) => {
    uploads.push(String(params.pageId));
    return HttpResponse.json({ id: "10160000000000777" });
  }),
);

let app: TestApp;
let admin: RestClient;
let owner: Account;
let reporter: Account;
let stranger: Account;
let jobId: string;
let decisionId: string;

async function waitForJob(account: Account, id: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${id}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is still ${job.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;
const getMedia = (url: string, account: Account | RestClient) =>
  fetch(`${app.url}${new URL(url).pathname}`, {
    headers: { cookie: `session=${"client" in account ? account.client.cookie : account.cookie}` },
  });
const optimizeAndPublish = () => ({ type: "ad-optimizer", project: jobId, formats: ["9:16"], publish: true });

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", SIGNUP_CREDITS: "40", META_APP_SECRET: SECRET });
  admin = await adminClient(app);
  [owner, reporter, stranger] = await Promise.all([
    signUp(app, "restrict-owner"),
    signUp(app, "restrict-reporter"),
    signUp(app, "stranger"),
  ]);
  expect((await owner.client.post("/user/social", { pageId: PAGE, accessToken: TOKEN })).status).toBe(200);
  // A daily slot about twelve hours from now, so the finished ad waits for it.
  const hour = String((new Date().getUTCHours() + 12) % 24).padStart(2, "0");
  const schedule = {
    platforms: ["facebook"],
    weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
    times: [`${hour}:00`],
    timezone: "UTC",
    frequency: "daily",
  };
  expect((await owner.client.post("/user/brand/schedule", schedule)).status).toBe(200);
  const launched = await owner.client.post("/workflow", {
    type: "cinematic",
    concept: "Oak chairs built to last a lifetime",
    formats: ["9:16"],
    publish: true,
  });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  jobId = launched.body.data.jobId;
  const job = await waitForJob(owner, jobId);
  expect(job.status, job.error).toBe("completed");
  expect(job.result.publication.status).toBe("scheduled");
}, 150_000);
afterAll(async () => {
  await app?.close();
  network.close();
});

describe("restricting a project", () => {
  it("before: a publish launch built on it is allowed", async () => {
    const estimate = await owner.client.post("/workflow/estimate", optimizeAndPublish());
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
  });

  it("cancels its scheduled post at once, and the owner is told what restriction means", async () => {
    const notice = await reporter.client.post("/moderation/report", {
      target: jobId,
      category: "misleading_advertising",
      explanation: "The ad claims the chairs last a lifetime with no evidence at all.",
      reporterName: "Rita Reporter",
      reporterEmail: reporter.email,
      goodFaith: true,
    });
    expect(notice.status, JSON.stringify(notice.body)).toBe(200);
    const item = await app.services.prisma.moderationReport.findUniqueOrThrow({ where: { reference: notice.body.data.reference } });
    const statement = "The lifetime claim is unsubstantiated; the ad may stay in your account but may not be published.";
    const resolved = await admin.patch("/admin/moderation", { id: item.id, action: "restrict", statement });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.data.decision).toMatchObject({ action: "restrict", canAppeal: true });
    decisionId = resolved.body.data.decision.id;

    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job.result.publication).toMatchObject({ status: "failed", reason: PUBLICATION_CANCELLED, postId: null });
    const mails = await app.services.prisma.mailOutbox.findMany({ where: { to: owner.email, kind: "moderation.decision" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain("it can no longer be published to a social platform (a scheduled post was cancelled)");
    expect(mails[0]!.body).toContain(statement);
    expect(uploads).toEqual([]);
  });

  it("a post that comes due anyway is not made", async () => {
    // The worker's own check, for a post that was already on its way when the decision was taken:
    // the publication is put back to scheduled as it was, and the due message is run.
    const row = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    const result = row.result as any;
    await app.services.prisma.job.update({
      where: { id: jobId },
      data: { result: { ...result, publication: { ...result.publication, status: "scheduled", reason: null } } },
    });
    const account = await app.services.prisma.socialAccount.findFirstOrThrow({ where: { userId: owner.id } });
    await runPublication(app.services, { data: { jobId, accountId: account.id }, retryCount: 0 } as any);
    expect(uploads).toEqual([]);
    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job.result.publication).toMatchObject({ status: "failed", reason: PUBLICATION_CANCELLED });
  });

  it("refuses a publish launch built on it with 403, before anything is charged", async () => {
    const before = await balance(owner);
    const estimate = await owner.client.post("/workflow/estimate", optimizeAndPublish());
    expect(estimate).toMatchObject({ status: 403, body: { success: false, error: NOT_PUBLISHABLE } });
    const launch = await owner.client.post("/workflow", optimizeAndPublish());
    expect(launch).toMatchObject({ status: 403, body: { success: false, error: NOT_PUBLISHABLE } });
    expect(await balance(owner)).toBe(before);
    expect(await app.services.prisma.job.count({ where: { userId: owner.id } })).toBe(1);
  });

  it("keeps the media with the owner and the admins; anyone else gets 404", async () => {
    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    const url = job.result.assets[0].url as string;
    expect((await getMedia(url, owner)).status).toBe(200);
    expect((await getMedia(url, admin)).status).toBe(200);
    expect((await getMedia(url, stranger)).status).toBe(404);
  });

  it("a successful appeal lifts it: publishing from the project is allowed again", async () => {
    const appeal = await owner.client.post("/moderation/appeal", {
      decisionId,
      explanation: "The lifetime warranty is in our terms; here is the link to it.",
    });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
    const reversed = await admin.patch("/admin/moderation", {
      id: decisionId,
      action: "dismiss",
      statement: "The warranty substantiates the claim; the restriction is lifted.",
    });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    const estimate = await owner.client.post("/workflow/estimate", optimizeAndPublish());
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
  });
});
