// A request body read straight from Node's stream. On @hono/node-server the first read of a body
// through the web Request builds that whole Request: a ReadableStream over the socket's stream, an
// AbortController and a copy of the headers. For a JSON body of a few hundred bytes that was about a
// fifteenth of a REST launch's CPU. This reads the same bytes as Buffers.
import type { IncomingMessage } from "node:http";
import { finished } from "node:stream";

/**
 * The body's bytes, or null when the stream is no longer untouched (something has begun reading it,
 * such as a web Request built around it): those bytes are the Request's to read. Rejects when the body
 * ends before its declared length (the client hung up).
 */
export function readUntouchedBody(incoming: IncomingMessage): Promise<Uint8Array> | null {
  if (incoming.readableFlowing !== null || incoming.readableDidRead) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    incoming.on("data", onData);
    // Also settles a stream that was already cut off before this was called.
    finished(incoming, { writable: false }, (error) => {
      incoming.off("data", onData);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });
}

/**
 * Reads to its end, and drops, whatever is left of a request's body once its answer is ready, so the
 * next request on the connection starts where this one ends (a body left in the socket was read as the
 * next request, or the connection was cut under it). `webBody` is the web Request's body, for
 * when something began reading it through that (it then holds Node's stream). Answers false when the
 * connection must close instead: the body is longer than `limit`, a reader holds it, the client hung
 * up, or the rest does not arrive within `timeoutMs`.
 */
export function finishReadingBody(
  incoming: IncomingMessage,
  webBody: () => ReadableStream<Uint8Array> | null,
  limit: number,
  timeoutMs = 10_000,
): boolean | Promise<boolean> {
  // `complete`: the parser has read the whole message off the socket (at once for a GET).
  if (incoming.complete) return true;
  if (incoming.destroyed || Number(incoming.headers["content-length"] ?? 0) > limit) return false;
  if (incoming.readableFlowing === null && !incoming.readableDidRead) return drainNodeStream(incoming, limit, timeoutMs);
  const body = webBody();
  return body && !body.locked ? drainWebStream(body, limit, timeoutMs) : false;
}

function drainNodeStream(incoming: IncomingMessage, limit: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let read = 0;
    const settle = (drained: boolean) => {
      clearTimeout(timer);
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onFail);
      incoming.off("close", onFail);
      if (!drained) incoming.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.byteLength;
      if (read > limit) settle(false);
    };
    const onEnd = () => settle(true);
    const onFail = () => settle(incoming.complete);
    const timer = setTimeout(() => settle(false), timeoutMs);
    incoming.on("data", onData);
    incoming.once("end", onEnd);
    incoming.once("error", onFail);
    incoming.once("close", onFail);
    incoming.resume();
  });
}

async function drainWebStream(body: ReadableStream<Uint8Array>, limit: number, timeoutMs: number): Promise<boolean> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    for (let read = 0; read <= limit; ) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === "timeout") return false;
      if (next.done) return true;
      read += next.value.byteLength;
    }
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    // Not cancelled: that would destroy the socket before the answer is written. (A read still pending
    // after a timeout is rejected by the release.)
    reader.releaseLock();
  }
}
