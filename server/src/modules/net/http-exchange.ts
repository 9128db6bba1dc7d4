// One outbound exchange over node:http / node:https: sending the request, following redirects by hand (each
// hop checked again by checkUrl), the deadline, and turning whatever went wrong into a SafeFetchError.
//
// Each request gets its own agent and a `lookup` that answers only the validated addresses (TLS SNI and the
// Host header stay the original host name). Tests intercept this layer with msw, whose ClientRequest
// interceptor keeps the `lookup` option on pass-through connections.
import http from "node:http";
import https from "node:https";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import { SafeFetchError, tooLarge } from "./safe-fetch-error.ts";
import { bareHost, checkUrl, createPinnedLookup, type UrlPolicy } from "./url-policy.ts";

export interface SafeFetchOptions extends UrlPolicy {
  /** Redirects followed at most (default 5); one more answers 400. */
  maxRedirects?: number;
  /** safeFetch: whole exchange incl. body. safeFetchStream: until response headers, then per stalled read. Default 10 000. */
  timeoutMs?: number;
  /** Largest accepted (decoded) body, default 5 MB. */
  maxBytes?: number;
  headers?: Record<string, string>;
  /** POST is for deliveries (webhooks); a 301/302/303 turns it into a GET without body, 307/308 keep it. */
  method?: "GET" | "HEAD" | "POST";
  /** Request body, sent with POST only (Content-Length set). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Never forwarded from caller headers: the transport sets these itself. */
const DROPPED_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "upgrade",
  "content-length",
]);
/** Dropped when a redirect leaves the origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

function requestHeaders(extra: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "user-agent": "Mozilla/5.0 (compatible; AdgenFetch/1.0)",
    accept: "*/*",
    "accept-encoding": "identity",
  };
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (!DROPPED_HEADERS.has(key) && value !== undefined) headers[key] = String(value);
  }
  return headers;
}

function send(
  url: URL,
  addresses: string[],
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const hostname = bareHost(url.hostname);
    // Read http.request / https.request at call time: interceptors (msw in tests) patch these properties.
    const request = url.protocol === "https:" ? https.request : http.request;
    const req = request({
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname || "/"}${url.search}`,
      method,
      headers: body ? { ...headers, "content-length": String(body.length) } : headers,
      // A fresh agent per request: no pooled socket (pinned to an earlier answer) is ever reused.
      agent: false,
      lookup: createPinnedLookup(hostname, addresses),
      signal,
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.once("close", () => reject(new Error("connection closed before a response")));
    if (body) req.end(body);
    else req.end();
  });
}

function toHeaders(res: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Headers cannot hold (e.g. non-Latin-1); skip it.
    }
  }
  return headers;
}

function decodeBody(res: http.IncomingMessage, headers: Headers): Readable {
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
  if (encoding === "gzip" || encoding === "x-gzip") decoder = zlib.createGunzip();
  else if (encoding === "deflate") decoder = zlib.createInflate();
  else if (encoding === "br") decoder = zlib.createBrotliDecompress();
  else return res;
  headers.delete("content-encoding");
  headers.delete("content-length");
  return pipeline(res, decoder, () => {});
}

interface Exchange {
  /** The URL being fetched now (for messages). */
  current: string;
  deadline: AbortSignal;
  timedOut: () => boolean;
}

export interface Opened {
  status: number;
  headers: Headers;
  url: string;
  redirects: string[];
  body: Readable;
}

export async function open(input: string | URL, options: SafeFetchOptions, exchange: Exchange): Promise<Opened> {
  const policy: UrlPolicy = { resolver: options.resolver, allowedHosts: options.allowedHosts, protocols: options.protocols };
  const maxRedirects = Math.max(0, options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let method: string = options.method ?? "GET";
  let requestBody = method === "POST" && options.body !== undefined ? Buffer.from(options.body) : undefined;
  let headers = requestHeaders(options.headers);
  const redirects: string[] = [];
  let target: string | URL = input;
  exchange.current = String(input);

  for (;;) {
    let checked: { url: URL; addresses: string[] };
    try {
      checked = await checkUrl(target, policy, exchange.deadline);
    } catch (error) {
      if (redirects.length > 0 && error instanceof SafeFetchError) {
        const message = `redirect to ${String(target)} refused: ${error.message}`;
        throw new SafeFetchError(error.reason, message, message);
      }
      throw error;
    }
    exchange.current = checked.url.href;
    const res = await send(checked.url, checked.addresses, method, headers, requestBody, exchange.deadline);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;

    if (REDIRECT_STATUSES.has(status) && location) {
      res.destroy();
      if (redirects.length >= maxRedirects) {
        const detail = `too many redirects (more than ${maxRedirects})`;
        throw new SafeFetchError("redirects", `url redirected more than ${maxRedirects} times`, detail);
      }
      let next: URL;
      try {
        next = new URL(location, checked.url);
      } catch {
        throw new SafeFetchError("network", `could not fetch ${checked.url.href}: invalid redirect location`, "invalid redirect location");
      }
      if (next.origin !== checked.url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
      }
      if ((status === 303 && method !== "HEAD") || (method === "POST" && (status === 301 || status === 302))) {
        method = "GET";
        requestBody = undefined;
        const { "content-type": _dropped, ...rest } = headers;
        headers = rest;
      }
      redirects.push(next.href);
      target = next;
      continue;
    }

    const responseHeaders = toHeaders(res);
    const declared = Number(responseHeaders.get("content-length"));
    if (method !== "HEAD" && Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      throw tooLarge(checked.url.href, maxBytes);
    }
    return { status, headers: responseHeaders, url: checked.url.href, redirects, body: decodeBody(res, responseHeaders) };
  }
}

export function startExchange(options: SafeFetchOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const user = options.signal;
  const onUserAbort = () => controller.abort(user?.reason);
  if (user?.aborted) controller.abort(user.reason);
  else user?.addEventListener("abort", onUserAbort, { once: true });

  const exchange: Exchange = { current: "", deadline: controller.signal, timedOut: () => timedOut };
  return {
    exchange,
    timeoutMs,
    stopTimer() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    finish() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      user?.removeEventListener("abort", onUserAbort);
    },
  };
}

/** Turns whatever went wrong into a SafeFetchError; a caller's own abort is passed through untouched. */
export function failure(error: unknown, exchange: Exchange, timeoutMs: number, userSignal: AbortSignal | undefined): unknown {
  if (error instanceof SafeFetchError) return error;
  if (userSignal?.aborted) return userSignal.reason;
  if (exchange.timedOut()) {
    const detail = `timed out after ${timeoutMs} ms`;
    return new SafeFetchError("timeout", `request to ${exchange.current} timed out after ${timeoutMs} ms`, detail);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SafeFetchError("network", `could not fetch ${exchange.current}: ${reason}`, reason);
}
