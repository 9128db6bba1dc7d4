// What every request meets before any transport: where it comes from, and how big it is.
// - Origins: a page on another origin never gets to use the session cookie (a cross-origin request is
//   handled as if it carried none), and only origins in CORS_ORIGINS get CORS answers, without
//   credentials, so their scripts can call the API with a bearer token. Same-origin pages and clients
//   without an Origin header (servers, curl) are unaffected.
// - Sizes: a body is counted while it streams and refused with 413 as soon as it passes the limit of
//   its path (or at once, from Content-Length), so one request can neither hold the event loop in a
//   parser nor fill memory. Upload routes (multipart files) are streamed through instead, counted
//   against their own larger limit, for the REST adapter to write to disk as they arrive.
import type { Config } from "../config/env.ts";

const KB = 1024;
/** Body limits by path prefix: REST's JSON, the SPA's tRPC calls, and GraphQL documents with variables. */
const BODY_LIMITS: [prefix: string, bytes: number][] = [
  ["/api/", 1_000_000],
  ["/trpc/", 1_000_000],
  ["/graphql", 256 * KB],
];
const OTHER_LIMIT = 64 * KB;

const ALLOWED_HEADERS = "authorization, content-type, idempotency-key, last-event-id, trpc-accept, x-trpc-source";

export function bodyLimitFor(pathname: string): number {
  return BODY_LIMITS.find(([prefix]) => pathname === prefix.replace(/\/$/, "") || pathname.startsWith(prefix))?.[1] ?? OTHER_LIMIT;
}

const describe = (bytes: number) => (bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${Math.round(bytes / KB)} KB`);

/** A 413 in the shape the path's transport speaks. */
function tooLarge(pathname: string, limit: number): Response {
  const message = `Request body is larger than ${describe(limit)}`;
  if (pathname.startsWith("/trpc/")) {
    return Response.json({ error: { message, code: -32600, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } }, { status: 413 });
  }
  if (pathname === "/graphql") return Response.json({ errors: [{ message, extensions: { code: "PAYLOAD_TOO_LARGE" } }] }, { status: 413 });
  return Response.json({ success: false, error: message }, { status: 413 });
}

/** The page's origin when the request is cross-origin, else null (same origin, or no Origin header). */
export function crossOrigin(headers: Headers, config: Pick<Config, "publicUrl">): string | null {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return origin === "null" ? "null" : null;
  const normalized = origin.toLowerCase();
  if (normalized === new URL(config.publicUrl).origin) return null;
  const host = headers.get("host")?.toLowerCase();
  if (host && (normalized === `http://${host}` || normalized === `https://${host}`)) return null;
  return normalized;
}

export const isAllowedOrigin = (origin: string, config: Pick<Config, "corsOrigins">) => config.corsOrigins.includes(origin);

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A body passed through while it is counted: it errors (status 413) as soon as it passes `limit`. */
function countedBody(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) {
          controller.error(Object.assign(new Error(`Request body is larger than ${describe(limit)}`), { status: 413 }));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** Routes whose body streams through: `(method, pathname)` → its limit in bytes, or null (buffered as usual). */
export type StreamedBodyLimit = (method: string, pathname: string) => number | null;

/**
 * Applies the origin and size rules. Answers a Response when the request ends here (a refused preflight,
 * an allowed preflight, a body too large); otherwise the request to serve, and the CORS headers to add.
 * Either way, the body limit of its path: how much of a body nobody read the host may still drain.
 */
export async function frontDoor(
  request: Request,
  config: Pick<Config, "publicUrl" | "corsOrigins">,
  streamedBodyLimit: StreamedBodyLimit = () => null,
): Promise<({ response: Response } | { request: Request; corsHeaders: Record<string, string> }) & { bodyLimit: number }> {
  const url = new URL(request.url);
  const streamed = streamedBodyLimit(request.method, url.pathname);
  const bodyLimit = streamed ?? bodyLimitFor(url.pathname);
  return { ...(await admit(request, url, config, streamed, bodyLimit)), bodyLimit };
}

async function admit(
  request: Request,
  url: URL,
  config: Pick<Config, "publicUrl" | "corsOrigins">,
  streamed: number | null,
  limit: number,
): Promise<{ response: Response } | { request: Request; corsHeaders: Record<string, string> }> {
  const origin = crossOrigin(request.headers, config);
  const allowed = origin !== null && isAllowedOrigin(origin, config);
  const corsHeaders: Record<string, string> = allowed ? { "access-control-allow-origin": origin, vary: "Origin" } : {};

  if (request.method === "OPTIONS" && origin !== null && request.headers.has("access-control-request-method")) {
    if (!allowed) {
      return { response: Response.json({ success: false, error: `Origin ${origin} may not call this API` }, { status: 403 }) };
    }
    return {
      response: new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": "600",
        },
      }),
    };
  }

  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return { response: tooLarge(url.pathname, limit) };

  // A body whose length is declared (and within the limit) cannot grow past it: Node's parser reads
  // exactly that many bytes. Such a request, or one without a body, passes through as it came when it
  // carries nothing to strip, which spares building a second Request for every POST.
  const bodiless = request.method === "GET" || request.method === "HEAD" || declared === 0;
  const declaredWithin = Number.isFinite(declared) && !request.headers.has("transfer-encoding");
  if (origin === null && streamed === null && (bodiless || declaredWithin)) return { request, corsHeaders };

  const headers = new Headers(request.headers);
  // Cookies never act for another origin's page, allowed or not.
  if (origin !== null) headers.delete("cookie");
  let body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null = null;
  if (request.body && request.method !== "GET" && request.method !== "HEAD") {
    if (streamed !== null) {
      body = countedBody(request.body, limit);
    } else {
      body = await readLimited(request.body, limit);
      if (body === null) return { response: tooLarge(url.pathname, limit) };
    }
  }
  if (origin === null && !request.body) return { request, corsHeaders };
  // `duplex: "half"` is how a streamed request body is passed on (Node's fetch requires it).
  const init = { method: request.method, headers, body, signal: request.signal, duplex: "half" } as RequestInit;
  return { request: new Request(request.url, init), corsHeaders };
}
