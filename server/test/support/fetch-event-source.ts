// An EventSource over fetch for tRPC's httpSubscriptionLink in Node 20 (which has no EventSource), able
// to send headers (the bearer credential) as the `eventsource` package does. It does not reconnect: a
// stream that ends closes it (tRPC's `return` event closes it first when the subscription completes).
import { parseSseBlock } from "./sse.ts";

export class FetchEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readyState = 0;
  readonly url: string;
  readonly withCredentials = false;
  private readonly abort = new AbortController();

  constructor(url: string | URL, init: { headers?: Record<string, string> } = {}) {
    super();
    this.url = String(url);
    void this.run(init.headers ?? {});
  }

  close(): void {
    this.readyState = this.CLOSED;
    this.abort.abort();
  }

  private async run(headers: Record<string, string>): Promise<void> {
    try {
      const response = await fetch(this.url, { headers: { accept: "text/event-stream", ...headers }, signal: this.abort.signal });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      this.readyState = this.OPEN;
      this.dispatchEvent(new Event("open"));
      const decoder = new TextDecoder();
      let buffer = "";
      let lastEventId = "";
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true });
        let end = buffer.search(/\r?\n\r?\n/);
        while (end >= 0 && this.readyState !== this.CLOSED) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          const message = parseSseBlock(block);
          if (message.id !== undefined) lastEventId = message.id;
          if (message.data !== null) this.dispatchEvent(new MessageEvent(message.event, { data: message.data, lastEventId }));
          end = buffer.search(/\r?\n\r?\n/);
        }
      }
    } catch {
      // Closed by the client, or the connection failed: reported below like a browser would.
    }
    if (this.readyState === this.CLOSED) return;
    this.readyState = this.CLOSED;
    this.dispatchEvent(new Event("error"));
  }
}
