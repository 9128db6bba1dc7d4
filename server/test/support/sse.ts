// A minimal Server-Sent Events reader over fetch (Node 20 has no EventSource).

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** One event's block (the lines between blank lines): its fields; `data` is null when it carries none. */
export function parseSseBlock(block: string): { event: string; data: string | null; id?: string } {
  let event = "message";
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return { event, data: data.length ? data.join("\n") : null, ...(id !== undefined ? { id } : {}) };
}

export interface SseStream {
  response: Response;
  /** The next message with a `data` field, or a rejection after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  const queue: SseMessage[] = [];
  const waiters: (() => void)[] = [];
  let ended: Error | null = null;

  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end = buffer.search(/\r?\n\r?\n/);
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
            const { data, ...fields } = parseSseBlock(block);
            if (data !== null) queue.push({ ...fields, data });
            end = buffer.search(/\r?\n\r?\n/);
          }
          for (const wake of waiters.splice(0)) wake();
        }
        ended = new Error("the stream ended");
      } catch (error) {
        ended = error as Error;
      }
      for (const wake of waiters.splice(0)) wake();
    })();
  }

  return {
    response,
    async next(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const message = queue.shift();
        if (message) return message;
        if (ended) throw ended;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no SSE message within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close() {
      controller.abort();
    },
  };
}
