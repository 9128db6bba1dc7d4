// A real run (ffmpeg) watched from every transport at once: SSE `GET /workflow/stream`, the GraphQL
// `workflowStream` subscription over graphql-ws and the tRPC `workflow.stream` subscription; then the media
// it produced (ffprobe, JPEG thumbnail, byte ranges), late joiners, Last-Event-ID, and that nobody
// else can see any of it. A second service checks the stream rate limit and worker updates
// (POST /workflow/stream) without rendering anything.
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type Account, eventually, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { RestClient } from "./support/clients.ts";
import { probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse, type SseMessage, type SseStream } from "./support/sse.ts";

const MAX_AD_SECONDS = 2;

let app: TestApp;
let owner: Account;
let stranger: Account;
let dir: string;
const sockets: Client[] = [];
const streams: SseStream[] = [];

beforeAll(async () => {
  // No workers at first: the job waits in the queue until every subscriber is live.
  app = await startTestApp({ WORKERS: "0", STUDIO_MAX_AD_SECONDS: String(MAX_AD_SECONDS) });
  owner = await signUp(app, "progress-owner");
  stranger = await signUp(app, "progress-stranger");
  dir = mkdtempSync(join(tmpdir(), "adgen-progress-"));
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const socket of sockets) await socket.dispose();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cookieOf = (account: Account) => ({ cookie: `session=${account.client.cookie}` });

async function sse(path: string, headers: Record<string, string>, base = app.url): Promise<SseStream> {
  const stream = await openSse(`${base}${path}`, headers);
  streams.push(stream);
  return stream;
}

/** Every message until the stream ends (the server closes it after `result`). */
async function drain(stream: SseStream, timeoutMs = 60_000): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      messages.push(await stream.next(Math.max(1, deadline - Date.now())));
    } catch (error) {
      if ((error as Error).message === "the stream ended") return messages;
      throw error;
    }
  }
}

/** The same resource on the test server (media URLs carry PUBLIC_URL, which is not the test port). */
const local = (url: string) => `${app.url}${new URL(url).pathname}`;

function wsClient(token: string): Client {
  const client = createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
  sockets.push(client);
  return client;
}

const JOB_EVENTS = `subscription($jobId: String!, $after: Int) {
  workflowStream(jobId: $jobId, lastEventId: $after) {
    id jobId type step status progress videoUrl duration error
    result { completedStep review refunded format url workflow { finalVideo thumbnail assets { url format } } }
  }
}`;

interface Collected<T> {
  items: T[];
  first: Promise<void>;
  done: Promise<void>;
}

function collectGraphql(client: Client, variables: Record<string, unknown>): Collected<any> {
  const items: any[] = [];
  let firstResolve!: () => void;
  const first = new Promise<void>((resolve) => {
    firstResolve = resolve;
  });
  const done = new Promise<void>((resolve) => {
    client.subscribe(
      { query: JOB_EVENTS, variables },
      {
        next: (value) => {
          items.push(value);
          firstResolve();
        },
        // graphql-ws `error` message: the operation's errors, as a list.
        error: (errors) => {
          items.push({ error: errors });
          firstResolve();
          resolve();
        },
        complete: resolve,
      },
    );
  });
  return { items, first, done };
}

let jobId: string;
let result: any;
let liveSse: SseMessage[];

