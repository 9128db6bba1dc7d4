// One HTTP server for everything: `/api` (REST adapter), `/trpc` (the SPA's API), `/graphql` (HTTP and
// WebSocket), and the SPA itself.
import { createAdaptorServer } from "@hono/node-server";
import { createRestApi } from "@adgen/rest-adapter";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Hono } from "hono";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Services } from "../context.ts";
import { createGraphQL } from "../graphql/yoga.ts";
import { AppError } from "../errors.ts";
import { operations } from "../operations/catalogue.ts";
import { invokeOperation } from "../operations/invoke.ts";
import type { AnyOperation } from "../operations/operation.ts";
import { appRouter } from "../trpc/router.ts";
import { sessionCookie } from "./cookies.ts";
import { crossOrigin, frontDoor, isAllowedOrigin } from "./front-door.ts";
import { buildRequestContext, usedSessionCookie } from "./request-context.ts";
import { serveSpa } from "./static-spa.ts";

type Bindings = { incoming?: { socket?: { remoteAddress?: string } } };

/** The client's address as the socket saw it (no proxy headers are trusted). */
function clientIp(env: Bindings | undefined): string | null {
  return env?.incoming?.socket?.remoteAddress ?? null;
}

export function createHttpApp(services: Services) {
  const app = new Hono<{ Bindings: Bindings }>();
  const graphql = createGraphQL(services);
  const ipOf = new WeakMap<Request, string | null>();

  app.use("*", async (c, next) => {
    ipOf.set(c.req.raw, clientIp(c.env));
    await next();
    c.header("X-Content-Type-Options", "nosniff");
  });

  const rest = createRestApi({
    operations,
    serverUrl: services.config.publicUrl,
    invoke: async ({ operation, request, readInput, control }) => {
      const ctx = await buildRequestContext(services, request.headers, ipOf.get(request) ?? null);
      let cookieSet = false;
      try {
        return await invokeOperation({
          operation: operation as AnyOperation,
          ctx,
          readInput,
          call: {
            headers: request.headers,
            signal: request.signal,
            credentials: "cookie",
            setCookie: (cookie) => {
              cookieSet = true;
              control.setCookie(cookie);
            },
            setHeader: control.setHeader,
          },
          onRateLimit: control.rateLimited,
        });
      } finally {
        // A session the sliding expiry renewed goes back as a cookie, unless the operation set its own.
        if (!cookieSet && ctx.auth?.renewedToken && ctx.auth.session && usedSessionCookie(request.headers)) {
          control.setCookie(sessionCookie(ctx.auth.renewedToken, ctx.auth.session.expiresAt));
        }
      }
    },
    describeError: (error) => {
      if (error instanceof AppError) return { status: error.status, message: error.message };
      console.error("[rest]", error);
      return { status: 500, message: "Internal server error" };
    },
  });
  app.route("/api", rest);

  app.all("/trpc/*", async (c) => {
    const request = c.req.raw;
    return fetchRequestHandler({
      endpoint: "/trpc",
      req: request,
      router: appRouter,
      createContext: async ({ resHeaders }) => {
        const ctx = await buildRequestContext(services, request.headers, clientIp(c.env));
        if (ctx.auth?.renewedToken && ctx.auth.session && usedSessionCookie(request.headers)) {
          resHeaders.append("set-cookie", sessionCookie(ctx.auth.renewedToken, ctx.auth.session.expiresAt));
        }
        return { ...ctx, reqHeaders: request.headers, resHeaders };
      },
    });
  });

  app.on(["GET", "POST", "OPTIONS"], "/graphql", async (c) => {
    const requestContext = await buildRequestContext(services, c.req.raw.headers, clientIp(c.env));
    return graphql.yoga.fetch(c.req.raw, { requestContext });
  });

  app.get("*", (c) => serveSpa(new URL(c.req.url).pathname));

  /** The server's entry: the front door's origin and size rules, then the routes. */
  async function fetch(request: Request, env: Bindings): Promise<Response> {
    const door = await frontDoor(request, services.config);
    if ("response" in door) return door.response;
    const response = await app.fetch(door.request, env);
    if (Object.keys(door.corsHeaders).length === 0) return response;
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(door.corsHeaders)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  return { app, fetch, graphql };
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(services: Services, port: number, host: string): Promise<RunningServer> {
  const { fetch, graphql } = createHttpApp(services);
  const server = createAdaptorServer({ fetch }) as Server;
  // Node answers oversized headers itself, with no body: answer in the API's envelope instead.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, text, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "Request headers are too large"]
        : [400, "Bad Request", "Malformed HTTP request"];
    const body = JSON.stringify({ success: false, error: message });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
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
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
