// A job's progress as a tRPC subscription (workflow.stream), which is how the SPA watches a job. The
// tRPC transport writes it in tRPC's SSE format itself: an event reaches every subscriber of the job as
// the same bytes, serialised once, and the real tRPC client reads it, resuming after the id it gives.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { trpcSubscriptionClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse } from "./support/sse.ts";

let app: TestApp;
let owner: Account;
beforeAll(async () => {
  // Twenty-odd streams in one test: more than the default ten an hour.
  app = await startTestApp({ RATE_LIMIT_STREAM_PER_HOUR: "100" });
  owner = await signUp(app, "trpc-stream");
});
afterAll(() => app?.close());

async function launch(): Promise<string> {
  const res = await owner.client.post("/workflow", { type: "cinematic", concept: "a lamp that follows the sun" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId;
}

const streamUrl = (jobId: string) => `${app.url}/trpc/workflow.stream?input=${encodeURIComponent(JSON.stringify({ jobId }))}`;

const client = () => trpcSubscriptionClient(app.url, owner.jwt);

describe("workflow.stream over tRPC", () => {
  it("gives twenty subscribers of one job each event as the same bytes, serialised once", async () => {
    const jobId = await launch();
    const streams = await Promise.all(
      Array.from({ length: 20 }, () => openSse(streamUrl(jobId), { authorization: `Bearer ${owner.jwt}` })),
    );
    try {
      for (const stream of streams) {
        expect(stream.response.status).toBe(200);
        expect(await stream.next()).toMatchObject({ event: "connected", data: "{}" });
        const state = await stream.next();
        expect(state.event, state.data).toBe("message");
        expect(JSON.parse(state.data)).toMatchObject({ jobId, type: "workflow.state", status: "queued" });
      }
      const stringify = vi.spyOn(JSON, "stringify");
      let received: { id?: string; data: string }[][];
      try {
        const update = await owner.client.post("/workflow/stream", { jobId, progress: 42 });
        expect(update.status, JSON.stringify(update.body)).toBe(200);
        // The job starts (workflow.started), then reports its progress: each stream reads both.
        received = await Promise.all(
          streams.map(async (stream) => {
            const messages = [await stream.next()];
            while (JSON.parse(messages.at(-1)!.data).progress !== 42) messages.push(await stream.next());
            return messages;
          }),
        );
        // Each event was serialised for the first subscriber only: the others got the bytes it made.
        const serialised = stringify.mock.calls
          .map(([value]) => value as { id?: number; jobId?: string; at?: string } | null)
          .filter((view) => typeof view === "object" && view?.jobId === jobId && "at" in view)
          .map((view) => view!.id);
        expect(serialised).toEqual(received[0]!.map((message) => Number(message.id)));
      } finally {
        stringify.mockRestore();
      }
      const first = received[0]!;
      expect(first.map((message) => JSON.parse(message.data))).toMatchObject([
        { type: "workflow.started", status: "processing" },
        { jobId, progress: 42, status: "processing" },
      ]);
      for (const message of first) expect(message.id).toBe(String(JSON.parse(message.data).id));
      for (const messages of received) expect(messages).toEqual(first);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("is read by the real tRPC client, which resumes after the id it gives", async () => {
    const jobId = await launch();
    for (const progress of [10, 20, 30]) expect((await owner.client.post("/workflow/stream", { jobId, progress })).status).toBe(200);
    const stored = await app.services.prisma.jobEvent.findMany({ where: { jobId }, orderBy: { seq: "asc" } });
    const after = stored.find((row) => (row.data as { progress?: number }).progress === 10)!;

    const seen: { id: string; data: { id: number; progress: number; type: string } }[] = [];
    const api = client();
    const subscription = api.workflow.stream.subscribe(
      { jobId, lastEventId: String(after.seq) },
      { onData: (value) => seen.push(value as unknown as (typeof seen)[number]) },
    );
    try {
      // The log after that id, in order, with each event's own id.
      await expect.poll(() => seen.map((event) => event.data.progress), { timeout: 10_000 }).toEqual([20, 30]);
      expect(seen.map((event) => event.id)).toEqual(seen.map((event) => String(event.data.id)));
      // Then live, until the job ends; the client completes on the stream's end.
      let completed = false;
      subscription.unsubscribe();
      const live = api.workflow.stream.subscribe(
        { jobId, lastEventId: seen.at(-1)!.id },
        {
          onData: (value) => seen.push(value as unknown as (typeof seen)[number]),
          onComplete: () => {
            completed = true;
          },
        },
      );
      try {
        // Live or from the log, whichever this lands in: the end arrives either way.
        expect(
          (await owner.client.post("/workflow/stream", { jobId, status: "failed", result: { error: "stand-in failure" } })).status,
        ).toBe(200);
        await expect.poll(() => completed, { timeout: 10_000 }).toBe(true);
        expect(seen.at(-1)!.data).toMatchObject({ type: "workflow.failed" });
        expect(seen.map((event) => event.data.progress).slice(0, 2)).toEqual([20, 30]);
      } finally {
        live.unsubscribe();
      }
    } finally {
      subscription.unsubscribe();
    }
  });
});
