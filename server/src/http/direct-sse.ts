// The SSE streams whose items are pushed (a job's events) are written by the REST adapter straight to
// Node's response instead of through a web stream read by @hono/node-server: see `directStreamOf`.
import type { ServerResponse } from "node:http";
import { directStreamOf } from "@adgen/rest-adapter";

/** Tells @hono/node-server that the answer has been written already. */
const ALREADY_SENT = new Response(null, { headers: { "x-hono-already-sent": "1" } });

/**
 * The answer to give @hono/node-server: `response` itself, or, for a stream that can be written directly,
 * a marker after its status and headers (the final ones, with every middleware's) are on the wire.
 */
export function writeDirectly(response: Response, outgoing: ServerResponse | undefined): Response {
  // Only the REST adapter's own event streams (native Responses) are looked at: reading `body` of another
  // framework's Response (GraphQL Yoga's ponyfill) changes how it is sent.
  if (!outgoing || !(response instanceof Response) || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return response;
  }
  const direct = directStreamOf(response);
  if (!direct) return response;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  outgoing.writeHead(response.status, headers);
  direct.start(outgoing);
  return ALREADY_SENT.clone();
}
