// Outbound webhooks: the account's endpoint (or a launch's callbackUrl) receives the job's events,
// signed the Standard Webhooks way (verified here with the `standardwebhooks` package), retried when
// the receiver fails, and never sent to a private address. Receivers are answered by msw.
import { waitFor } from "./support/wait-for.ts";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "hooks.example": ["93.184.216.34"], "intranet.example": ["192.168.1.20"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  at: number;
}
const received: Received[] = [];
let flakyFailures = 0;

function capture(path: string, status: (request: Request) => number) {
  return http.post(`https://hooks.example${path}`, async ({ request }) => {
    const answer = status(request);
    received.push({ path, headers: Object.fromEntries(request.headers), body: await request.text(), status: answer, at: Date.now() });
    return new HttpResponse(answer === 200 ? "ok" : "try again", { status: answer });
  });
}

const network = setupServer(
  capture("/in", () => 200),
  capture("/callback", () => 200),
  // Fails the first delivery it sees, then accepts everything.
  capture("/flaky", () => (flakyFailures++ === 0 ? 500 : 200)),
);

let app: TestApp;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1" }, { resolver });
});
afterAll(async () => {
  await app?.close();
  network.close();
});

async function waitForJob(account: Account, jobId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const forJob = (path: string, jobId: string) => received.filter((r) => r.path === path && JSON.parse(r.body).data?.jobId === jobId);

describe("the account's webhook endpoint", () => {
  let user: Account;
  let secret: string;

  it("is set with POST /user/webhook; GET answers it with a signing secret", async () => {
    user = await signUp(app, "webhooks");
    const saved = await user.client.post("/user/webhook", { url: "https://hooks.example/in" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ url: "https://hooks.example/in", secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/) });
    const read = await user.client.get("/user/webhook");
    expect(read.body.data).toMatchObject({ url: "https://hooks.example/in", recentDeliveries: [] });
    secret = read.body.data.secret;
    expect(secret).toBe(saved.body.data.secret);
  });

  // A name that does not resolve now is accepted and checked at each delivery (deferred-url-checks.test.ts).
  it("refuses private endpoint URLs", async () => {
    for (const url of ["http://127.0.0.1/hook", "http://10.0.0.1/in", "https://intranet.example/in", "http://localhost:3000/in"]) {
      const res = await user.client.post("/user/webhook", { url });
      expect(res.status, url).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await user.client.get("/user/webhook")).body.data.url).toBe("https://hooks.example/in");
  });

  it("receives workflow.started … workflow.completed, each verifiable with the Standard Webhooks signature", {
    timeout: 60_000,
  }, async () => {
    const launched = await user.client.post("/workflow", { type: "staticad", concept: "Hooked on ads" });
    const jobId = launched.body.data.jobId as string;
    const job = await waitForJob(user, jobId);
    expect(job.status, job.error).toBe("completed");
    const stored = await app.services.prisma.jobEvent.findMany({ where: { jobId }, orderBy: { seq: "asc" } });
    await waitFor("every event delivered", () => forJob("/in", jobId).length >= stored.length);
    const deliveries = forJob("/in", jobId);
    expect(deliveries).toHaveLength(stored.length);

    const verifier = new Webhook(secret);
    const payloads = deliveries.map((delivery) => {
      expect(delivery.headers).toMatchObject({
        "content-type": "application/json",
        "webhook-id": expect.any(String),
        "webhook-timestamp": expect.stringMatching(/^\d+$/),
        "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/=]+$/),
      });
      expect(Math.abs(Number(delivery.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(120);
      const payload = verifier.verify(delivery.body, delivery.headers) as any;
      expect(payload).toEqual(JSON.parse(delivery.body));
      // A tampered body does not verify.
      expect(() => verifier.verify(delivery.body.replace("workflow", "workfIow"), delivery.headers)).toThrow();
      return payload;
    });
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(deliveries.length);
    const bySeq = [...payloads].sort((a, b) => a.data.seq - b.data.seq);
    expect(bySeq.map((p) => p.type)).toEqual(stored.map((e) => e.kind));
    expect(bySeq[0]).toMatchObject({ type: "workflow.started", timestamp: expect.any(String), data: { jobId, status: "processing" } });
    expect(bySeq.at(-1)).toMatchObject({
      type: "workflow.completed",
      data: {
        jobId,
        status: "completed",
        progress: 100,
        result: { assets: expect.arrayContaining([expect.objectContaining({ type: "image" })]) },
      },
    });
    expect(bySeq.map((p) => p.type)).toContain("workflow.step");

    // A secret from another account does not verify them.
    const other = await signUp(app, "webhooks-other");
    const otherSecret = (await other.client.get("/user/webhook")).body.data.secret;
    expect(otherSecret).not.toBe(secret);
    expect(() => new Webhook(otherSecret).verify(deliveries[0]!.body, deliveries[0]!.headers)).toThrow();
    expect(forJob("/in", jobId).every((d) => JSON.parse(d.body).data.jobId === jobId)).toBe(true);

    const recent = await waitFor("deliveries recorded as delivered", async () => {
      const rows = ((await user.client.get("/user/webhook")).body.data.recentDeliveries as any[]).filter((d) => d.jobId === jobId);
      return rows.length === stored.length && rows.every((d) => d.status === "delivered") && rows;
    });
    expect(recent.every((d) => d.attempts === 1 && d.lastStatus === 200 && d.url === "https://hooks.example/in")).toBe(true);
  });

  it("a launch's callbackUrl receives that job's events instead of the account endpoint; a private one is a 400", {
    timeout: 60_000,
  }, async () => {
    const bad = await user.client.post("/workflow", { type: "staticad", callbackUrl: "http://192.168.0.10/callback" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^callbackUrl must not point to a private or local address/);
    const launched = await user.client.post("/workflow", { type: "staticad", callbackUrl: "https://hooks.example/callback" });
    const jobId = launched.body.data.jobId as string;
    await waitForJob(user, jobId);
    await waitFor("the completed event at the callback", () =>
      forJob("/callback", jobId).some((d) => JSON.parse(d.body).type === "workflow.completed"),
    );
    expect(forJob("/in", jobId)).toEqual([]);
    for (const delivery of forJob("/callback", jobId))
      expect(() => new Webhook(secret).verify(delivery.body, delivery.headers)).not.toThrow();
  });
});

describe("retries", () => {
  it("a receiver that answers 500 and then 200 gets the same delivery again", { timeout: 60_000 }, async () => {
    const user = await signUp(app, "webhooks-flaky");
    expect((await user.client.post("/user/webhook", { url: "https://hooks.example/flaky" })).status).toBe(200);
    const secret = (await user.client.get("/user/webhook")).body.data.secret as string;
    const launched = await user.client.post("/workflow", { type: "staticad" });
    const jobId = launched.body.data.jobId as string;
    await waitForJob(user, jobId);
    const stored = await app.services.prisma.jobEvent.count({ where: { jobId } });
    const failed = await waitFor("the failed first attempt", () => forJob("/flaky", jobId).find((d) => d.status === 500));
    const retried = await waitFor(
      "the retry",
      () => forJob("/flaky", jobId).find((d) => d.status === 200 && d.headers["webhook-id"] === failed.headers["webhook-id"]),
      45_000,
    );
    expect(retried.body).toBe(failed.body);
    expect(retried.at).toBeGreaterThan(failed.at);
    for (const attempt of [failed, retried]) expect(() => new Webhook(secret).verify(attempt.body, attempt.headers)).not.toThrow();
    await waitFor(
      "every event delivered",
      () =>
        new Set(
          forJob("/flaky", jobId)
            .filter((d) => d.status === 200)
            .map((d) => d.headers["webhook-id"]),
        ).size === stored,
    );
    const recent = await waitFor("deliveries recorded as delivered", async () => {
      const rows = (await user.client.get("/user/webhook")).body.data.recentDeliveries as any[];
      return rows.length === stored && rows.every((d) => d.status === "delivered") && rows;
    });
    const retriedRecord = recent.find((d) => d.id === failed.headers["webhook-id"]);
    expect(retriedRecord).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 200, lastError: null });
    expect(recent.filter((d) => d.id !== failed.headers["webhook-id"]).every((d) => d.attempts === 1)).toBe(true);
  });
});
