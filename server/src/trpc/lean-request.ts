// The request as tRPC's fetch adapter is handed it, without building a whole web Request per call. The
// adapter reads `req.signal` on every call (and `req.json()` for a POST), and on @hono/node-server the
// first read of either builds the web Request around Node's socket stream: a copy of the headers, a
// ReadableStream and an AbortController, about a twelfth of a small query's CPU. Here the signal aborts
// when the client hangs up before its answer is written, and a JSON body untouched by anything else is
// read from Node's stream (http/node-body.ts); everything else is the request's own.
import type { ServerResponse } from "node:http";

export interface LeanRequestSource {
  /** Node's answer to the request, when the server runs on Node. */
  outgoing?: ServerResponse;
  /** The body's bytes from Node's stream, or null when something else has begun reading it. */
  readBody?: () => Promise<Uint8Array> | null;
}

/** A signal that aborts when the connection closes before the answer went out. */
function hangUpSignal(outgoing: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // Closed once written, or once the connection is gone.
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) controller.abort(new Error("Client connection prematurely closed."));
  });
  return controller.signal;
}

export function leanRequest(request: Request, source: LeanRequestSource): Request {
  const { outgoing, readBody } = source;
  if (!outgoing) return request;
  let signal: AbortSignal | null = null;
  return new Proxy(request, {
    get(target, key) {
      if (key === "signal") {
        signal ??= hangUpSignal(outgoing);
        return signal;
      }
      if (key === "json") {
        const bytes = readBody?.();
        if (bytes) return async () => JSON.parse(Buffer.from(await bytes).toString("utf8"));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
