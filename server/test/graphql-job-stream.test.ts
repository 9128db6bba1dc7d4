// A job's progress as a GraphQL subscription (workflowStream over graphql-ws), which analytics partners
// watch. Each event is run through a document and serialised once for every subscriber of that document,
// and written to each socket framed with the subscription's own id; a socket that stops reading is closed
// without holding up the others.
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
const clients: Client[] = [];
beforeAll(async () => {
  // Twenty-odd streams in one test: more than the default ten an hour.
  app = await startTestApp({ RATE_LIMIT_STREAM_PER_HOUR: "100" });
  owner = await signUp(app, "gql-stream");
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await app?.close();
});

const FULL = `subscription($jobId: String!) { workflowStream(jobId: $jobId) { id jobId type step status progress error } }`;
const SMALL = `subscription($jobId: String!) { workflowStream(jobId: $jobId) { id progress } }`;

async function launch(): Promise<string> {
  const res = await owner.client.post("/workflow", { type: "cinematic", concept: "a kettle that sings in tune" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId;
}

function socket(): Client {
  const client = createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${owner.jwt}` },
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

type JobEvent = { id: number; jobId?: string; type?: string; status?: string; progress: number; error?: string | null };

interface Watcher {
  events: JobEvent[];
  completed: boolean;
  errors: unknown[];
  stop(): void;
}

function watch(client: Client, query: string, jobId: string): Watcher {
  const watcher: Watcher = { events: [], completed: false, errors: [], stop: () => {} };
  watcher.stop = client.subscribe<{ workflowStream: JobEvent }>(
    { query, variables: { jobId } },
    {
      next: (value) => {
        if (value.errors) watcher.errors.push(value.errors);
        else watcher.events.push(value.data!.workflowStream);
      },
      error: (error) => watcher.errors.push(error),
      complete: () => {
        watcher.completed = true;
      },
    },
  );
  return watcher;
}

const update = async (jobId: string, body: Record<string, unknown>) => {
  const res = await owner.client.post("/workflow/stream", { jobId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe("workflowStream over graphql-ws", () => {
  it("answers twenty subscribers of one document from one execution and one serialisation per event", async () => {
    const jobId = await launch();
    const bus = app.services.events;
    const before = bus.listenerCount();
    // Ten sockets with two subscriptions each, and one subscriber of a smaller selection.
    const sockets = Array.from({ length: 10 }, socket);
    const full = sockets.flatMap((client) => [watch(client, FULL, jobId), watch(client, FULL, jobId)]);
    const small = watch(sockets[0]!, SMALL, jobId);
    const everyone = [...full, small];
    // The current state first.
    await expect.poll(() => everyone.every((watcher) => watcher.events.length === 1), { timeout: 10_000 }).toBe(true);
    expect(full[0]!.events[0]).toMatchObject({ jobId, type: "workflow.state", status: "queued", progress: 0 });

    const stringify = vi.spyOn(JSON, "stringify");
    let serialised: unknown[];
    try {
      await update(jobId, { progress: 42 });
      // The job starts (workflow.started), then reports its progress: every subscriber reads both.
      await expect.poll(() => everyone.every((watcher) => watcher.events.at(-1)?.progress === 42), { timeout: 10_000 }).toBe(true);
      serialised = stringify.mock.calls
        .map(([value]) => value as { data?: { workflowStream?: JobEvent }; payload?: { data?: { workflowStream?: JobEvent } } })
        .filter((value) => typeof value === "object" && value !== null)
        .map((value) => value.data?.workflowStream ?? value.payload?.data?.workflowStream)
        .filter((event) => event !== undefined);
    } finally {
      stringify.mockRestore();
    }
    const first = full[0]!.events;
    expect(first.slice(1)).toMatchObject([
      { jobId, type: "workflow.started", status: "processing" },
      { jobId, progress: 42, status: "processing" },
    ]);
    for (const watcher of full) expect(watcher.events).toEqual(first);
    // The smaller document has its own answers, with only what it asked for.
    expect(small.events).toEqual(first.map(({ id, progress }) => ({ id, progress })));
    // Two events, two documents: four serialisations, not one per subscriber (21 an event).
    expect(serialised).toHaveLength(4);
    expect(serialised.map((event) => (event as JobEvent).id)).toEqual([first[1]!.id, first[1]!.id, first[2]!.id, first[2]!.id]);

    // Completing every subscription releases the job's listener, sockets still open.
    for (const watcher of everyone) watcher.stop();
    await expect.poll(() => bus.listenerCount(), { timeout: 10_000 }).toBe(before);
  });

  it("ends each subscription after the job's result, and resumes after lastEventId", async () => {
    const jobId = await launch();
    const client = socket();
    const live = watch(client, FULL, jobId);
    await expect.poll(() => live.events.length, { timeout: 10_000 }).toBe(1);
    await update(jobId, { progress: 10 });
    await update(jobId, { progress: 20 });
    await update(jobId, { status: "failed", result: { error: "stand-in failure" } });
    await expect.poll(() => live.completed, { timeout: 10_000 }).toBe(true);
    expect(live.errors).toEqual([]);
    expect(live.events.map((event) => event.type)).toEqual([
      "workflow.state",
      "workflow.started",
      "workflow.step",
      "workflow.step",
      "workflow.failed",
    ]);
    // A new subscription after the first progress event gets the rest from the log, then completes.
    const after = live.events[2]!.id;
    const resumed: JobEvent[] = [];
    await new Promise<void>((resolve, reject) =>
      client.subscribe<{ workflowStream: JobEvent }>(
        {
          query: `subscription($jobId: String!, $after: Int) { workflowStream(jobId: $jobId, lastEventId: $after) { id type progress } }`,
          variables: { jobId, after },
        },
        { next: (value) => resumed.push(value.data!.workflowStream), error: reject, complete: resolve },
      ),
    );
    expect(resumed).toEqual(live.events.slice(3).map(({ id, type, progress }) => ({ id, type, progress })));
  });

  it("closes a socket that stops reading once a megabyte waits for it; the others get every event", async () => {
    const jobId = await launch();
    const started = Date.now();
    const reader = socket();
    const keeps = watch(reader, FULL, jobId);

    // A raw graphql-ws client whose connection stops reading after the first event.
    const stalled = new WebSocket(`${app.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const messages: { type: string; payload?: { data?: { workflowStream?: JobEvent } } }[] = [];
    let closed: number | null = null;
    stalled.on("message", (data) => messages.push(JSON.parse(String(data))));
    stalled.on("close", (code) => {
      closed = code;
    });
    await new Promise((resolve) => stalled.once("open", resolve));
    stalled.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${owner.jwt}` } }));
    await expect.poll(() => messages.some((message) => message.type === "connection_ack"), { timeout: 10_000 }).toBe(true);
    stalled.send(JSON.stringify({ id: "a", type: "subscribe", payload: { query: FULL, variables: { jobId } } }));
    await expect.poll(() => messages.some((message) => message.type === "next"), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => keeps.events.length, { timeout: 10_000 }).toBe(1);
    (stalled as unknown as { _socket: { pause(): void } })._socket.pause();

    // 30 MB of events (100 KB each): far more than the kernel's buffers on both ends hold.
    const first = keeps.events[0]!.id;
    const large = "x".repeat(100_000);
    const count = 300;
    for (let n = 1; n <= count; n++) {
      app.services.events.publish({
        kind: "job.event",
        userId: owner.id,
        data: {
          id: first + n,
          jobId,
          type: "workflow.progress",
          step: null,
          status: "processing",
          progress: n % 100,
          result: null,
          error: large,
          at: new Date().toISOString(),
        },
      });
      // Let the sockets drain between events, as a live job's pace would.
      if (n % 20 === 0) await expect.poll(() => keeps.events.length, { timeout: 10_000 }).toBe(n + 1);
    }
    await expect.poll(() => keeps.events.length, { timeout: 10_000 }).toBe(count + 1);
    expect(keeps.events.at(-1)!.id).toBe(first + count);

    // Reading again, the stalled client finds what was on its way, then the end of the connection.
    (stalled as unknown as { _socket: { resume(): void } })._socket.resume();
    await expect.poll(() => closed, { timeout: 10_000 }).not.toBeNull();
    // Cut off (1006: no closing handshake), well before the keep-alive's 12 s could have done it.
    expect(closed).toBe(1006);
    expect(Date.now() - started).toBeLessThan(12_000);
    const received = messages.filter((message) => message.type === "next").length;
    expect(received).toBeGreaterThan(1);
    expect(received).toBeLessThan(count + 1);
    // Nothing of the stalled subscription is left: with the reader gone too, the job has no listener.
    const bus = app.services.events;
    keeps.stop();
    await expect.poll(() => bus.listenerCount(), { timeout: 10_000 }).toBe(0);
  });
});
