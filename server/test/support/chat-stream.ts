// Asking the assistant and reading its SSE answer as it arrives (not only at its end), so a test can
// wait for the first event while the rest of the answer is still being produced.
import { parseSseBlock } from "./sse.ts";
import type { Account } from "./accounts.ts";
import type { ChatEvent } from "./chat.ts";
import type { TestApp } from "./harness.ts";

export interface LiveChat {
  status: number;
  /** The events received so far, in order. */
  events: ChatEvent[];
  /** Resolves with the first event matching `test` (or rejects when the stream ends or `timeoutMs` passes). */
  waitFor(test: (event: ChatEvent) => boolean, timeoutMs?: number): Promise<ChatEvent>;
  /** Resolves with every event once the stream has ended. */
  finished: Promise<ChatEvent[]>;
}

export async function openChat(app: TestApp, account: Account, body: Record<string, unknown>): Promise<LiveChat> {
  const response = await fetch(`${app.url}/api/chat/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", cookie: `session=${account.jwt}` },
    body: JSON.stringify(body),
  });
  const events: ChatEvent[] = [];
  const wakers = new Set<() => void>();
  let ended = false;
  const wake = () => {
    for (const w of wakers) w();
  };
  const finished = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const { event, data } = parseSseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (data !== null) events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf("\n\n");
        }
        wake();
      }
    } finally {
      ended = true;
      wake();
    }
    return events;
  })();
  const waitFor = (test: (event: ChatEvent) => boolean, timeoutMs = 10_000) =>
    new Promise<ChatEvent>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)), timeoutMs);
      const check = () => {
        const found = events.find(test);
        if (found) done(null, found);
        else if (ended) done(new Error(`the stream ended without a matching event; got ${JSON.stringify(events)}`));
      };
      const done = (error: Error | null, event?: ChatEvent) => {
        clearTimeout(timer);
        wakers.delete(check);
        if (error) reject(error);
        else resolve(event!);
      };
      wakers.add(check);
      check();
    });
  return { status: response.status, events, waitFor, finished };
}
