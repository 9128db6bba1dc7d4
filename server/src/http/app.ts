// One HTTP server for everything: `/api` (REST adapter), `/trpc` (the SPA's API), `/graphql` (HTTP and
// WebSocket), and the SPA itself.
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { createRestApi, uploadBodyLimits } from "@adgen/rest-adapter";
import { TRPC_MAX_BATCH_CALLS } from "@adgen/schema";
import type { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Hono } from "hono";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Services } from "../request-context.ts";
import { createGraphQL } from "../graphql/yoga.ts";
import { AppError, type FieldError } from "../errors.ts";
import { chooseRequestId, logRequest, REQUEST_ID_HEADER, type RequestTrace, startTrace } from "../logging/request-trace.ts";
import { stampRequestId } from "../logging/stamp-request-id.ts";
import { operations } from "../operations/catalogue.ts";
import { invokeOperation } from "../operations/invoke.ts";
import type { AnyOperation } from "../operations/operation.ts";
import { appRouter } from "../trpc/router.ts";
import { answerSubscription } from "../trpc/subscription-stream.ts";
import { leanRequest } from "../trpc/lean-request.ts";
import { sessionCookie } from "../operations/session-cookie.ts";
import { writeDirectly } from "./direct-sse.ts";
import { crossOrigin, frontDoor, isAllowedOrigin } from "../front-door/front-door.ts";
import { openLiveStream } from "../modules/auth/live-streams.ts";
import { buildRequestContext, usedSessionCookie } from "../front-door/context-from-headers.ts";
import { finishReadingBody, readUntouchedBody } from "./node-body.ts";
import { createSecurityHeaders } from "./security-headers.ts";
import { createMcpEndpoint } from "../mcp/http-endpoint.ts";
import { serveSpa } from "./static-spa.ts";

type Bindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

/** The client's address as the socket saw it (no proxy headers are trusted). */
function clientIp(env: Bindings | undefined): string | null {
  return env?.incoming?.socket?.remoteAddress ?? null;
}

type App = Hono<{ Bindings: Bindings }>;

/** What the server keeps about each request between the front door and the transport that answers it. */
interface RequestRecords {
  /** The client's address, set before routing. */
  ipOf: WeakMap<Request, string | null>;
  /** Each request's id and what it ran (set before routing, read by the transports and the log line). */
  traceOf: WeakMap<Request, RequestTrace>;
  /** Node's stream behind each request the front door passed on as it came (its body not yet read). */
  incomingOf: WeakMap<Request, IncomingMessage>;
}

export function createHttpApp(services: Services) {
  const app: App = new Hono<{ Bindings: Bindings }>();
  const graphql = createGraphQL(services);
  const records: RequestRecords = { ipOf: new WeakMap(), traceOf: new WeakMap(), incomingOf: new WeakMap() };
  const { traceOf, incomingOf } = records;
  // Upload routes stream their bodies through the front door, under their own limit.
  const streamedBodyLimit = uploadBodyLimits(operations);
  const security = createSecurityHeaders(services.config);

  app.use("*", async (c, next) => {
    records.ipOf.set(c.req.raw, clientIp(c.env));
    await next();
  });
  app.route("/api", restApi(services, records));
  mountTrpc(app, services, records);
  mountGraphQL(app, services, graphql, security, records);
  // MCP (Streamable HTTP): the catalogue as tools for agents, bearer credentials only.
  const mcp = createMcpEndpoint(services);
  app.all("/mcp", (c) => mcp.handle(c.req.raw, records.ipOf.get(c.req.raw) ?? null, traceOf.get(c.req.raw)));
  app.get("*", (c) => serveSpa(new URL(c.req.url).pathname));

  /** The front door's origin and size rules, then the routes; then the browser's rules for the answer. */
  async function route(request: Request, env: Bindings, trace: RequestTrace): Promise<Response> {
    const door = await frontDoor(request, services.config, streamedBodyLimit);
    let response: Response;
    let corsHeaders: Record<string, string> = {};
    if ("response" in door) {
      response = await stampRequestId(door.response, trace.requestId);
    } else {
      traceOf.set(door.request, trace);
      // Only a request passed on unchanged reads its body from Node's stream: one the front door rebuilt
      // (a cross-origin page's, a chunked or streamed body) has already read or wrapped it.
      if (door.request === request && env.incoming) incomingOf.set(request, env.incoming);
      response = await app.fetch(door.request, env);
      corsHeaders = door.corsHeaders;
    }
    // Set in place here rather than with Hono's c.header() after the handler, which rebuilds the answer
    // around its body stream (every JSON answer was then read back through a web stream).
    const headers = { ...corsHeaders, ...security.headersFor(request, response, new URL(request.url).pathname) };
    // A body the handler left unread (a procedure without input, a refusal before reading) is read to its
    // end first, or the connection closes after this answer: never is the rest read as the next request.
    const bodyRead = env.incoming ? finishReadingBody(env.incoming, () => request.body, door.bodyLimit) : true;
    if (bodyRead !== true && !(await bodyRead)) headers.Connection = "close";
    return withHeaders(response, headers);
  }

  /** The server's entry: every answer carries the request's id, and every request is one log line. */
  async function fetch(request: Request, env: Bindings): Promise<Response> {
    const trace = startTrace(request.headers.get(REQUEST_ID_HEADER));
    const response = withHeaders(await route(request, env, trace), { [REQUEST_ID_HEADER]: trace.requestId });
    logRequest(services.logger, request, response.status, trace);
    return response;
  }

  return { app, fetch, graphql, mcp };
}

