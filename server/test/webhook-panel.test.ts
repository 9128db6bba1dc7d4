// The settings panel's webhook operations: a test delivery sent at once to the account's endpoint
// (signed like a job event, its outcome answered and listed among the recent deliveries), on REST,
// tRPC and GraphQL. The receiving endpoints are answered by msw.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "receiver.example": ["93.184.216.34"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}
const received: Received[] = [];

const network = setupServer(
  http.post("https://receiver.example/:path", async ({ request, params }) => {
    received.push({ path: String(params.path), headers: Object.fromEntries(request.headers), body: await request.text() });
    return params.path === "broken" ? new HttpResponse("nope", { status: 503 }) : new HttpResponse("ok", { status: 200 });
  }),
);

let app: TestApp;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({}, { resolver });
});
afterAll(async () => {
  await app?.close();
  network.close();
});

describe("POST /user/webhook/test", () => {
  it("sends a signed webhook.test event to the saved URL and answers it delivered", async () => {
    const user = await signUp(app, "hook-test");
    const saved = await user.client.post("/user/webhook", { url: "https://receiver.example/ok" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const secret = (await user.client.get("/user/webhook")).body.data.secret as string;

    const res = await user.client.post("/user/webhook/test");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      eventKind: "webhook.test",
      jobId: null,
      url: "https://receiver.example/ok",
      status: "delivered",
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });

    const got = received.find((r) => r.headers["webhook-id"] === res.body.data.id);
    expect(got, "the receiver got the test event").toBeDefined();
    const verified = new Webhook(secret).verify(got!.body, got!.headers) as { type: string };
    expect(verified.type).toBe("webhook.test");

    const listed = (await user.client.get("/user/webhook")).body.data.recentDeliveries as { id: string; status: string }[];
    expect(listed[0]).toMatchObject({ id: res.body.data.id, status: "delivered" });
  });

  it("answers the receiver's failure as a failed delivery with its status, not an error", async () => {
    const user = await signUp(app, "hook-broken");
    await user.client.post("/user/webhook", { url: "https://receiver.example/broken" });
    const res = await user.client.post("/user/webhook/test");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "failed", attempts: 1, lastStatus: 503, lastError: "endpoint answered 503" });
    const listed = (await user.client.get("/user/webhook")).body.data.recentDeliveries as { id: string; status: string }[];
    expect(listed.map((d) => [d.id, d.status])).toEqual([[res.body.data.id, "failed"]]);
  });

  it("answers 400 saying what to do when no URL is saved", async () => {
    const user = await signUp(app, "hook-none");
    const res = await user.client.post("/user/webhook/test");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "Save a webhook URL first, then send a test delivery to it." });
    expect((await user.client.get("/user/webhook")).body.data.recentDeliveries).toEqual([]);
  });

  it("answers 401 without a session", async () => {
    const res = await new RestClient(app.url).post("/user/webhook/test");
    expect(res.status).toBe(401);
  });

  it("is served on tRPC and GraphQL too", async () => {
    const user = await signUp(app, "hook-transports");
    await user.client.post("/user/webhook", { url: "https://receiver.example/ok" });
    const viaTrpc = await trpcClient(app.url, user.jwt).webhook.sendTest.mutate();
    expect(viaTrpc).toMatchObject({ eventKind: "webhook.test", status: "delivered", lastStatus: 200 });

    const viaGraphql = await graphql(app.url, "mutation { webhookSendTest { eventKind status lastStatus } }", {}, user.jwt);
    expect(viaGraphql.body).toEqual({ data: { webhookSendTest: { eventKind: "webhook.test", status: "delivered", lastStatus: 200 } } });
  });
});
