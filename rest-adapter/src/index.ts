// The REST adapter: routes every documented `/api` path to its operation, decodes the input (path,
// query or JSON body, mapped headers) and encodes the answer (the envelope, SSE, files, the
// X-RateLimit-* headers, 404/405). It holds no rule: the server's invocation path authenticates,
// authorizes, rate-limits, validates and calls the domain; this package only speaks HTTP.
import { Hono } from "hono";
import { DecodeError } from "./decode-error.ts";
import { docsAsset, docsPage } from "./docs.ts";
import { envelopeText, failure, success } from "./envelope.ts";
import { buildOpenApi } from "./openapi.ts";
import { MULTIPART_OVERHEAD_BYTES, readMultipart } from "./multipart.ts";
import { type HttpMethod, type RestOperation, type RestRoute, restTable } from "./route.ts";
import { attachment, rangedFile, type SseItem, sseResponse } from "./streaming.ts";

export type { HttpMethod, RestBinding, RestOperation, RestRoute } from "./route.ts";
export type { ReceivedFile, UploadBinding } from "./multipart.ts";
export { restTable } from "./route.ts";
export { buildOpenApi } from "./openapi.ts";
export {
  type DirectStream,
  directStreamOf,
  type NodeResponseLike,
  type SseWireFormat,
  sharedEncoding,
  sseResponse,
} from "./streaming.ts";

const MAX_JSON_BODY = 1_000_000;

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  reset: number;
}

export interface ResponseControl {
  setCookie(cookie: string): void;
  setHeader(name: string, value: string): void;
  /** The invocation path reports the counted rate limit; the headers go on every answer, 429 included. */
  rateLimited(result: RateLimitInfo): void;
}

export interface RestInvocation {
  operation: RestOperation;
  request: Request;
  /** Decodes the input; the invocation path calls it after authentication, authorization and the rate limit. */
  readInput(): Promise<unknown>;
  control: ResponseControl;
}

export interface DescribedError {
  status: number;
  message: string;
  /** A validation answer's fields, keyed for machines: the envelope carries them as `fields`. */
  fields?: readonly { field: string; message: string }[];
}

export interface RestApiOptions {
  operations: readonly RestOperation[];
  invoke(invocation: RestInvocation): Promise<unknown>;
  /** The status and message of an error thrown by `invoke` (for the request it answers). */
  describeError(error: unknown, request: Request): DescribedError;
  /**
   * The request's id, if the host gives requests one: every error envelope then carries it as
   * `requestId`, so the message a caller reports leads to the host's log line.
   */
  requestId?(request: Request): string | undefined;
  /**
   * The request's body bytes, when the host can read them more cheaply than through the web Request
   * (on Node, straight from the socket's stream); null to read them through the Request. A rejection
   * means the body could not be read to its end.
   */
  readBody?(request: Request): Promise<Uint8Array> | null;
}

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  names: string[];
}

/**
 * The body limits of upload routes: `(method, pathname)` → the most bytes its body may carry (the file's
 * limit plus room for the multipart framing), or null for any other request. The server's front door
 * streams these bodies through, counted, instead of buffering them under its usual limit.
 */
export function uploadBodyLimits(operations: readonly RestOperation[]): (method: string, pathname: string) => number | null {
  const uploads = restTable(operations)
    .filter((route) => route.upload)
    // Rounded up to whole megabytes, so a refusal reads "larger than 11 MB".
    .map((route) => ({ ...compile(route), limit: Math.ceil((route.upload!.maxBytes + MULTIPART_OVERHEAD_BYTES) / 1e6) * 1e6 }));
  return (method, pathname) => {
    const path = pathname.replace(/^\/api(?=\/|$)/, "");
    return uploads.find((u) => u.route.method === method.toUpperCase() && u.pattern.test(path))?.limit ?? null;
  };
}

function compile(route: RestRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

type BodyReader = NonNullable<RestApiOptions["readBody"]>;

/** The body's bytes: through the host's reader when it has one for this request, else the web Request's. */
async function bodyBytes(request: Request, readBody: BodyReader | undefined): Promise<Uint8Array> {
  const direct = readBody?.(request);
  if (!direct) return new Uint8Array(await request.arrayBuffer());
  try {
    return await direct;
  } catch {
    throw new DecodeError(400, "The request body ended before the length its Content-Length header gave");
  }
}

async function readJsonBody(request: Request, readBody: BodyReader | undefined): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const bytes = await bodyBytes(request, readBody);
  if (bytes.byteLength > MAX_JSON_BODY) throw new DecodeError(413, "Request body is larger than 1 MB");
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (type && !/json/i.test(type)) throw new DecodeError(400, "Request body must be JSON (Content-Type: application/json)");
  try {
    return JSON.parse(text);
  } catch {
    throw new DecodeError(400, "Request body is not valid JSON");
  }
}

/** The body's exact bytes, base64-encoded (a signature over them can be checked after decoding). */
async function readRawBody(request: Request, readBody: BodyReader | undefined): Promise<string> {
  const bytes = await bodyBytes(request, readBody);
  if (bytes.length > MAX_JSON_BODY) throw new DecodeError(413, "Request body is larger than 1 MB");
  return Buffer.from(bytes).toString("base64");
}