/** `/api`: the REST adapter over the catalogue, each call invoked with the request's context. */
function restApi(services: Services, { ipOf, traceOf, incomingOf }: RequestRecords) {
  return createRestApi({
    operations,
    invoke: async ({ operation, request, readInput, control }) => {
      const trace = traceOf.get(request);
      if (trace && "path" in operation.rest) trace.route = `/api${operation.rest.path}`;
      const ctx = await buildRequestContext(services, request.headers, ipOf.get(request) ?? null, trace);
      let cookieSet = false;
      try {
        const invoke = (streamSignal?: AbortSignal) =>
          invokeOperation({
            operation: operation as AnyOperation,
            ctx,
            readInput,
            call: {
              headers: request.headers,
              // Read on use: @hono/node-server makes a whole web Request (and its AbortController) the first
              // time anything asks for its signal, and only streams and slow calls need one.
              get signal() {
                return streamSignal ?? request.signal;
              },
              credentials: "cookie",
              setCookie: (cookie) => {
                cookieSet = true;
                control.setCookie(cookie);
              },
              setHeader: control.setHeader,
            },
            onRateLimit: control.rateLimited,
          });
        // A stream ends when the credential that opened it does (logout, password change, suspension).
        return await (operation.kind === "subscription" ? openLiveStream(ctx, request.signal, invoke) : invoke());
      } finally {
        // A session the sliding expiry renewed goes back as a cookie, unless the operation set its own.
        if (!cookieSet && ctx.auth?.renewedToken && ctx.auth.session && usedSessionCookie(request.headers)) {
          control.setCookie(sessionCookie(ctx.auth.renewedToken, ctx.auth.session.expiresAt));
        }
      }
    },
    describeError: (error, request) => {
      if (error instanceof AppError) {
        const fields = error.details?.fields as FieldError[] | undefined;
        return { status: error.status, message: error.message, ...(fields ? { fields } : {}) };
      }
      services.logger.error({ err: error, requestId: traceOf.get(request)?.requestId }, "operation failed");
      return { status: 500, message: "Internal server error" };
    },
    requestId: (request) => traceOf.get(request)?.requestId,
    readBody: (request) => {
      const incoming = incomingOf.get(request);
      return incoming ? readUntouchedBody(incoming) : null;
    },
  });
}

/** `/trpc`: the SPA's API (subscriptions written by this transport, batches bounded). */
function mountTrpc(app: App, services: Services, { traceOf, incomingOf }: RequestRecords): void {
  app.all("/trpc/*", async (c) => {
    const request = c.req.raw;
    const trace = traceOf.get(request);
    // Domain errors are answers; anything else is a fault, logged once here with the request's id.
    const onInternalError = (error: TRPCError) =>
      services.logger.error({ err: error.cause ?? error, requestId: trace?.requestId }, "operation failed");
    const createContext = async (resHeaders: Headers) => {
      const ctx = await buildRequestContext(services, request.headers, clientIp(c.env), trace);
      if (ctx.auth?.renewedToken && ctx.auth.session && usedSessionCookie(request.headers)) {
        resHeaders.append("set-cookie", sessionCookie(ctx.auth.renewedToken, ctx.auth.session.expiresAt));
      }
      return { ...ctx, reqHeaders: request.headers, resHeaders };
    };
    // Subscriptions are written by this transport, each event serialised once for all its subscribers.
    const subscription = await answerSubscription({ request, createContext, onInternalError });
    if (subscription) return subscription;
    const oversized = oversizedBatch(new URL(request.url));
    if (oversized) return oversized;
    const readBody = () => {
      const incoming = incomingOf.get(request);
      return incoming ? readUntouchedBody(incoming) : null;
    };
    return fetchRequestHandler({
      endpoint: "/trpc",
      req: leanRequest(request, { outgoing: c.env?.outgoing, readBody }),
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH_CALLS,
      onError: ({ error }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") onInternalError(error);
      },
      createContext: ({ resHeaders }) => createContext(resHeaders),
    });
  });
}

