// Responses that are not JSON envelopes: Server-Sent Events, file downloads and byte ranges.
import { Readable } from "node:stream";

export interface SseItem {
  id?: number | string;
  event: string;
  data: unknown;
}

const encoder = new TextEncoder();

/**
 * How one kind of SSE stream is put on the wire: REST's own events here, tRPC's for its subscriptions
 * (server/src/trpc). One format serves every stream of its kind.
 */
export interface SseWireFormat<T> {
  /** Written first, when the stream opens. */
  opening: Uint8Array;
  /** An item's bytes; `position` counts this stream's items from 1. */
  item(item: T, position: number): Uint8Array;
  /** Written last when the stream ends: finished (`error` undefined) or failed. Null writes nothing. */
  closing(error: Error | undefined): Uint8Array | null;
}

/**
 * Bytes made once for data that many streams share (one job's event reaches all its watchers as the
 * same object): `make` runs for the first stream, the others get the same bytes while `key` matches.
 */
export function sharedEncoding(): (data: unknown, key: string, make: () => string) => Uint8Array {
  const made = new WeakMap<object, { key: string; bytes: Uint8Array }>();
  return (data, key, make) => {
    const shared = typeof data === "object" && data !== null ? data : null;
    const known = shared ? made.get(shared) : undefined;
    if (known && known.key === key) return known.bytes;
    const bytes = encoder.encode(make());
    if (shared) made.set(shared, { key, bytes });
    return bytes;
  };
}

const restEncoding = sharedEncoding();

/**
 * A failure's `error` event: its message (`error`, as the JSON envelope says it, and `message`) and, for a
 * domain error, its code (`UNAUTHORIZED` when the credential that opened the stream ended).
 */
function errorEvent(error: Error): Uint8Array {
  const code = (error as { code?: unknown }).code;
  const coded = typeof code === "string" && typeof (error as { status?: unknown }).status === "number";
  const body = coded ? { code, message: error.message, error: error.message } : { error: error.message };
  return encoder.encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
}

/** REST's events: `id`, `event` and JSON `data`; a failure is an `error` event; comments for the rest. */
const REST_FORMAT: SseWireFormat<SseItem> = {
  opening: encoder.encode(": connected\n\n"),
  item: (item) =>
    restEncoding(item.data, `${item.id ?? ""}\n${item.event}`, () => {
      const id = item.id !== undefined ? `id: ${item.id}\n` : "";
      return `${id}event: ${item.event}\ndata: ${JSON.stringify(item.data)}\n\n`;
    }),
  closing: (error) => (error ? errorEvent(error) : null),
};

/**
 * A client this far behind (items written and not yet taken by its connection) is dropped rather than
 * buffered without end; it reconnects with Last-Event-ID and the event log fills the gap.
 */
const MAX_QUEUED_ITEMS = 1000;

/**
 * A client this many bytes behind on a directly written stream is dropped, like one {@link MAX_QUEUED_ITEMS}
 * behind on a web stream.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const HEARTBEAT = encoder.encode(": heartbeat\n\n");

/** A stream that can push its items (server/src/events/push-source.ts), recognised by a registered symbol. */
const PUSH = Symbol.for("adgen.push-source");
interface PushSource<T> {
  pipe(sink: { write(item: T): void; end(error?: Error): void }): () => void;
}

/** What an SSE response needs of Node's `ServerResponse` to be written to directly. */
export interface NodeResponseLike {
  write(chunk: Uint8Array): boolean;
  end(): void;
  destroy(): void;
  readonly writableLength: number;
  once(event: "close", listener: () => void): unknown;
}

/** An SSE response the host may write straight to the client's socket, instead of reading its body. */
export interface DirectStream {
  start(out: NodeResponseLike): void;
}
// Keyed by the body: frameworks copy a Response to change its headers (Hono does), keeping the body stream.
const directStreams = new WeakMap<ReadableStream, DirectStream>();

/**
 * How to write `response` straight to a Node response, when it is an SSE stream whose items are pushed.
 * The host writes the status and headers, then calls `start`; the body is then never read. Every
 * subscriber of a job gets the same bytes in the call that published the event: no promise, iterator
 * or web stream per subscriber.
 */
export const directStreamOf = (response: Response): DirectStream | undefined =>
  response.body ? directStreams.get(response.body) : undefined;

export interface SseOptions<T> {
  heartbeatMs?: number;
  signal?: AbortSignal;
  /** The wire format; REST's by default. */
  format?: SseWireFormat<T>;
}

