// Responses that are not JSON envelopes: Server-Sent Events, file downloads and byte ranges.
import { Readable } from "node:stream";

export interface SseItem {
  id?: number | string;
  event: string;
  data: unknown;
}

const encoder = new TextEncoder();
/** The bytes of an item whose data object many streams share (one job's event to all its watchers): made once. */
const encodedOnce = new WeakMap<object, { key: string; bytes: Uint8Array }>();

function encodeItem(item: SseItem): Uint8Array {
  const key = `${item.id ?? ""}\n${item.event}`;
  const shared = typeof item.data === "object" && item.data !== null ? item.data : null;
  const known = shared ? encodedOnce.get(shared) : undefined;
  if (known && known.key === key) return known.bytes;
  const id = item.id !== undefined ? `id: ${item.id}\n` : "";
  const bytes = encoder.encode(`${id}event: ${item.event}\ndata: ${JSON.stringify(item.data)}\n\n`);
  if (shared) encodedOnce.set(shared, { key, bytes });
  return bytes;
}

/**
 * A client this far behind (items written and not yet taken by its connection) is dropped rather than
 * buffered without end; it reconnects with Last-Event-ID and the event log fills the gap.
 */
const MAX_QUEUED_ITEMS = 1000;

/**
 * An SSE response from an async iterator. Comment heartbeats keep proxies from closing an idle
 * stream (CONTRACT: every 15 s); the iterator is closed when the client goes away.
 */
export function sseResponse(source: AsyncIterable<SseItem>, options: { heartbeatMs?: number; signal?: AbortSignal } = {}): Response {
  const iterator = source[Symbol.asyncIterator]();
  const close = () => void iterator.return?.(undefined);
  const items = { [Symbol.asyncIterator]: () => iterator };
  let heartbeat: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(": connected\n\n"));
      heartbeat = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(": heartbeat\n\n"));
        } catch {
          clearInterval(heartbeat);
        }
      }, options.heartbeatMs ?? 15_000);
      options.signal?.addEventListener("abort", close, { once: true });
      (async () => {
        try {
          for await (const item of items) {
            if ((controller.desiredSize ?? 0) < -MAX_QUEUED_ITEMS) {
              controller.error(new Error("the client is not reading its event stream"));
              return;
            }
            controller.enqueue(encodeItem(item));
          }
        } catch (error) {
          // The client may be gone already (enqueue then throws): never let that become an unhandled rejection.
          try {
            controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ error: (error as Error).message })}\n\n`));
          } catch {
            // closed by the client
          }
        } finally {
          clearInterval(heartbeat);
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        }
      })();
    },
    cancel() {
      clearInterval(heartbeat);
      close();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
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
