// The REST adapter: every documented `/api` path onto the domain, with the envelope, one error-to-status
// table, per-endpoint rate limits and their headers, 404/405 for unknown paths and methods, and the
// OpenAPI document generated from the same route table.
import type { RequestContext, Services } from "@adgen/server/context.ts";
import { AppError } from "@adgen/server/errors.ts";
import { sessionCookie } from "@adgen/server/http/cookies.ts";
import { enforceRateLimit } from "@adgen/server/rate-limit/enforce.ts";
import type { RateLimitResult } from "@adgen/server/rate-limit/limiter.ts";
import { Hono } from "hono";
import { docsAsset, docsPage } from "./docs.ts";
import { errorResponse, failure, success } from "./envelope.ts";
import { buildOpenApi } from "./openapi.ts";
import type { HttpMethod, RestRoute } from "./route.ts";
import { adminRoutes } from "./routes/admin.ts";
import { authRoutes } from "./routes/auth.ts";
import { projectRoutes } from "./routes/projects.ts";
import { publicRoutes } from "./routes/public.ts";
import { workflowRoutes } from "./routes/workflow.ts";

export type { RestRoute } from "./route.ts";
export { buildOpenApi } from "./openapi.ts";

export const restRoutes: readonly RestRoute[] = [...authRoutes, ...publicRoutes, ...workflowRoutes, ...projectRoutes, ...adminRoutes];

const MAX_JSON_BODY = 1_000_000;

export interface RestApiOptions {
  services: Services;
  /** Builds who is asking from the request (the HTTP host authenticates once for every transport). */
  contextFor(request: Request): Promise<RequestContext>;
  /** Whether a renewed session should go back as a cookie (the credential came from the cookie). */
  usedSessionCookie(headers: Headers): boolean;
  routes?: readonly RestRoute[];
}

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: RestRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

async function readJsonBody(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const text = await request.text();
  if (text.length > MAX_JSON_BODY) throw new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MB");
  if (!text.trim()) return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (type && !/json/i.test(type)) throw new AppError("BAD_REQUEST", "Request body must be JSON (Content-Type: application/json)");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "Request body is not valid JSON");
  }
}

/**
 * @hono/node-server swaps the global Response for a lighter class, and `Response.json()` can still hand
 * back the platform's own; both are responses.
 */
function isResponse(value: unknown): value is Response {
  return (
    value instanceof Response ||
    (typeof value === "object" && value !== null && value.constructor?.name === "Response" && "status" in value && "headers" in value)
  );
}

/** A path parameter, percent-decoded; a malformed escape (`%ZZ`) is the caller's error, not a 500. */
function decodePathParam(name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new AppError("BAD_REQUEST", `${name} is not a valid URL path segment`);
  }
}

function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.reset),
  };
}

export function createRestApi(options: RestApiOptions) {
  const routes = options.routes ?? restRoutes;
  const compiled = routes.map(compile);
  const app = new Hono();

  app.get("/openapi.json", (c) => c.json(buildOpenApi(routes, options.services.config.publicUrl)));
  app.get("/docs", () => docsPage());
  app.get("/docs/assets/:name", async (c) => (await docsAsset(c.req.param("name"))) ?? failure(404, "Not found"));

  app.all("*", async (c) => {
    const request = c.req.raw;
    const path = new URL(request.url).pathname.replace(/^\/api/, "") || "/";
    const method = request.method.toUpperCase() as HttpMethod;
    const onPath = compiled.filter((r) => r.pattern.test(path));
    if (onPath.length === 0) return failure(404, `Not found: ${request.method} /api${path}`);
    // A GET route answers HEAD too unless the table says otherwise.
    const match =
      onPath.find((r) => r.route.method === method) ?? (method === "HEAD" ? onPath.find((r) => r.route.method === "GET") : undefined);
    if (!match) {
      const allow = [...new Set(onPath.map((r) => r.route.method))].join(", ");
      return failure(405, `Method ${request.method} is not allowed on /api${path}; use ${allow}`, { headers: { Allow: allow } });
    }

    const headers = new Headers();
    let limited: RateLimitResult | null = null;
    let response: Response;
    try {
      const ctx = await options.contextFor(request);
      limited = await enforceRateLimit(ctx, match.route.rateLimit ?? "api", match.route.operation).catch((error: unknown) => {
        if (error instanceof AppError && error.details?.rateLimit) limited = error.details.rateLimit as RateLimitResult;
        throw error;
      });
      const values = match.pattern.exec(path)?.slice(1) ?? [];
      const params = Object.fromEntries(match.names.map((name, i) => [name, decodePathParam(name, values[i] ?? "")]));
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const body = await readJsonBody(request);
      const result = await match.route.handler(
        ctx,
        { params, query, body, headers: request.headers, signal: request.signal, request },
        {
          setCookie: (cookie) => headers.append("set-cookie", cookie),
          setHeader: (name, value) => headers.set(name, value),
        },
      );
      if (ctx.auth?.renewedToken && ctx.auth.session && options.usedSessionCookie(request.headers) && !headers.has("set-cookie")) {
        headers.append("set-cookie", sessionCookie(ctx.auth.renewedToken, ctx.auth.session.expiresAt));
      }
      response = isResponse(result) ? result : success(result);
    } catch (error) {
      response = errorResponse(error);
    }
    // A fresh Response with the merged headers: headers set on @hono/node-server's lightweight Response
    // (streams, files) are lost when Hono later clones it to add its own headers.
    const merged = new Headers(response.headers);
    if (limited) for (const [name, value] of Object.entries(rateLimitHeaders(limited))) merged.set(name, value);
    headers.forEach((value, name) => {
      if (name === "set-cookie") merged.append(name, value);
      else merged.set(name, value);
    });
    if (method === "HEAD") return new Response(null, { status: response.status, headers: merged });
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
  });

  return app;
}