function directStream<T>(push: PushSource<T>, format: SseWireFormat<T>, options: SseOptions<T>): DirectStream {
  return {
    start(out) {
      let stopped = false;
      let stop = () => {};
      const close = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(heartbeat);
        stop();
      };
      let position = 0;
      out.write(format.opening);
      const heartbeat = setInterval(() => out.write(HEARTBEAT), options.heartbeatMs ?? 15_000);
      out.once("close", close);
      options.signal?.addEventListener("abort", close, { once: true });
      stop = push.pipe({
        write(item) {
          if (stopped) return;
          // The socket takes what it can at once; a client that lets a megabyte pile up is not reading.
          if (out.writableLength > MAX_BUFFERED_BYTES) {
            close();
            // (Without an error: nobody listens for one on a stream given up on.)
            out.destroy();
            return;
          }
          position += 1;
          out.write(format.item(item, position));
        },
        end(error) {
          if (stopped) return;
          const closing = format.closing(error);
          if (closing) out.write(closing);
          close();
          out.end();
        },
      });
      if (stopped) stop();
    },
  };
}

/**
 * An SSE response from an async iterator. Comment heartbeats keep proxies from closing an idle
 * stream (CONTRACT: every 15 s); the iterator is closed when the client goes away. A stream that can
 * push is also offered to the host to write directly ({@link directStreamOf}); its body is read only
 * when the host does not.
 */
export function sseResponse<T = SseItem>(source: AsyncIterable<T>, options: SseOptions<T> = {}): Response {
  const format = options.format ?? (REST_FORMAT as unknown as SseWireFormat<T>);
  const iterator = source[Symbol.asyncIterator]();
  const close = () => void iterator.return?.(undefined);
  const items = { [Symbol.asyncIterator]: () => iterator };
  let heartbeat: NodeJS.Timeout | undefined;
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      // Started by the first read, so a stream the host writes directly never iterates too.
      pull(controller) {
        if (started) return;
        started = true;
        begin(controller);
      },
      cancel() {
        clearInterval(heartbeat);
        close();
      },
    },
    { highWaterMark: 0 },
  );
  function begin(controller: ReadableStreamDefaultController<Uint8Array>) {
    controller.enqueue(format.opening);
    heartbeat = setInterval(() => {
      try {
        controller.enqueue(HEARTBEAT);
      } catch {
        clearInterval(heartbeat);
      }
    }, options.heartbeatMs ?? 15_000);
    options.signal?.addEventListener("abort", close, { once: true });
    (async () => {
      let position = 0;
      let failure: Error | undefined;
      try {
        for await (const item of items) {
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_ITEMS) {
            controller.error(new Error("the client is not reading its event stream"));
            return;
          }
          position += 1;
          controller.enqueue(format.item(item, position));
        }
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      } finally {
        clearInterval(heartbeat);
        // The client may be gone already (enqueue then throws): never let that become an unhandled rejection.
        try {
          const closing = format.closing(failure);
          if (closing) controller.enqueue(closing);
          controller.close();
        } catch {
          // closed by the client
        }
      }
    })();
  }
  const response = new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
  const push = (source as { [PUSH]?: PushSource<T> })[PUSH];
  if (push) directStreams.set(stream, directStream(push, format, options));
  return response;
}

export function attachment(
  filename: string,
  body: string | ReadableStream<Uint8Array>,
  contentType: string,
  length?: number | null,
  disposition: "attachment" | "inline" = "attachment",
): Response {
  const headers: Record<string, string> = {
    "content-type": contentType,
    "content-disposition": `${disposition}; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
  };
  if (length) headers["content-length"] = String(length);
  return new Response(body, { headers });
}

/** A file with HTTP range support (video players seek with it). */
export function rangedFile(
  request: Request,
  file: { bytes: number; contentType: string; modifiedAt: Date; read(range?: { start: number; end: number }): NodeJS.ReadableStream },
): Response {
  const common = {
    "accept-ranges": "bytes",
    "content-type": file.contentType,
    "last-modified": file.modifiedAt.toUTCString(),
    "cache-control": "private, max-age=3600",
  };
  const header = request.headers.get("range");
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!header || !match || (!match[1] && !match[2])) {
    return new Response(toWeb(file.read()), { headers: { ...common, "content-length": String(file.bytes) } });
  }
  let start: number;
  let end: number;
  if (!match[1]) {
    const suffix = Number(match[2]);
    start = Math.max(0, file.bytes - suffix);
    end = file.bytes - 1;
  } else {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), file.bytes - 1) : file.bytes - 1;
  }
  if (start >= file.bytes || start > end) {
    return new Response(null, { status: 416, headers: { ...common, "content-range": `bytes */${file.bytes}` } });
  }
  return new Response(toWeb(file.read({ start, end })), {
    status: 206,
    headers: { ...common, "content-range": `bytes ${start}-${end}/${file.bytes}`, "content-length": String(end - start + 1) },
  });
}

function toWeb(stream: NodeJS.ReadableStream): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream as Readable) as ReadableStream<Uint8Array>;
}