describe("one real cinematic run in 9:16 and 16:9, watched live", () => {
  it("streams step events with rising ids, then exactly one result, on SSE, GraphQL and tRPC alike", { timeout: 120_000 }, async () => {
    const launched = await owner.client.post("/workflow", {
      type: "cinematic",
      concept: "Wake up to better coffee",
      formats: ["9:16", "16:9"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    jobId = launched.body.data.jobId;

    // SSE: the current state first (the job waits in the queue), then live events.
    const stream = await sse(`/api/workflow/stream?jobId=${jobId}`, cookieOf(owner));
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const state = await stream.next();
    expect(state.event).toBe("step");
    expect(JSON.parse(state.data)).toMatchObject({ jobId, type: "workflow.state", status: "queued", progress: 0 });

    // GraphQL over graphql-ws, authenticated by connectionParams.
    const gql = collectGraphql(wsClient(owner.jwt), { jobId });
    await gql.first;
    expect(gql.items[0]).toMatchObject({ data: { workflowStream: { jobId, type: "workflow.state", status: "queued" } } });

    // tRPC subscription over SSE under /trpc: each event is a tracked envelope, its SSE id the event id
    // (what the client's onData receives as `{ id, data }`, and resumes from on reconnect).
    const trpc = await sse(`/trpc/workflow.stream?input=${encodeURIComponent(JSON.stringify({ jobId }))}`, {
      authorization: `Bearer ${owner.jwt}`,
    });
    expect(trpc.response.status).toBe(200);
    const trpcMessages: { id: string | undefined; data: any }[] = [];
    for (;;) {
      const message = await trpc.next();
      if (message.event === "connected") continue;
      trpcMessages.push({ id: message.id, data: JSON.parse(message.data) });
      break;
    }
    expect(trpcMessages[0]!.data).toMatchObject({ jobId, type: "workflow.state", status: "queued" });
    expect(trpcMessages[0]!.id).toBe(String(trpcMessages[0]!.data.id));

    // Now the worker starts.
    const started = Date.now();
    await app.services.startWorkers(1);

    const rest = await drain(stream);
    liveSse = [state, ...rest];
    const ids = liveSse.map((m) => Number(m.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
    const last = liveSse.at(-1)!;
    expect(liveSse.filter((m) => m.event === "result")).toEqual([last]);
    expect(liveSse.slice(0, -1).every((m) => m.event === "step")).toBe(true);
    const data = liveSse.map((m) => JSON.parse(m.data));
    // Both stated data shapes: {step, status, progress} and {type, step, progress, status, result}.
    for (const d of data) {
      expect(d).toEqual(expect.objectContaining({ type: expect.any(String), status: expect.any(String), progress: expect.any(Number) }));
      expect(d).toHaveProperty("step");
      expect(d).toHaveProperty("result");
      expect(d.progress).toBeGreaterThanOrEqual(0);
      expect(d.progress).toBeLessThanOrEqual(100);
    }
    const kinds = data.map((d) => d.type);
    expect(kinds[0]).toBe("workflow.state");
    expect(kinds[1]).toBe("workflow.started");
    expect(kinds).toContain("workflow.step");
    expect(kinds.filter((k) => k === "video.ready")).toHaveLength(2);
    expect(kinds.at(-1)).toBe("workflow.completed");
    expect(data.filter((d) => d.type === "workflow.step").map((d) => d.step)).toEqual(
      expect.arrayContaining(["art_direction", "render:9:16", "render:16:9"]),
    );
    // Progress of finished steps never goes back. (In-step progress events are emitted without waiting, so
    // one may be stored after its step's completion event: not asserted here, see the report.)
    const progress = data
      .filter((d) => d.result?.completed || d.type === "video.ready" || d.type === "workflow.completed")
      .map((d) => d.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    // A client that stops at the first completed event gets the result: each video.ready is still
    // processing, at its own progress (all steps run, 99), and only workflow.completed says completed.
    const firstCompleted = (events: { type: string; status: string }[]) => events.find((e) => e.status === "completed")?.type;
    expect(firstCompleted(data)).toBe("workflow.completed");
    expect(data.filter((d) => d.type === "video.ready").map((d) => [d.status, d.progress])).toEqual([
      ["processing", 99],
      ["processing", 99],
    ]);
    const final = data.at(-1);
    expect(final).toMatchObject({ jobId, success: true, status: "completed", progress: 100, step: "done", error: null });
    expect(final.videoUrl).toMatch(new RegExp(`/api/media/${jobId}/ad-9x16\\.mp4$`));
    expect(final.duration).toBeCloseTo(MAX_AD_SECONDS, 1);
    result = final.result;
    expect(Date.now() - started).toBeLessThan(90_000);

    // GraphQL saw the same events (same ids) and completed after workflow.completed.
    await gql.done;
    const gqlEvents = gql.items.map((item) => item.data.workflowStream);
    expect(gql.items.every((item) => !item.errors)).toBe(true);
    expect(gqlEvents.map((e) => e.id)).toEqual(ids);
    expect(gqlEvents.map((e) => e.type)).toEqual(kinds);
    expect(firstCompleted(gqlEvents)).toBe("workflow.completed");
    expect(gqlEvents.map((e) => [e.status, e.progress])).toEqual(data.map((d) => [d.status, d.progress]));
    expect(gqlEvents.at(-1)).toMatchObject({ type: "workflow.completed", videoUrl: final.videoUrl, duration: final.duration, error: null });
    // Its typed result reads what SSE answers as stored: each finished step, each rendered format, the job's result.
    expect(gqlEvents.map((e) => e.result?.completedStep ?? null)).toEqual(data.map((d) => d.result?.completed ?? null));
    const rendered = (events: any[], read: (e: any) => unknown) => events.filter((e) => e.type === "video.ready").map(read);
    expect(rendered(gqlEvents, (e) => e.result)).toEqual(
      rendered(data, (d) => expect.objectContaining({ format: d.result.format, url: d.result.url, workflow: null, completedStep: null })),
    );
    expect(gqlEvents.at(-1).result.workflow).toEqual({
      finalVideo: final.result.finalVideo,
      thumbnail: final.result.thumbnail,
      assets: final.result.assets.map(({ url, format }: { url: string; format: string }) => ({ url, format })),
    });

    // tRPC too: the same events under the same ids, the completion last, then the stream returns.
    for (;;) {
      const message = await trpc.next(30_000);
      if (message.event !== "message" || !message.data.startsWith("{")) continue;
      const item = { id: message.id, data: JSON.parse(message.data) };
      if (!item.data.type) continue;
      trpcMessages.push(item);
      if (item.data.type === "workflow.completed") break;
    }
    expect(trpcMessages.map((m) => Number(m.id))).toEqual(ids);
    expect(trpcMessages.map((m) => m.data.id)).toEqual(ids);
    expect(trpcMessages.map((m) => m.data.type)).toEqual(kinds);
    expect(firstCompleted(trpcMessages.map((m) => m.data))).toBe("workflow.completed");
    expect(trpcMessages.at(-1)!.data).toMatchObject({ type: "workflow.completed", success: true, videoUrl: final.videoUrl });
    let end = await trpc.next(10_000);
    while (end.event === "ping") end = await trpc.next(10_000);
    expect(end.event).toBe("return");
  });

  it("the job and its result point to /api/media files: H.264 + AAC at each format's size and the ad's length", {
    timeout: 60_000,
  }, async () => {
    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    expect(job).toMatchObject({ jobId, status: "completed", progress: 100, refunded: false, creditsUsed: 1, error: null });
    expect(job.result).toEqual(result);
    expect(result.finalVideo).toMatch(new RegExp(`^http://[^/]+/api/media/${jobId}/ad-9x16\\.mp4$`));
    expect(result.thumbnail).toMatch(new RegExp(`/api/media/${jobId}/ad-9x16\\.jpg$`));
    expect(result.assets).toEqual([
      expect.objectContaining({ type: "video", format: "9:16", platform: expect.any(String), width: 720, height: 1280 }),
      expect.objectContaining({ type: "video", format: "16:9", platform: expect.any(String), width: 1280, height: 720 }),
    ]);
    // Standard videos are 720p.
    const sizes: Record<string, [number, number]> = { "9:16": [720, 1280], "16:9": [1280, 720] };
    for (const asset of result.assets) {
      expect(asset.url).toMatch(new RegExp(`/api/media/${jobId}/[\\w.-]+\\.mp4$`));
      expect(asset.duration).toBeCloseTo(MAX_AD_SECONDS, 1);
      const res = await fetch(local(asset.url), { headers: cookieOf(owner) });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("video/mp4");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
      const file = join(dir, `${asset.format.replace(":", "x")}.mp4`);
      writeFileSync(file, bytes);
      const info = await probe(file);
      expect({ video: info.videoCodec, audio: info.audioCodec, width: info.width, height: info.height }).toEqual({
        video: "h264",
        audio: "aac",
        width: sizes[asset.format]![0],
        height: sizes[asset.format]![1],
      });
      expect(Math.abs(info.durationSec - MAX_AD_SECONDS)).toBeLessThanOrEqual(0.3);

      // Each asset's thumbnail is a JPEG.
      const thumb = await fetch(local(asset.thumbnail), { headers: cookieOf(owner) });
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get("content-type")).toBe("image/jpeg");
      const jpeg = Buffer.from(await thumb.arrayBuffer());
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    }
  });

  it("answers byte ranges with 206 and Content-Range (and 416 past the end)", async () => {
    const url = local(result.finalVideo);
    const whole = Buffer.from(await (await fetch(url, { headers: cookieOf(owner) })).arrayBuffer());
    const part = await fetch(url, { headers: { ...cookieOf(owner), range: "bytes=100-1123" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1123/${whole.length}`);
    expect(part.headers.get("content-length")).toBe("1024");
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 1124))).toBe(true);
    const tail = await fetch(url, { headers: { ...cookieOf(owner), range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(`bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(whole.subarray(-10))).toBe(true);
    const beyond = await fetch(url, { headers: { ...cookieOf(owner), range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${whole.length}`);
  });

  it("a late joiner after completion gets just the result, and the stream closes", async () => {
    const stream = await sse(`/api/workflow/stream?jobId=${jobId}`, cookieOf(owner));
    const messages = await drain(stream, 10_000);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.event).toBe("result");
    expect(messages[0]!.id).toBe(liveSse.at(-1)!.id);
    expect(JSON.parse(messages[0]!.data)).toEqual(JSON.parse(liveSse.at(-1)!.data));
  });

  it("Last-Event-ID replays only the events after it (header or query), then closes", async () => {
    const middle = liveSse[Math.floor(liveSse.length / 2)]!;
    // What was stored after it, in order (the replay source).
    const stored = await app.services.prisma.jobEvent.findMany({
      where: { jobId, seq: { gt: Number(middle.id) } },
      orderBy: { seq: "asc" },
    });
    const expected = stored.map((row) => ({ id: String(row.seq), event: row.kind === "workflow.completed" ? "result" : "step" }));
    expect(expected.length).toBeGreaterThan(1);
    for (const replay of [
      await sse(`/api/workflow/stream?jobId=${jobId}`, { ...cookieOf(owner), "last-event-id": String(middle.id) }),
      await sse(`/api/workflow/stream?jobId=${jobId}&lastEventId=${middle.id}`, cookieOf(owner)),
    ]) {
      const messages = await drain(replay, 10_000);
      expect(messages.map((m) => ({ id: m.id, event: m.event }))).toEqual(expected);
      // Every later event the live stream carried is replayed identically.
      for (const live of liveSse.filter((m) => Number(m.id) > Number(middle.id))) {
        expect(messages.find((m) => m.id === live.id)?.data, `event ${live.id}`).toBe(live.data);
      }
    }
    // GraphQL resumes the same way.
    const gql = collectGraphql(wsClient(owner.jwt), { jobId, after: Number(middle.id) });
    await gql.done;
    expect(gql.items.map((i) => i.data.workflowStream.id)).toEqual(expected.map((m) => Number(m.id)));
  });

  it("another account gets 404 for the media, the stream, hitl, cancel and export of the job", async () => {
    const expect404 = (res: { status: number; body: unknown }, what: string) =>
      expect({ what, status: res.status }).toEqual({ what, status: 404 });
    for (const url of [result.finalVideo, result.thumbnail, ...result.assets.map((a: { url: string }) => a.url)]) {
      const res = await fetch(local(url), { headers: cookieOf(stranger) });
      expect404({ status: res.status, body: await res.text() }, url);
      // Without any credential it is not served either.
      expect((await fetch(local(url))).status).toBeGreaterThanOrEqual(401);
    }
    const stream = await fetch(`${app.url}/api/workflow/stream?jobId=${jobId}`, {
      headers: { ...cookieOf(stranger), accept: "text/event-stream" },
    });
    expect(stream.status).toBe(404);
    expect(await stream.json()).toEqual({ success: false, error: "Job not found", requestId: stream.headers.get("x-request-id") });
    expect404(await stranger.client.get(`/workflow/hitl?jobId=${jobId}`), "hitl");
    expect404(await stranger.client.post("/workflow/hitl", { jobId, action: "approve" }), "hitl decide");
    expect404(await stranger.client.post("/workflow/cancel", { jobId }), "cancel");
    expect404(await stranger.client.get(`/workflow/job?jobId=${jobId}`), "job");
    expect404(await stranger.client.get(`/export?source=${encodeURIComponent(result.finalVideo)}`), "export");
    expect404(await stranger.client.post("/workflow/stream", { jobId, progress: 5 }), "worker update");

    // GraphQL and tRPC refuse the same way.
    const gql = collectGraphql(wsClient(stranger.jwt), { jobId });
    await gql.done;
    // Either a result with errors or the protocol's `error` message; both carry the domain error.
    expect(gql.items).toHaveLength(1);
    expect(gql.items[0].errors ?? gql.items[0].error).toEqual([
      expect.objectContaining({ message: "Job not found", extensions: expect.objectContaining({ code: "NOT_FOUND" }) }),
    ]);

    // The owner's cancel of a finished job is a 409, and nothing changed.
    const late = await owner.client.post("/workflow/cancel", { jobId });
    expect(late.status).toBe(409);
    expect((await owner.client.get("/user/credits")).body.data.balance).toBe(9);
  });

  it("answers 404 for an unknown job and 400 without a jobId", async () => {
    const unknown = await fetch(`${app.url}/api/workflow/stream?jobId=00000000-0000-4000-8000-000000000000`, {
      headers: { ...cookieOf(owner), accept: "text/event-stream" },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ success: false, error: "Job not found", requestId: unknown.headers.get("x-request-id") });
    const missing = await fetch(`${app.url}/api/workflow/stream`, { headers: { ...cookieOf(owner), accept: "text/event-stream" } });
    expect([400, 404]).toContain(missing.status);
    const anonymous = await fetch(`${app.url}/api/workflow/stream?jobId=${jobId}`, { headers: { accept: "text/event-stream" } });
    expect(anonymous.status).toBe(401);
  });
});

describe("stream rate limit and worker updates (no workers, no renders)", () => {
  let quiet: TestApp;
  beforeAll(async () => {
    // The network is closed: a worker's result may name public https URLs, checked against this DNS.
    const resolver = async (host: string) => (host === "cdn.example" ? ["151.101.1.69"] : Promise.reject(new Error(`ENOTFOUND ${host}`)));
    quiet = await startTestApp({ WORKERS: "0", RATE_LIMIT_STREAM_PER_HOUR: "2", WORKER_TOKEN: "worker-secret-token" }, { resolver });
  });
  afterAll(() => quiet?.close());

  it("the third stream connection within the hour is 429 with the X-RateLimit headers", async () => {
    const user = await signUp(quiet, "stream-limit");
    const { jobId: id } = (await user.client.post("/workflow", { type: "cinematic" })).body.data;
    const first = await sse(`/api/workflow/stream?jobId=${id}`, cookieOf(user), quiet.url);
    const second = await sse(`/api/workflow/stream?jobId=${id}`, cookieOf(user), quiet.url);
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    expect(first.response.headers.get("x-ratelimit-limit")).toBe("2");
    expect(second.response.headers.get("x-ratelimit-remaining")).toBe("0");
    first.close();
    second.close();
    const third = await fetch(`${quiet.url}/api/workflow/stream?jobId=${id}`, {
      headers: { ...cookieOf(user), accept: "text/event-stream" },
    });
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({
      success: false,
      error: "Too many requests. Please try again later.",
      requestId: third.headers.get("x-request-id"),
    });
    expect(third.headers.get("x-ratelimit-limit")).toBe("2");
    expect(third.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(third.headers.get("x-ratelimit-reset"));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 3600 + 1);
    // The limit is per account: another account still streams.
    const other = await signUp(quiet, "stream-limit-other");
    const { jobId: otherJob } = (await other.client.post("/workflow", { type: "cinematic" })).body.data;
    const ok = await sse(`/api/workflow/stream?jobId=${otherJob}`, cookieOf(other), quiet.url);
    expect(ok.response.status).toBe(200);
    ok.close();
  });

  it("the owner posts progress; 150 is a 400 naming progress; another account gets 404", async () => {
    const user = await signUp(quiet, "worker-owner");
    const other = await signUp(quiet, "worker-other");
    const { jobId: id } = (await user.client.post("/workflow", { type: "cinematic" })).body.data;
    const stream = await sse(`/api/workflow/stream?jobId=${id}`, cookieOf(user), quiet.url);
    expect(JSON.parse((await stream.next()).data)).toMatchObject({ type: "workflow.state", status: "queued" });

    const update = await user.client.post("/workflow/stream", { jobId: id, step: "art_direction", progress: 40, status: "processing" });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    expect(update.body.data).toMatchObject({ jobId: id, status: "processing", step: "art_direction", progress: 40 });
    expect(JSON.parse((await stream.next()).data)).toMatchObject({ type: "workflow.started", status: "processing" });
    const step = await stream.next();
    expect(step.event).toBe("step");
    expect(JSON.parse(step.data)).toMatchObject({ type: "workflow.step", step: "art_direction", status: "processing", progress: 40 });

    for (const progress of [150, -1, 12.5, "40"]) {
      const bad = await user.client.post("/workflow/stream", { jobId: id, progress });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("progress must be an integer from 0 to 100");
    }
    expect((await user.client.post("/workflow/stream", { jobId: id, status: "done" })).body.error).toBe(
      "status must be processing, completed or failed",
    );
    expect((await user.client.post("/workflow/stream", { progress: 3 })).body.error).toBe("jobId is required");
    // Every job operation says what is missing instead of answering 404.
    for (const path of ["/workflow/stream", "/workflow/job", "/workflow/hitl"]) {
      expect((await user.client.get(path)).body).toEqual({ success: false, error: "jobId is required" });
    }
    expect((await user.client.post("/workflow/cancel", {})).body).toEqual({ success: false, error: "jobId is required" });

    const foreign = await other.client.post("/workflow/stream", { jobId: id, progress: 90 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: "Job not found" });
    const anonymous = await new RestClient(quiet.url).post("/workflow/stream", { jobId: id, progress: 90 });
    expect(anonymous.status).toBe(401);
    const wrongToken = await new RestClient(quiet.url, { bearer: "not-the-worker-token" }).post("/workflow/stream", {
      jobId: id,
      progress: 90,
    });
    expect(wrongToken.status).toBe(401);
    expect((await user.client.get(`/workflow/job?jobId=${id}`)).body.data.progress).toBe(40);

    // The WORKER_TOKEN bearer needs no session; completing with a result ends the stream with `result`.
    const worker = new RestClient(quiet.url, { bearer: "worker-secret-token" });
    expect((await worker.post("/workflow/stream", { jobId: id, step: "render", progress: 80 })).body.data).toMatchObject({ progress: 80 });
    const finalVideo = "https://cdn.example/ads/external.mp4";
    const done = await worker.post("/workflow/stream", {
      jobId: id,
      status: "completed",
      result: {
        finalVideo,
        thumbnail: null,
        assets: [{ url: finalVideo, type: "video", format: "9:16", duration: 6, platform: "tiktok" }],
      },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: "completed", progress: 100 });
    const rest = await drain(stream, 10_000);
    expect(rest.map((m) => [m.event, JSON.parse(m.data).type])).toEqual([
      ["step", "workflow.step"],
      ["step", "video.ready"],
      ["result", "workflow.completed"],
    ]);
    expect(JSON.parse(rest[1]!.data)).toMatchObject({ type: "video.ready", status: "processing", progress: 99, videoUrl: finalVideo });
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ success: true, status: "completed", videoUrl: finalVideo, duration: 6 });
    // A finished job takes no more updates.
    expect((await worker.post("/workflow/stream", { jobId: id, progress: 10 })).status).toBe(409);
    expect((await worker.post("/workflow/stream", { jobId: "00000000-0000-4000-8000-000000000000", progress: 10 })).status).toBe(404);
  });

  it("status failed refunds exactly once (a workflow_refund row referencing the job); a second failed post is 409", async () => {
    const user = await signUp(quiet, "worker-fail");
    await givePresenter(quiet, user.jwt);
    const { jobId: id } = (await user.client.post("/workflow", { type: "avatar", quality: "premium" })).body.data;
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(7);
    const worker = new RestClient(quiet.url, { bearer: "worker-secret-token" });
    const failed = await worker.post("/workflow/stream", { jobId: id, status: "failed", result: { error: "GPU on fire" } });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.data).toMatchObject({ status: "failed", refunded: true, error: "GPU on fire" });
    const twice = await Promise.all([1, 2].map(() => worker.post("/workflow/stream", { jobId: id, status: "failed" })));
    expect(twice.map((r) => r.status)).toEqual([409, 409]);
    expect((await user.client.post("/workflow/stream", { jobId: id, status: "failed" })).status).toBe(409);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);
    const refunds = await quiet.services.prisma.creditLedgerEntry.findMany({ where: { userId: user.id, reason: "workflow_refund" } });
    expect(refunds.map((r) => ({ delta: r.delta, reference: r.reference }))).toEqual([{ delta: 3, reference: id }]);
    // The failure is the stream's result.
    const stream = await sse(`/api/workflow/stream?jobId=${id}`, cookieOf(user), quiet.url);
    const messages = await drain(stream, 10_000);
    expect(messages.map((m) => m.event)).toEqual(["result"]);
    expect(JSON.parse(messages[0]!.data)).toMatchObject({
      type: "workflow.failed",
      success: false,
      error: "GPU on fire",
      status: "failed",
    });
    await eventually(async () => expect((await user.client.get("/user/credits")).body.data.balance).toBe(10));
  });
});
