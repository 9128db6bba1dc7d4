// SSE streams whose items are pushed (a job's events) are written straight to Node's response: the same
// bytes for every subscriber, in the call that published the event. A client that stops reading is
// dropped once a megabyte waits for it, and the others go on; one that goes away releases its source.
import { Writable } from "node:stream";
import { directStreamOf, type NodeResponseLike } from "@adgen/rest-adapter";
import { describe, expect, it } from "vitest";
import { sseResponse } from "../../rest-adapter/src/streaming.ts";
import { type PushSink, pushableStream } from "../src/streams/push-source.ts";

interface Item {
  id: number;
  event: string;
  data: { jobId: string; progress: number; note: string };
}

/** A source that hands each pipe's sink to the test, as the job fan-out would. */
function source() {
  const sinks = new Set<PushSink<Item>>();
  return {
    sinks,
    stream: pushableStream<Item>({
      pipe(sink) {
        sinks.add(sink);
        return () => sinks.delete(sink);
      },
    }),
    publish(item: Item) {
      for (const sink of sinks) sink.write(item);
    },
  };
}

/** A response whose socket takes bytes as fast as they come (`stalled`: takes none after the first write). */
function response(stalled = false) {
  const chunks: Buffer[] = [];
  let closed = false;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk, _encoding, done) {
      chunks.push(chunk);
      if (!stalled || chunks.length === 1) done();
    },
  });
  out.on("close", () => {
    closed = true;
  });
  return { out: out as unknown as NodeResponseLike & Writable, text: () => Buffer.concat(chunks).toString("utf8"), closed: () => closed };
}

describe("SSE written directly", () => {
  it("writes the same bytes to every subscriber, drops one that stops reading, and releases its source", async () => {
    const job = source();
    const fast = [response(), response()];
    const slow = response(true);
    for (const client of [...fast, slow]) {
      const answer = sseResponse(job.stream, { heartbeatMs: 60_000 });
      const direct = directStreamOf(answer);
      expect(direct, "a pushed stream is offered for direct writing").toBeDefined();
      // The same source piped once per client, as each request opens its own stream of the job.
      direct!.start(client.out);
    }
    expect(job.sinks.size).toBe(3);
    const note = "x".repeat(2000);
    let published = 0;
    for (let i = 1; i <= 1500; i++) {
      job.publish({ id: i, event: "step", data: { jobId: "j1", progress: i, note } });
      published = i;
      if (slow.closed()) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // About a megabyte (2 kB per event) piled up for the stalled client: it was dropped, the others were not.
    expect(slow.closed()).toBe(true);
    expect(published).toBeGreaterThan(400);
    expect(published).toBeLessThan(700);
    expect(job.sinks.size).toBe(2);
    for (let i = published + 1; i <= published + 5; i++)
      job.publish({ id: i, event: "step", data: { jobId: "j1", progress: i, note: "" } });
    await new Promise((resolve) => setImmediate(resolve));
    for (const client of fast) {
      const text = client.text();
      expect(text.startsWith(": connected\n\n")).toBe(true);
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      expect(ids).toEqual(Array.from({ length: published + 5 }, (_, k) => k + 1));
      expect(text).toContain(`id: 3\nevent: step\ndata: {"jobId":"j1","progress":3,"note":"${note}"}\n\n`);
    }
    // A client that goes away stops its stream.
    fast[0]!.out.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(job.sinks.size).toBe(1);
  });

  it("ends the response when the stream ends, with an error event when it failed", async () => {
    const job = source();
    const client = response();
    directStreamOf(sseResponse(job.stream))!.start(client.out);
    const [sink] = [...job.sinks];
    sink!.write({ id: 1, event: "step", data: { jobId: "j2", progress: 1, note: "" } });
    sink!.end(new Error("the job's log could not be read"));
    await new Promise((resolve) => client.out.once("finish", resolve));
    expect(client.text()).toMatch(/id: 1\nevent: step\n[^\n]+\n\nevent: error\ndata: \{"error":"the job's log could not be read"\}\n\n$/);
  });

  it("is not offered for direct writing when the stream cannot push (it is read as a web stream)", async () => {
    async function* items() {
      yield { id: 1, event: "step", data: { ok: true } };
    }
    const answer = sseResponse(items());
    expect(directStreamOf(answer)).toBeUndefined();
    expect(await answer.text()).toBe(': connected\n\nid: 1\nevent: step\ndata: {"ok":true}\n\n');
  });
});
