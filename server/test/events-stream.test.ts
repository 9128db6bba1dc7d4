// GET /api/events/stream (and the same operation as a GraphQL subscription): an account receives the
// events of its own jobs only; an admin receives every account's (CONTRACT "System events"). Events are
// made in a known order, B, A, B, so a leak would show up as an event out of place, not only as a
// timeout: the bus delivers in order in one process.
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, ADMIN_ENV, adminClient, nextBusSubscription, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";

let app: TestApp;
let adminJwt: string;
let alice: Account;
let bob: Account;
const streams: SseStream[] = [];
const sockets: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "0" });
  adminJwt = (await adminClient(app)).cookie!;
  [alice, bob] = await Promise.all([signUp(app, "events-alice"), signUp(app, "events-bob")]);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const socket of sockets) await socket.dispose();
  await app?.close();
});

/** A queued job of `account` (no workers run here, so nothing happens to it unless the test says so). */
async function queuedJob(account: Account): Promise<string> {
  const res = await account.client.post("/workflow", { type: "staticad", concept: "Events test ad", formats: ["1:1"] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId;
}

/** One event: the owner reports the job failed (POST /workflow/stream), which emits `workflow.failed`. */
async function failJob(account: Account, jobId: string) {
  const res = await account.client.post("/workflow/stream", { jobId, status: "failed", result: { error: "stand-in failure" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function openStream(jwt: string): Promise<SseStream> {
  const live = nextBusSubscription(app);
  const stream = await openSse(`${app.url}/api/events/stream`, { authorization: `Bearer ${jwt}` });
  streams.push(stream);
  expect(stream.response.status).toBe(200);
  expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  await live;
  return stream;
}

async function nextEvent(stream: SseStream) {
  const message = await stream.next(5_000);
  const data = JSON.parse(message.data) as { jobId: string; type: string };
  return { event: message.event, type: data.type, jobId: data.jobId };
}

describe("GET /api/events/stream", () => {
  it("needs a signed-in account (401)", async () => {
    const res = await fetch(`${app.url}/api/events/stream`, { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(401);
  });

  it("gives each account only its own events and an admin everyone's, in order, named by kind", async () => {
    const [bob1, alice1, bob2] = [await queuedJob(bob), await queuedJob(alice), await queuedJob(bob)];
    const aliceStream = await openStream(alice.jwt);
    const bobStream = await openStream(bob.jwt);
    const adminStream = await openStream(adminJwt);

    await failJob(bob, bob1);
    await failJob(alice, alice1);
    await failJob(bob, bob2);

    const failed = (jobId: string) => ({ event: "workflow.failed", type: "workflow.failed", jobId });
    // Alice's first event is her own: Bob's earlier one never reached her.
    expect(await nextEvent(aliceStream)).toEqual(failed(alice1));
    // Bob's two events are back to back: Alice's, made between them, never reached him.
    expect([await nextEvent(bobStream), await nextEvent(bobStream)]).toEqual([failed(bob1), failed(bob2)]);
    expect([await nextEvent(adminStream), await nextEvent(adminStream), await nextEvent(adminStream)]).toEqual([
      failed(bob1),
      failed(alice1),
      failed(bob2),
    ]);
    // And nothing more arrives for Alice once Bob's last event has been delivered to the others.
    await expect(aliceStream.next(300)).rejects.toThrow(/no SSE message/);
  });
});

describe("Subscription.eventsStream over GraphQL", () => {
  it("isolates accounts the same way", async () => {
    const subscribe = async (jwt: string) => {
      const client = createClient({
        url: `${app.url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${jwt}` },
        retryAttempts: 0,
      });
      sockets.push(client);
      const live = nextBusSubscription(app);
      const events = client.iterate<{ eventsStream: { jobId: string; type: string } }>({
        query: "subscription { eventsStream { jobId type } }",
      });
      const first = events.next();
      await live;
      return { first, events };
    };
    const [bobJob, aliceJob] = [await queuedJob(bob), await queuedJob(alice)];
    const aliceSub = await subscribe(alice.jwt);
    const adminSub = await subscribe(adminJwt);
    await failJob(bob, bobJob);
    await failJob(alice, aliceJob);
    expect((await aliceSub.first).value?.data?.eventsStream).toEqual({ jobId: aliceJob, type: "workflow.failed" });
    expect((await adminSub.first).value?.data?.eventsStream).toEqual({ jobId: bobJob, type: "workflow.failed" });
    expect((await adminSub.events.next()).value?.data?.eventsStream).toEqual({ jobId: aliceJob, type: "workflow.failed" });
  });
});