/** `/graphql` over HTTP (its WebSocket side is attached to the server by `listen`). */
function mountGraphQL(
  app: App,
  services: Services,
  graphql: ReturnType<typeof createGraphQL>,
  security: ReturnType<typeof createSecurityHeaders>,
  { traceOf, incomingOf }: RequestRecords,
): void {
  app.on(["GET", "POST", "OPTIONS"], "/graphql", async (c) => {
    const request = c.req.raw;
    const requestContext = await buildRequestContext(services, request.headers, clientIp(c.env), traceOf.get(request));
    // A JSON body is read from Node's stream when the front door passed the request on untouched.
    const readBody = () => {
      const incoming = incomingOf.get(request);
      return incoming ? readUntouchedBody(incoming) : null;
    };
    // handleRequest rather than fetch: fetch reads the request's `signal`, which on @hono/node-server builds
    // the whole web Request (and an AbortController) for every call; a client that hangs up is the node
    // server's to notice, as for REST and tRPC.
    const response = await graphql.yoga.handleRequest(request, { requestContext, readBody });
    // Only GraphiQL answers HTML here (development only).
    return response.headers.get("content-type")?.startsWith("text/html") ? security.graphiqlPage(response) : response;
  });
}

/**
 * The response with the extra headers: set in place (a rebuilt Response loses its headers when a test's
 * msw has replaced the global Headers), or on a copy when its headers are immutable.
 */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** A tRPC batch of more calls than the SPA's client ever sends is refused before any of them runs. */
function oversizedBatch(url: URL): Response | null {
  if (url.searchParams.get("batch") !== "1") return null;
  const calls = url.pathname.slice("/trpc/".length).split(",").length;
  if (calls <= TRPC_MAX_BATCH_CALLS) return null;
  const message = `A batch may hold at most ${TRPC_MAX_BATCH_CALLS} calls; this one holds ${calls}.`;
  return Response.json({ error: { message, code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } } }, { status: 400 });
}

/** How long an idle keep-alive connection stays open, announced as `Keep-Alive: timeout=65`. */
export const KEEP_ALIVE_IDLE_MS = 65_000;

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(services: Services, port: number, host: string): Promise<RunningServer> {
  const { fetch, graphql, mcp } = createHttpApp(services);
  const server = createAdaptorServer({
    // An SSE stream of pushed items is written straight to the socket (direct-sse.ts).
    // (This server is HTTP/1.1: its bindings are always Node's request and response.)
    fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
      const node = env as HttpBindings | undefined;
      return writeDirectly(await fetch(request, node ?? {}), node?.outgoing);
    },
  }) as Server;
  // An idle keep-alive connection stays open longer than a proxy's (a load balancer's idle limit is
  // typically 60 s): when the server closes first, a request the proxy or a client sends on that
  // connection in the same instant is cut off (ECONNRESET, a 502 at the proxy). Node's 5 s invites that.
  server.keepAliveTimeout = KEEP_ALIVE_IDLE_MS;
  server.headersTimeout = KEEP_ALIVE_IDLE_MS + 1_000;
  // Node answers oversized headers itself, with no body: answer in the API's envelope instead.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, text, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "Request headers are too large"]
        : [400, "Bad Request", "Malformed HTTP request"];
    const body = JSON.stringify({ success: false, error: message });
    // Nothing of the request could be read: a fresh id, for the header and the log line.
    const requestId = chooseRequestId(null);
    services.logger.warn({ requestId, status, error: message }, "request refused before it could be read");
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const ws = graphql.attachWebSocket(server, (headers) => {
    const origin = crossOrigin(headers, services.config);
    return { allowed: origin === null || isAllowedOrigin(origin, services.config), sameOrigin: origin === null };
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    async close() {
      await ws.close();
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
