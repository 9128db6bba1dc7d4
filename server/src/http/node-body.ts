// A request body read straight from Node's stream. On @hono/node-server the first read of a body
// through the web Request builds that whole Request: a ReadableStream over the socket's stream, an
// AbortController and a copy of the headers. For a JSON body of a few hundred bytes that was about a
// fifteenth of a REST launch's CPU (issue 15). This reads the same bytes as Buffers.
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
