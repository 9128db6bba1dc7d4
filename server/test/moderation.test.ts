// DSA notice and action, end to end on a real rendered project: two notices (a media address and a
// project id) → the admin queue → a removal with a statement of reasons (the media really go offline,
// the reporters are told by e-mail, the owner sees the decision) → the owner's appeal → the appeal
// reverses the removal (the media come back). Plus the refusals: bad notices, other accounts' appeals,
// and the admin operations on every transport.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { graphql, type RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let adminJwt: string;
let owner: Account;
let reporter: Account;
let secondReporter: Account;
let jobId: string;
let mediaUrl: string;

async function waitForJob(account: Account, id: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${id}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** GET of a media URL's path on the test server, as `account`. */
const getMedia = (url: string, account: Account) =>
  fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${account.client.cookie}` } });

const notice = (target: string, extra: Record<string, unknown> = {}) => ({
  target,
  category: "intellectual_property",
  explanation: "This ad uses our registered trademark and product photos without permission.",
  reporterName: "Rita Reporter",
  reporterEmail: reporter.email,
  goodFaith: true,
  ...extra,
});

const outbox = (to: string) => app.services.prisma.mailOutbox.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" });
  admin = await adminClient(app);
  adminJwt = admin.cookie!;
  [owner, reporter, secondReporter] = await Promise.all([
    signUp(app, "mod-owner"),
    signUp(app, "mod-reporter"),
    signUp(app, "mod-reporter2"),
  ]);
  const launched = await owner.client.post("/workflow", {
    type: "staticad",
    concept: "Handmade oak chairs, built to last a lifetime",
    formats: ["1:1"],
  });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  jobId = launched.body.data.jobId;
  const job = await waitForJob(owner, jobId);
  expect(job.status, job.error).toBe("completed");
  mediaUrl = job.result.assets[0].url;
}, 120_000);
afterAll(() => app?.close());

describe("a notice", () => {
  it("is refused with a message naming what to fix", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ goodFaith: false }, /good faith/],
      [{ goodFaith: undefined }, /good faith/],
      [{ reporterName: undefined }, /Give your name/],
      [{ reporterEmail: undefined }, /Give your e-mail/],
      [{ category: "rude" }, /category must be one of/],
      [{ explanation: "bad" }, /at least 10 characters/],
      [{ target: "no-such-project" }, /target: no project of this service/],
      [{ target: "https://elsewhere.example/api/media/x/y.png" }, /target: no project of this service/],
    ];
    for (const [change, message] of cases) {
      const res = await reporter.client.post("/moderation/report", notice(jobId, change));
      expect({ change, status: res.status, error: res.body.error }).toEqual({ change, status: 400, error: expect.stringMatching(message) });
    }
    expect(await app.services.prisma.moderationReport.count()).toBe(0);
  });

  it("needs a signed-in reporter (401 anonymous)", async () => {
    const res = await fetch(`${app.url}/api/moderation/report`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(notice(jobId)),
    });
    expect(res.status).toBe(401);
  });

  it("may be anonymous for child sexual abuse material, and answers a reference", async () => {
    const res = await reporter.client.post(
      "/moderation/report",
      notice(jobId, { category: "child_sexual_abuse", reporterName: undefined, reporterEmail: undefined }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      reference: expect.stringMatching(/^DSA-[A-Z2-9]{10}$/),
      status: "pending",
      submittedAt: expect.any(String),
    });
    // Dismissed at once so the flow below starts from a clean queue; an anonymous reporter gets no e-mail.
    const item = await app.services.prisma.moderationReport.findUniqueOrThrow({ where: { reference: res.body.data.reference } });
    expect(item).toMatchObject({ reporterName: null, reporterEmail: null, jobId });
    const resolved = await admin.patch("/admin/moderation", {
      id: item.id,
      action: "dismiss",
      statement: "The images show furniture only; nothing illegal found.",
    });
    expect(resolved.body.data).toMatchObject({ kind: "notice", reportersNotified: 0, decision: { action: "dismiss", canAppeal: false } });
    expect((await getMedia(mediaUrl, owner)).status).toBe(200);
  });
});

describe("notice → decision → appeal", () => {
  let firstRef: string;
  let secondRef: string;
  let decisionId: string;

  it("queues notices about a media address and a project id, pending first, with filters", async () => {
    const first = await reporter.client.post("/moderation/report", notice(mediaUrl));
    const second = await secondReporter.client.post(
      "/moderation/report",
      notice(jobId, { category: "fraud_or_scam", reporterName: "Sam Second", reporterEmail: secondReporter.email }),
    );
    expect([first.status, second.status]).toEqual([200, 200]);
    firstRef = first.body.data.reference;
    secondRef = second.body.data.reference;

    const queue = await admin.get("/admin/moderation");
    expect(queue.status).toBe(200);
    expect(queue.body.data.pending).toBe(2);
    // Pending first (oldest first), then the dismissed one.
    expect(queue.body.data.items.map((i: any) => [i.reference, i.status])).toEqual([
      [firstRef, "pending"],
      [secondRef, "pending"],
      [expect.any(String), "resolved"],
    ]);
    expect(queue.body.data.items[0]).toMatchObject({
      kind: "notice",
      projectId: jobId,
      ownerEmail: owner.email,
      target: mediaUrl,
      reporterEmail: reporter.email,
      decision: null,
    });
    const fraud = await admin.get("/admin/moderation?category=fraud_or_scam");
    expect(fraud.body.data.items.map((i: any) => i.reference)).toEqual([secondRef]);
    const pending = await admin.get("/admin/moderation?status=pending&kind=notice");
    expect(pending.body.data.total).toBe(2);
    const badFilter = await admin.get("/admin/moderation?status=open");
    expect(badFilter).toMatchObject({ status: 400, body: { error: expect.stringMatching(/status must be pending, resolved or all/) } });
  });

  it("a removal takes the media offline, tells both reporters, and shows the owner the decision", async () => {
    const before = await getMedia(mediaUrl, owner);
    expect(before.status).toBe(200);
    const noticeId = (await app.services.prisma.moderationReport.findUniqueOrThrow({ where: { reference: firstRef } })).id;
    const short = await admin.patch("/admin/moderation", { id: noticeId, action: "remove", statement: "no" });
    expect(short).toMatchObject({ status: 400, body: { error: expect.stringMatching(/statement of reasons must be at least 10/) } });

    const statement = "The ad reproduces a registered trademark without the holder's permission (EU Regulation 2017/1001).";
    const res = await admin.patch("/admin/moderation", { id: noticeId, action: "remove", statement });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      kind: "notice",
      reportersNotified: 2,
      decision: { action: "remove", statement, projectId: jobId, canAppeal: true },
    });
    decisionId = res.body.data.decision.id;

    // Offline: the media route, the export by address and the ZIP export no longer give the file.
    const after = await getMedia(mediaUrl, owner);
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: string }).error).toMatch(/removed after a moderation decision/);
    expect((await getMedia(mediaUrl, await adminAccount())).status).toBe(404);
    const exported = await owner.client.get(`/export?source=${encodeURIComponent(mediaUrl)}`);
    expect(exported.status).toBe(404);

    // Both notices are resolved by the one decision; the second can no longer be decided.
    const queue = await admin.get("/admin/moderation?status=pending");
    expect(queue.body.data.items).toEqual([]);
    const secondId = (await app.services.prisma.moderationReport.findUniqueOrThrow({ where: { reference: secondRef } })).id;
    const again = await admin.patch("/admin/moderation", { id: secondId, action: "dismiss", statement: "Trying to decide it twice." });
    expect(again).toMatchObject({ status: 409, body: { error: `Notice ${secondRef} is already resolved` } });

    // The reporters are told the outcome, each quoting their own reference; the owner gets the reasons.
    expect(await outbox(reporter.email)).toEqual([
      expect.objectContaining({
        kind: "moderation.notice_outcome",
        subject: `Your notice ${firstRef}: decision`,
        body: expect.stringContaining(statement),
      }),
    ]);
    expect(await outbox(secondReporter.email)).toEqual([
      expect.objectContaining({ subject: `Your notice ${secondRef}: decision`, body: expect.stringContaining("removed") }),
    ]);
    expect(await outbox(owner.email)).toEqual([
      expect.objectContaining({ kind: "moderation.decision", body: expect.stringContaining(`Decision id: ${decisionId}`) }),
    ]);

    const mine = await owner.client.get(`/moderation/decisions?projectId=${jobId}`);
    expect(mine.body.data.decisions[0]).toMatchObject({ id: decisionId, action: "remove", statement, canAppeal: true, appeal: null });
    expect((await reporter.client.get("/moderation/decisions")).body.data.decisions).toEqual([]);

    const audit = await app.services.prisma.auditLog.findMany({ where: { action: "admin.moderation_decided", targetId: jobId } });
    expect(audit.map((a) => (a.metadata as { action: string }).action).sort()).toEqual(["dismiss", "remove"]);
  });

  it("only the affected account may appeal, once", async () => {
    const explanation = "The trademark is ours: we are the brand's licensed distributor.";
    const stranger = await reporter.client.post("/moderation/appeal", { decisionId, explanation });
    expect(stranger).toMatchObject({ status: 404, body: { error: "Decision not found" } });
    const empty = await owner.client.post("/moderation/appeal", { decisionId, explanation: "" });
    expect(empty).toMatchObject({ status: 400, body: { error: expect.stringMatching(/at least 10 characters/) } });

    const appeal = await owner.client.post("/moderation/appeal", { decisionId, explanation });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
    expect(appeal.body.data).toMatchObject({
      id: decisionId,
      canAppeal: false,
      appeal: { status: "pending", explanation, resolution: null },
    });
    const twice = await owner.client.post("/moderation/appeal", { decisionId, explanation });
    expect(twice.status).toBe(409);

    const queue = await admin.get("/admin/moderation?kind=appeal");
    expect(queue.body.data.items).toEqual([expect.objectContaining({ id: decisionId, kind: "appeal", status: "pending", explanation })]);
    expect(queue.body.data.pending).toBe(1);
  });

  it("an appeal that reverses the removal brings the media back and tells the owner", async () => {
    const resolution = "The owner showed a distribution licence covering the trademark; the removal is reversed.";
    const res = await admin.patch("/admin/moderation", { id: decisionId, action: "dismiss", statement: resolution });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ kind: "appeal", decision: { action: "dismiss", appeal: { status: "reversed", resolution } } });
    expect((await getMedia(mediaUrl, owner)).status).toBe(200);
    const mails = await outbox(owner.email);
    expect(mails.at(-1)).toMatchObject({ kind: "moderation.appeal_outcome", body: expect.stringContaining("from remove to dismiss") });
    const audit = await app.services.prisma.auditLog.findMany({
      where: { action: "admin.moderation_appeal_resolved", targetId: decisionId },
    });
    expect(audit).toHaveLength(1);
    const resolvedAgain = await admin.patch("/admin/moderation", {
      id: decisionId,
      action: "remove",
      statement: "Deciding the same appeal twice.",
    });
    expect(resolvedAgain.status).toBe(409);
  });
});

async function adminAccount(): Promise<Account> {
  return { client: admin, id: "", email: "", password: "", jwt: adminJwt };
}

describe("the admin operations on every transport", () => {
  const resolveInput = { id: "nothing", action: "remove", statement: "A statement long enough." };

  it("REST: 401 anonymous, 403 'admin access required' to a non-admin", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", resolveInput],
    ] as const) {
      const anonymous = await fetch(`${app.url}/api/admin/moderation`, {
        method,
        headers: { "content-type": "application/json" },
        body: body && JSON.stringify(body),
      });
      expect(anonymous.status).toBe(401);
      const user = await reporter.client.call(method, "/admin/moderation", body);
      expect(user).toMatchObject({ status: 403, body: { success: false, error: "admin access required" } });
    }
  });

  it("tRPC: UNAUTHORIZED anonymous, FORBIDDEN to a non-admin; the admin's queue answers", async () => {
    // Functions, so each call starts only when its rejection is awaited.
    const attempts = (api: ReturnType<typeof trpcClient>) => [
      () => api.moderation.queue.query({}),
      () => api.moderation.resolve.mutate(resolveInput as never),
    ];
    for (const call of attempts(trpcClient(app.url)))
      await expect(call()).rejects.toMatchObject({ data: { code: "UNAUTHORIZED", httpStatus: 401 } });
    for (const call of attempts(trpcClient(app.url, reporter.jwt)))
      await expect(call()).rejects.toMatchObject({ message: "admin access required", data: { code: "FORBIDDEN", httpStatus: 403 } });
    const queue = await trpcClient(app.url, adminJwt).moderation.queue.query({ kind: "appeal" });
    expect(queue.items.map((i) => i.status)).toEqual(["resolved"]);
  });

  it("GraphQL: UNAUTHENTICATED anonymous, FORBIDDEN to a non-admin; the admin's queue answers", async () => {
    const documents = [
      "{ moderationQueue { total pending } }",
      `mutation { moderationResolve(id: "nothing", action: remove, statement: "A statement long enough.") { id } }`,
    ];
    for (const query of documents) {
      const anonymous = await graphql(app.url, query);
      expect(anonymous.body.errors?.[0], query).toMatchObject({ message: "Authentication required" });
      const user = await graphql(app.url, query, {}, reporter.jwt);
      expect(user.body.errors?.[0], query).toMatchObject({ message: "admin access required", extensions: { code: "FORBIDDEN" } });
    }
    const queue = await graphql(app.url, documents[0]!, {}, adminJwt);
    expect(queue.body).toEqual({ data: { moderationQueue: { total: 4, pending: 0 } } });
  });
});
