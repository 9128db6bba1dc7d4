// A job's addresses that are saved now and used later: a launch's callbackUrl (the studio default too) and
// the URLs a worker's result names. As for push endpoints and the account's webhook URL
// (deferred-url-checks.test.ts), a literal private or loopback address, a local name or a name resolving
// inside is refused at once (400 on REST, BAD_REQUEST on tRPC and GraphQL), while a host name that does
// not resolve right now is accepted: the check that matters runs when the address is used (the delivery,
// the export's fetch), against what the name resolves to then.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhook } from "../src/modules/webhooks/deliver.ts";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

/** Changes during the tests, as DNS does: a name unknown today may resolve tomorrow, anywhere. */
const DNS: Record<string, string[]> = { "inside.example": ["10.1.2.3"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const WORKER_TOKEN = "deferred-job-urls-worker-token";
const PRIVATE = /must not point to a private or local address/;

let app: TestApp;
let user: Account;
beforeAll(async () => {
  app = await startTestApp({ WORKER_TOKEN, EXPORT_ALLOWED_HOSTS: "cdn-later.example" }, { resolver });
  user = await signUp(app, "deferred-job-urls");
});
afterAll(async () => {
  await app?.close();
});

async function trpcError(call: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return { code: (error as TRPCClientError<any>).data?.code, message: (error as Error).message };
}

describe("a launch's callbackUrl", () => {
  const LAUNCH = `mutation($callbackUrl: String) {
    workflowLaunch(type: cinematic, callbackUrl: $callbackUrl) { jobId }
  }`;

  it("REST: a name that does not resolve now is accepted; literal private addresses and names resolving inside are a 400", async () => {
    const later = await user.client.post("/workflow", { type: "cinematic", callbackUrl: "https://hooks-later.example/cb" });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: later.body.data.jobId } });
    expect(job.callbackUrl).toBe("https://hooks-later.example/cb");
    for (const callbackUrl of [
      "http://127.0.0.1/cb",
      "http://10.0.0.1/cb",
      "https://[::1]/cb",
      "http://localhost/cb",
      "https://inside.example/cb",
    ]) {
      const res = await user.client.post("/workflow", { type: "cinematic", callbackUrl });
      expect({ callbackUrl, status: res.status }).toEqual({ callbackUrl, status: 400 });
      expect(res.body.error).toMatch(/^callbackUrl must not point to a private or local address/);
    }
  });

  it("tRPC and GraphQL: the same", async () => {
    const api = trpcClient(app.url, user.jwt);
    expect(await api.workflow.launch.mutate({ type: "cinematic", callbackUrl: "https://hooks-later.example/t" })).toMatchObject({
      status: "queued",
    });
    expect(await trpcError(api.workflow.launch.mutate({ type: "cinematic", callbackUrl: "http://192.168.0.9/t" }))).toEqual({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^callbackUrl must not point to a private or local address/),
    });
    const ok = await graphql(app.url, LAUNCH, { callbackUrl: "https://hooks-later.example/g" }, user.jwt);
    expect(ok.body.errors).toBeUndefined();
    const bad = await graphql(app.url, LAUNCH, { callbackUrl: "http://10.9.9.9/g" }, user.jwt);
    expect(bad.body.errors?.map((e) => [e.extensions?.code, e.extensions?.status])).toEqual([["BAD_REQUEST", 400]]);
    expect(bad.body.errors?.[0]?.message).toMatch(/^callbackUrl must not point to a private or local address/);
  });

  it("the studio default callbackUrl follows the same rule", async () => {
    const later = await user.client.post("/workflow/prefs", { callbackUrl: "https://hooks-later.example/pref" });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data).toMatchObject({ callbackUrl: "https://hooks-later.example/pref" });
    const bad = await user.client.post("/workflow/prefs", { callbackUrl: "http://127.0.0.1/pref" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^callbackUrl must not point to a private or local address/);
  });

  it("is checked again when the delivery is made: a name now resolving inside gets nothing", async () => {
    const launched = await user.client.post("/workflow", { type: "cinematic", callbackUrl: "https://hooks-moving.example/cb" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    // A worker's first report makes the job's events, each queued for the callback.
    const worker = new RestClient(app.url, { bearer: WORKER_TOKEN });
    expect((await worker.post("/workflow/stream", { jobId, progress: 10, step: "script" })).status).toBe(200);
    // On PostgreSQL the events reach the webhook fan-out through the database's notifications: wait for them.
    let deliveries = await app.services.prisma.webhookDelivery.findMany({ where: { jobId }, orderBy: { createdAt: "asc" } });
    for (const deadline = Date.now() + 10_000; !deliveries.length && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = await app.services.prisma.webhookDelivery.findMany({ where: { jobId }, orderBy: { createdAt: "asc" } });
    }
    expect(deliveries.length).toBeGreaterThan(0);
    const first = deliveries[0]!;
    expect(first.url).toBe("https://hooks-moving.example/cb");

    DNS["hooks-moving.example"] = ["192.168.7.7"];
    await deliverWebhook(app.services, { deliveryId: first.id }, 0, 5);
    expect(await app.services.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(PRIVATE),
    });
  });
});

