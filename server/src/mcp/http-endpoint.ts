// MCP over Streamable HTTP at `/mcp`, on the service's own port: the SDK's web-standard transport, one MCP
// session per client (its `Mcp-Session-Id`), each bound to the account that opened it. Every request is
// authenticated by its own bearer credential (an API key or a session JWT, never the browser's cookie), so a
// key revoked mid-session is refused at once, and another account's session id is a 404 like an unknown one.
import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "../errors.ts";
import { buildRequestContext } from "../front-door/context-from-headers.ts";
import type { RequestTrace } from "../logging/request-trace.ts";
import { requireUser } from "../modules/auth/authenticate.ts";
import type { RequestContext, Services } from "../request-context.ts";
import { type CallerOf, createMcpServer } from "./mcp-server.ts";

/** A session not used for this long is closed (a client that comes back opens a new one). */
const IDLE_MS = 30 * 60_000;
/** Sessions one account may hold open; opening one more closes its least recently used. */
const SESSIONS_PER_ACCOUNT = 20;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  userId: string;
  lastUsed: number;
}

/** The request's headers an operation may see: its bearer and user agent, never a cookie. */
export function bearerHeaders(headers: Headers): Headers {
  const kept = new Headers();
  for (const name of ["authorization", "user-agent", "accept"]) {
    const value = headers.get(name);
    if (value) kept.set(name, value);
  }
  return kept;
}

const jsonRpcError = (status: number, message: string, extra: Record<string, string> = {}) =>
  Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers: extra });

/** Reads who is asking from what the endpoint attached to the MCP request (see `authInfoOf`). */
export const callerFromAuthInfo: CallerOf = async (extra) => {
  const ctx = extra.authInfo?.extra?.ctx as RequestContext | undefined;
  const headers = extra.authInfo?.extra?.headers as Headers | undefined;
  if (!ctx || !headers) throw new AppError("UNAUTHORIZED", "Authentication required");
  return {
    ctx,
    call: { headers, signal: extra.signal, credentials: "body", setCookie: () => {}, setHeader: () => {} },
  };
};

function authInfoOf(ctx: RequestContext, headers: Headers): AuthInfo {
  const auth = ctx.auth!;
  return {
    token: "bearer",
    clientId: auth.user.id,
    scopes: [auth.apiKey?.scope ?? "full", ...(auth.user.role === "admin" ? ["admin"] : [])],
    extra: { ctx, headers },
  };
}

export function createMcpEndpoint(services: Services) {
  const sessions = new Map<string, Session>();

  function sweep(now: number): void {
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > IDLE_MS) {
        sessions.delete(id);
        void session.transport.close();
      }
    }
  }

  function makeRoom(userId: string): void {
    const own = [...sessions.entries()].filter(([, s]) => s.userId === userId).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id, session] of own.slice(0, Math.max(0, own.length - SESSIONS_PER_ACCOUNT + 1))) {
      sessions.delete(id);
      void session.transport.close();
    }
  }

  async function handle(request: Request, ip: string | null, trace?: RequestTrace): Promise<Response> {
    if (trace) trace.route = "/mcp";
    const headers = bearerHeaders(request.headers);
    const ctx = await buildRequestContext(services, headers, ip, trace);
    if (!ctx.auth) {
      return jsonRpcError(401, "Authentication required: send Authorization: Bearer with an API key (ca_…) or a session JWT", {
        "WWW-Authenticate": 'Bearer realm="adgen"',
      });
    }
    try {
      requireUser(ctx);
    } catch (error) {
      if (error instanceof AppError) return jsonRpcError(error.status, error.message);
      throw error;
    }
    const now = Date.now();
    sweep(now);
    const authInfo = authInfoOf(ctx, headers);
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = sessions.get(sessionId);
      // Another account's session is as unknown as a closed one.
      if (!session || session.userId !== ctx.auth.user.id) return jsonRpcError(404, "Session not found: initialize a new one");
      session.lastUsed = now;
      return session.transport.handleRequest(request, { authInfo });
    }
    if (request.method !== "POST") return jsonRpcError(400, "Start a session with a POST of initialize (no Mcp-Session-Id yet)");
    const userId = ctx.auth.user.id;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        makeRoom(userId);
        sessions.set(id, { transport, userId, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = createMcpServer(callerFromAuthInfo);
    await server.connect(transport);
    return transport.handleRequest(request, { authInfo });
  }

  async function close(): Promise<void> {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((session) => session.transport.close()));
  }

  return { handle, close, sessionCount: () => sessions.size };
}
