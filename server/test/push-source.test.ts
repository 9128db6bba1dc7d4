// A job's stream read by iterating (GraphQL, tRPC): a reader that keeps up gets every event in order; one
// that stops reading is ended after MAX_BEHIND waiting events (still reading those first), with a reason
// that says how to resume, and its subscription is released, so it neither holds memory without end nor
// slows anyone else.
import { describe, expect, it } from "vitest";
import { InProcessEventBus, iterateEvents } from "../src/bus/bus.ts";
import { FellBehindError, MAX_BEHIND, type PushSink, pushableStream } from "../src/streams/push-source.ts";

function source() {
  const sinks = new Set<PushSink<number>>();
  return {
    sinks,
    pipe(sink: PushSink<number>) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    publish(item: number) {
      for (const sink of sinks) sink.write(item);
    },
  };
}

describe("a stream read by iterating", () => {
  it("gives a reader that keeps up every event in order, past the bound", async () => {
    const events = source();
    const stream = pushableStream<number>(events);
    const first = stream.next(); // starts the subscription
    const seen: number[] = [];
    events.publish(0);
    seen.push((await first).value as number);
    for (let i = 1; i < 3 * MAX_BEHIND; i++) {
      events.publish(i);
      const next = await stream.next();
      seen.push(next.value as number);
    }
    expect(seen).toEqual(Array.from({ length: 3 * MAX_BEHIND }, (_, i) => i));
    await stream.return(undefined);
    expect(events.sinks.size).toBe(0);
  });

  it("ends a reader that fell more than MAX_BEHIND events behind, after what was queued, and releases it", async () => {
    const events = source();
    const stream = pushableStream<number>(events);
    const first = stream.next();
    events.publish(0);
    expect((await first).value).toBe(0);
    // The reader stops reading while 1,500 more events are published.
    for (let i = 1; i <= MAX_BEHIND + 500; i++) events.publish(i);
    await Promise.resolve();
    expect(events.sinks.size).toBe(0);
    const read: number[] = [];
    let failure: unknown = null;
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done) break;
        read.push(next.value);
      }
    } catch (error) {
      failure = error;
    }
    expect(read).toEqual(Array.from({ length: MAX_BEHIND }, (_, i) => i + 1));
    expect(failure).toBeInstanceOf(FellBehindError);
    expect((failure as Error).message).toMatch(/subscribe again with the last event id to resume/);
  });
});

describe("an account's events read by iterating", () => {
  it("ends a reader that fell more than MAX_BEHIND events behind, after what was queued, and unsubscribes it", async () => {
    const bus = new InProcessEventBus();
    const stream = iterateEvents(bus, (event) => (event.userId === "u-1" ? (event.data as number) : undefined));
    const first = stream.next();
    bus.publish({ kind: "account.balance", userId: "u-1", data: 0 });
    expect((await first).value).toBe(0);
    for (let i = 1; i <= MAX_BEHIND + 10; i++) {
      bus.publish({ kind: "account.balance", userId: "u-1", data: i });
      bus.publish({ kind: "account.balance", userId: "u-2", data: -i });
    }
    const read: number[] = [];
    await expect(
      (async () => {
        for await (const value of { [Symbol.asyncIterator]: () => stream }) read.push(value);
      })(),
    ).rejects.toBeInstanceOf(FellBehindError);
    expect(read).toEqual(Array.from({ length: MAX_BEHIND }, (_, i) => i + 1));
    expect(bus.listenerCount()).toBe(0);
    await bus.close();
  });
});
