// Open streams end with their credential: a logout, a password change made elsewhere, an admin's
// suspension and a key's revocation each end, within a second, every stream opened with the credential
// they end (REST SSE, tRPC over SSE, GraphQL over WebSocket), each with a last error that says why. A
// password change also ends the API key and the other sessions; a key cannot mint its successor.
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { BUS_RECONNECTED } from "../src/bus/bus.ts";
import { type Account, ADMIN_ENV, adminClient, logIn, nextBusSubscription, signUp } from "./support/accounts.ts";
import { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseStream } from "./support/sse.ts";

let app: TestApp;
let admin: RestClient;
const sockets: Client[] = [];
const sseStreams: SseStream[] = [];

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, RATE_LIMIT_STREAM_PER_HOUR: "200" });
  admin = await adminClient(app);
});
afterAll(async () => {
  for (const stream of sseStreams) stream.close();
  for (const socket of sockets) await socket.dispose();
  await app?.close();
});

interface Closed {
  code: number;
  reason: string;
}

interface OpenStreams {
  rest: SseStream;
  trpc: SseStream;
  /** The GraphQL socket's close, and the subscription's error. */
  socketClosed: Promise<Closed>;
  subscriptionError: Promise<unknown>;
}

/** One subscription as each transport asks for it. */
interface StreamTarget {
  rest: string;
  trpc: string;
  graphql: { query: string; variables?: Record<string, unknown> };
  /** A job's stream opens with the job's state (live then); a balance stream is live once it listens on the bus. */
  opensWithState: boolean;
}

const BALANCE: StreamTarget = {
  rest: "/api/user/credits/stream",
  trpc: "/trpc/user.balanceChanges",
  graphql: { query: "subscription { userBalanceChanges { balance } }" },
  opensWithState: false,
};

/** A job's events: pushed to every subscriber (written straight to the socket), not iterated. */
const jobStream = (jobId: string): StreamTarget => ({
  rest: `/api/workflow/stream?jobId=${jobId}`,
  trpc: `/trpc/workflow.stream?input=${encodeURIComponent(JSON.stringify({ jobId }))}`,
  graphql: { query: "subscription($jobId: String!) { workflowStream(jobId: $jobId) { id } }", variables: { jobId } },
  opensWithState: true,
});

/** The stream three ways (REST SSE, tRPC over SSE, GraphQL over WebSocket), each live when this returns. */
async function openStreams(credential: string, target: StreamTarget = BALANCE): Promise<OpenStreams> {
  const authorization = `Bearer ${credential}`;
  const untilLive = async (opened: () => Promise<unknown>) => {
    const live = target.opensWithState ? null : nextBusSubscription(app);
    await opened();
    await live;
  };
  let rest!: SseStream;
  await untilLive(async () => {
    rest = await openSse(`${app.url}${target.rest}`, { authorization });
    sseStreams.push(rest);
    expect(rest.response.status).toBe(200);
    if (target.opensWithState) expect((await rest.next()).event).not.toBe("error");
  });
  let trpc!: SseStream;
  await untilLive(async () => {
    trpc = await openSse(`${app.url}${target.trpc}`, { authorization });
    sseStreams.push(trpc);
    expect(await trpc.next()).toMatchObject({ event: "connected" });
    if (target.opensWithState) expect((await trpc.next()).event).toBe("message");
  });

  let closed!: (event: Closed) => void;
  const socketClosed = new Promise<Closed>((resolve) => {
    closed = resolve;
  });
  const client = createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization },
    retryAttempts: 0,
    on: { closed: (event) => closed({ code: (event as Closed).code, reason: String((event as Closed).reason) }) },
  });
  sockets.push(client);
  let subscriptionError!: Promise<unknown>;
  await untilLive(async () => {
    let opened!: () => void;
    const first = new Promise<void>((resolve) => {
      opened = resolve;
    });
    subscriptionError = new Promise<unknown>((resolve) =>
      client.subscribe(target.graphql, {
        next: () => opened(),
        error: resolve,
        complete: () => resolve(new Error("completed without an error")),
      }),
    );
    if (target.opensWithState) await first;
  });
  return { rest, trpc, socketClosed, subscriptionError };
}