/** A path parameter, percent-decoded; a malformed escape (`%ZZ`) is the caller's error, not a 500. */
function decodePathParam(name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new DecodeError(400, `${name} is not a valid URL path segment`);
  }
}

function rateLimitHeaders(result: RateLimitInfo): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.reset),
  };
}

interface FileAnswer {
  kind: "file";
  filename: string;
  contentType: string;
  body: string | ReadableStream<Uint8Array>;
  length?: number | null;
  ranged?: Parameters<typeof rangedFile>[1] extends infer F ? Omit<F & object, "contentType"> : never;
  disposition?: "attachment" | "inline";
}

const isFile = (value: unknown): value is FileAnswer =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file";

function encode(route: RestRoute, output: unknown, request: Request): Response {
  // The signal only for a stream: on @hono/node-server, asking a request for it builds a whole web Request.
  if (route.source.kind === "subscription") return sseResponse(output as AsyncIterable<SseItem>, { signal: request.signal });
  if (isFile(output)) {
    if (output.ranged) return rangedFile(request, { ...output.ranged, contentType: output.contentType });
    return attachment(output.filename, output.body, output.contentType, output.length, output.disposition);
  }
  const { respond } = route.source.rest;
  if (!respond) return success(output);
  const shaped = respond(output as never);
  return success(shaped.data, { headers: shaped.headers ?? {} }, shaped.extra);
}

export function createRestApi(options: RestApiOptions) {
  const routes = restTable(options.operations);
  const compiled = routes.map(compile);
  const app = new Hono();
  /** An error envelope, with the request's id when the host gives one. */
  const fail = (request: Request, status: number, message: string, init: ResponseInit = {}, extra: Record<string, unknown> = {}) => {
    const requestId = options.requestId?.(request);
    return failure(status, message, init, { ...extra, ...(requestId ? { requestId } : {}) });
  };

  app.get("/openapi.json", (c) => c.json(buildOpenApi(routes)));
  app.get("/docs", () => docsPage());
  app.get("/docs/assets/:name", async (c) => (await docsAsset(c.req.param("name"))) ?? fail(c.req.raw, 404, "Not found"));

  app.all("*", async (c) => {
    const request = c.req.raw;
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api/, "") || "/";
    const method = request.method.toUpperCase() as HttpMethod;
    const onPath = compiled.filter((r) => r.pattern.test(path));
    if (onPath.length === 0) return fail(request, 404, `Not found: ${request.method} /api${path}`);
    // A GET route answers HEAD too, without a body.
    const match =
      onPath.find((r) => r.route.method === method) ?? (method === "HEAD" ? onPath.find((r) => r.route.method === "GET") : undefined);
    if (!match) {
      // Every GET route answers HEAD too, so HEAD is allowed wherever GET is.
      const allow = [...new Set(onPath.flatMap((r) => (r.route.method === "GET" ? ["GET", "HEAD"] : [r.route.method])))].join(", ");
      return fail(request, 405, `Method ${request.method} is not allowed on /api${path}; use ${allow}`, { headers: { Allow: allow } });
    }

    const headers = new Headers();
    // Temporary files of an upload, deleted once the operation has answered (it may have moved them).
    const cleanups: (() => Promise<void>)[] = [];
    let limited: RateLimitInfo | null = null;
    let response: Response;
    const { route } = match;
    const readInput = async () => {
      const values = match.pattern.exec(path)?.slice(1) ?? [];
      const params = Object.fromEntries(match.names.map((name, i) => [name, decodePathParam(name, values[i] ?? "")]));
      const fromHeaders: Record<string, string> = {};
      for (const [field, header] of Object.entries(route.source.rest.headers ?? {})) {
        const value = request.headers.get(header);
        if (value !== null) fromHeaders[field] = value;
      }
      let rest: unknown;
      if (route.upload) {
        const upload = await readMultipart(request, route.upload);
        cleanups.push(upload.cleanup);
        rest = upload.fields;
      } else if (route.rawBody) rest = { [route.rawBody]: await readRawBody(request, options.readBody) };
      else if (route.body) rest = await readJsonBody(request, options.readBody);
      else if (route.query) rest = Object.fromEntries(url.searchParams);
      // A body that is not an object (`[]`, `"x"`) goes to validation as it is, which says what is wrong.
      if (rest !== undefined && (typeof rest !== "object" || rest === null || Array.isArray(rest))) return rest;
      return { ...(rest as Record<string, unknown> | undefined), ...fromHeaders, ...params };
    };
    try {
      const output = await options.invoke({
        operation: route.source,
        request,
        readInput,
        control: {
          setCookie: (cookie) => headers.append("set-cookie", cookie),
          setHeader: (name, value) => headers.set(name, value),
          rateLimited: (result) => {
            limited = result;
          },
        },
      });
      response = encode(route, output, request);
    } catch (error) {
      if (error instanceof DecodeError) {
        response = fail(request, error.status, error.message);
      } else {
        const described = options.describeError(error, request);
        response = fail(request, described.status, described.message, {}, described.fields ? { fields: described.fields } : {});
      }
    } finally {
      await Promise.all(cleanups.map((cleanup) => cleanup()));
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
    const text = envelopeText(response);
    if (text !== null) return new Response(text, { status: response.status, headers: merged });
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
  });

  return app;
}