describe("the URLs of a worker's result", () => {
  let jobId: string;
  const worker = () => new RestClient(app.url, { bearer: WORKER_TOKEN });
  const asset = (url: string) => ({ url, type: "video", format: "9:16", duration: 2, platform: "tiktok" });
  beforeAll(async () => {
    const launched = await user.client.post("/workflow", { type: "cinematic" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    jobId = launched.body.data.jobId;
  });

  it("REST: a literal private address, a local name or a name resolving inside is a 400 naming the field", async () => {
    for (const [url, field] of [
      ["https://127.0.0.1/v.mp4", "result.assets.0.url"],
      ["https://10.0.0.1/v.mp4", "result.assets.0.url"],
      ["https://[fd00::1]/v.mp4", "result.assets.0.url"],
      ["https://media.localhost/v.mp4", "result.assets.0.url"],
      ["https://inside.example/v.mp4", "result.assets.0.url"],
    ] as const) {
      const res = await worker().post("/workflow/stream", { jobId, status: "processing", result: { assets: [asset(url)] } });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body.error).toMatch(new RegExp(`^${field.replaceAll(".", "\\.")}: url must not point to a private or local address`));
      expect(res.fields?.[0]?.field).toBe(field);
    }
    expect(await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ result: null });
  });

  it("tRPC and GraphQL: the same is a BAD_REQUEST", async () => {
    const result = { assets: [asset("https://192.168.1.1/v.mp4")] };
    expect(
      await trpcError(trpcClient(app.url, WORKER_TOKEN).workflow.workerUpdate.mutate({ jobId, status: "processing", result })),
    ).toEqual({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^result\.assets\.0\.url: url must not point to a private or local address/),
    });
    const query =
      "mutation($jobId: String!, $result: JSON) { workflowWorkerUpdate(jobId: $jobId, status: processing, result: $result) { jobId } }";
    const { body } = await graphql(app.url, query, { jobId, result }, WORKER_TOKEN);
    expect(body.errors?.map((e) => [e.extensions?.code, e.extensions?.status])).toEqual([["BAD_REQUEST", 400]]);
    expect(body.errors?.[0]?.message).toMatch(/^result\.assets\.0\.url: url must not point to a private or local address/);
  });

  it("a name that does not resolve now is accepted, and checked when the video is fetched", async () => {
    const url = "https://cdn-later.example/ads/v.mp4";
    const res = await worker().post("/workflow/stream", {
      jobId,
      status: "completed",
      result: { finalVideo: url, thumbnail: null, assets: [asset(url)] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "completed" });

    // Fetched later through the SSRF-safe fetcher: where the name leads then decides.
    const source = `/export?source=${encodeURIComponent(url)}`;
    const unresolved = await user.client.get(source);
    expect(unresolved.status).toBe(400);
    expect(unresolved.body.error).toMatch(/could not be resolved/);
    DNS["cdn-later.example"] = ["10.20.30.40"];
    const inside = await user.client.get(source);
    expect(inside.status).toBe(400);
    expect(inside.body.error).toMatch(PRIVATE);
  });
});