const within = <T>(promise: Promise<T>, deadline: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not end in time`)), Math.max(0, deadline - Date.now())),
    ),
  ]);

/** Every stream ends before `deadline`, each with its transport's last error saying `message`. */
async function expectEnded(streams: OpenStreams, deadline: number, code: "UNAUTHORIZED" | "FORBIDDEN", message: RegExp) {
  const left = () => Math.max(0, deadline - Date.now());
  const [rest, trpc, closed, subscriptionError] = await Promise.all([
    streams.rest.next(left()),
    streams.trpc.next(left()),
    within(streams.socketClosed, deadline, "the GraphQL socket"),
    within(streams.subscriptionError, deadline, "the GraphQL subscription"),
  ]);
  // REST: an `error` event, then the stream closes.
  expect(rest.event).toBe("error");
  expect(JSON.parse(rest.data)).toMatchObject({ code, message: expect.stringMatching(message) });
  await expect(streams.rest.next(left())).rejects.toThrow("the stream ended");
  // tRPC: the error its client reads (a TRPCClientError with the code), then the stream closes.
  expect(trpc.event).toBe("serialized-error");
  expect(JSON.parse(trpc.data)).toMatchObject({ message: expect.stringMatching(message), data: { code } });
  await expect(streams.trpc.next(left())).rejects.toThrow("the stream ended");
  // GraphQL over WebSocket: the subscription's error, and the socket closed with 4401 or 4403.
  expect(subscriptionError).toEqual([
    expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) }),
  ]);
  expect(closed).toEqual({ code: code === "UNAUTHORIZED" ? 4401 : 4403, reason: expect.stringMatching(message) });
}

/** A balance change reaches a stream that should still be open. */
async function expectStillOpen(stream: SseStream, account: Account) {
  const grant = await admin.post(`/admin/users/${account.id}/credits`, { amount: 1 });
  expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  const event = await stream.next();
  expect(event.event).toBe("balance");
  expect(JSON.parse(event.data)).toMatchObject({ balance: grant.body.data.balance, delta: 1 });
}

async function withApiKey(account: Account): Promise<string> {
  const plan = await admin.patch(`/admin/users/${account.id}`, { current_plan_id: "subscription_agency" });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const created = await account.client.post("/user/api-key");
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.apiKey;
}

describe("open streams end with the credential that opened them", () => {
  it("a logout ends the session's streams, with 'signed out' (401 / 4401); another session's stream stays", async () => {
    const account = await signUp(app, "revoke-logout");
    const other = await logIn(app, account.email, account.password);
    const streams = await openStreams(account.jwt);
    const bystander = await openSse(`${app.url}/api/user/credits/stream`, { authorization: `Bearer ${other.cookie}` });
    sseStreams.push(bystander);

    const logout = await account.client.post("/auth/logout");
    expect(logout.status, JSON.stringify(logout.body)).toBe(200);
    await expectEnded(streams, Date.now() + 1000, "UNAUTHORIZED", /^Your session ended \(signed out\)\. Sign in again\.$/);
    await expectStillOpen(bystander, account);
    // Nothing is held for a stream once it is over, ended by a revocation or closed by its client.
    bystander.close();
    await expect.poll(() => app.services.sessions.streams.size).toBe(0);
  });

  it("a job's event stream (pushed, written straight to the socket) ends on logout too", async () => {
    const account = await signUp(app, "revoke-job");
    const launch = await account.client.post("/workflow", { type: "staticad", concept: "Revocation test ad", formats: ["1:1"] });
    expect(launch.status, JSON.stringify(launch.body)).toBe(200);
    const streams = await openStreams(account.jwt, jobStream(launch.body.data.jobId));

    const logout = await account.client.post("/auth/logout");
    expect(logout.status, JSON.stringify(logout.body)).toBe(200);
    await expectEnded(streams, Date.now() + 1000, "UNAUTHORIZED", /^Your session ended \(signed out\)\. Sign in again\.$/);
  });

  it("a password change made from another session ends this session's streams; the changing session's stay", async () => {
    const account = await signUp(app, "revoke-password");
    const changer = await logIn(app, account.email, account.password);
    const streams = await openStreams(account.jwt);
    const changersStream = await openSse(`${app.url}/api/user/credits/stream`, { authorization: `Bearer ${changer.cookie}` });
    sseStreams.push(changersStream);

    const change = await changer.post("/user/change-password", { currentPassword: account.password, newPassword: "a brand new password" });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    await expectEnded(streams, Date.now() + 1000, "UNAUTHORIZED", /^Your session ended \(the account's password was changed\)/);
    await expectStillOpen(changersStream, account);
  });

  it("an admin's suspension ends every stream of the account, with 'suspended' (403 / 4403)", async () => {
    const account = await signUp(app, "revoke-suspend");
    const streams = await openStreams(account.jwt);

    const suspend = await admin.patch(`/admin/users/${account.id}/status`, { status: "suspended" });
    expect(suspend.status, JSON.stringify(suspend.body)).toBe(200);
    await expectEnded(streams, Date.now() + 1000, "FORBIDDEN", /^Account suspended/);
  });

  it("revoking an API key ends the streams opened with it", async () => {
    const account = await signUp(app, "revoke-key");
    const key = await withApiKey(account);
    const streams = await openStreams(key);

    const revoke = await account.client.delete("/user/api-key");
    expect(revoke.body).toMatchObject({ success: true, data: { revoked: true } });
    await expectEnded(streams, Date.now() + 1000, "UNAUTHORIZED", /^This API key was revoked\./);
  });
});

describe("an instance that may have missed a revocation", () => {
  it("checks its streams' credentials again when its link to the others is back, and ends those that are gone", async () => {
    const account = await signUp(app, "revoke-missed");
    const kept = await logIn(app, account.email, account.password);
    const streams = await openStreams(account.jwt);
    const keptStream = await openSse(`${app.url}/api/user/credits/stream`, { authorization: `Bearer ${kept.cookie}` });
    sseStreams.push(keptStream);
    // Another instance signed the session out; its message never came here (the link was down).
    const session = await app.services.sessions.validate(account.jwt);
    await app.services.prisma.session.delete({ where: { id: session!.sessionId } });

    app.services.events.broadcast(BUS_RECONNECTED, null);
    await expectEnded(streams, Date.now() + 1000, "UNAUTHORIZED", /^Your session ended\. Sign in again\.$/);
    await expectStillOpen(keptStream, account);
  });
});

describe("a password change ends every other credential", () => {
  it("revokes the API key and the other sessions, says so, and keeps the changing session signed in", async () => {
    const account = await signUp(app, "password-key");
    const key = await withApiKey(account);
    const otherSession = await logIn(app, account.email, account.password);
    const byKey = new RestClient(app.url, { bearer: key });
    expect((await byKey.get("/auth/session")).status).toBe(200);
    expect((await otherSession.get("/auth/session")).status).toBe(200);

    const change = await account.client.post("/user/change-password", {
      currentPassword: account.password,
      newPassword: "another new password",
    });
    expect(change.body).toEqual({ success: true, data: { changed: true, otherSessionsEnded: 1, apiKeyRevoked: true } });

    expect(await byKey.get("/auth/session")).toMatchObject({ status: 401 });
    expect(await otherSession.get("/auth/session")).toMatchObject({ status: 401 });
    expect(await account.client.get("/auth/session")).toMatchObject({ status: 200 });
    expect((await account.client.get("/user/api-key")).body.data).toMatchObject({ hasApiKey: false, eligible: true });
    // A new key can be made from the session.
    const fresh = await account.client.post("/user/api-key");
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(await new RestClient(app.url, { bearer: fresh.body.data.apiKey }).get("/auth/session")).toMatchObject({ status: 200 });
  });

  it("a key cannot mint its successor: 403, and the key keeps working", async () => {
    const account = await signUp(app, "key-mint");
    const key = await withApiKey(account);
    const byKey = new RestClient(app.url, { bearer: key });

    const minted = await byKey.post("/user/api-key");
    expect(minted).toMatchObject({
      status: 403,
      body: { success: false, error: expect.stringMatching(/^An API key cannot create API keys\. Sign in/) },
    });
    expect(await byKey.get("/auth/session")).toMatchObject({ status: 200 });
    expect((await account.client.get("/user/api-key")).body.data).toMatchObject({ hasApiKey: true });
  });
});
