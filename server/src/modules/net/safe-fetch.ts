// SSRF-safe outbound HTTP. Every URL (and every redirect hop) is checked before anything is sent: scheme,
// no credentials, no local host names, and every address the host resolves to must be public. The
// connection is then pinned to the addresses that were checked, so a DNS answer that changes between the
// check and the connect (DNS rebinding) cannot steer the request to an internal address.
//
// Transport: node:http / node:https with a per-request `lookup` that answers only the validated addresses
// (TLS SNI and the Host header stay the original host name). Tests intercept this layer with msw, whose
// ClientRequest interceptor keeps the `lookup` option on pass-through connections.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import { AppError } from "../../errors.ts";
import { isPublicAddress } from "./address.ts";

export { isPublicAddress };

/** Resolves a host name to IP addresses (v4 or v6). Injectable so tests never touch real DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export type Protocol = "https:" | "http:";

export interface UrlPolicy {
  resolver?: Resolver;
  /** When given, only these hosts (exact, case-insensitive; an entry with a port also pins the port). */
  allowedHosts?: string[];
  /** Default: http and https. */
  protocols?: Protocol[];
}

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

export interface SafeResponse {
  status: number;
  headers: Headers;
  /** Final URL after redirects. */
  url: string;
  /** Every redirect target, in order (empty when there was none; the last one equals `url`). */
  redirects: string[];
  body: Buffer;
}

export interface SafeStreamResponse {
  status: number;
  headers: Headers;
  url: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * Why an outbound request was refused or failed. `unsafe_url` is the caller's mistake (scheme, credentials,
 * local or private target, host not allowed); the others describe the remote side.
 */
export type SafeFetchFailure = "unsafe_url" | "unresolvable" | "redirects" | "too_large" | "timeout" | "network";

/** Every refusal and failure is an AppError BAD_REQUEST (REST 400 with `message`). */
export class SafeFetchError extends AppError {
  readonly reason: SafeFetchFailure;
  /** The reason without the URL, for composing messages such as "could not fetch <url>: <detail>". */
  readonly detail: string;

  constructor(reason: SafeFetchFailure, message: string, detail: string = message) {
    super("BAD_REQUEST", message);
    this.name = "SafeFetchError";
    this.reason = reason;
    this.detail = detail;
  }
}

const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const PRIVATE_MESSAGE = "url must not point to a private or local address";
const LOCAL_NAMES = ["localhost", "local", "internal", "localdomain", "home.arpa"];
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

function unsafe(message: string): SafeFetchError {
  return new SafeFetchError("unsafe_url", message);
}

/** Lower-case host without IPv6 brackets or a trailing dot. */
function bareHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  while (host.endsWith(".")) host = host.slice(0, -1);
  return host;
}

function isLocalName(host: string): boolean {
  return LOCAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`));
}

function protocolMessage(protocols: readonly Protocol[]): string {
  const names = [...new Set(protocols.map((p) => p.slice(0, -1)))].sort();
  return `url must use ${names.join(" or ")}`;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

async function checkUrl(input: string | URL, policy: UrlPolicy, signal?: AbortSignal): Promise<{ url: URL; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(input instanceof URL ? input.href : String(input));
  } catch {
    throw unsafe("url must be a valid absolute URL such as https://example.com/page");
  }
  const protocols: Protocol[] = policy.protocols?.length ? policy.protocols : ["https:", "http:"];
  if (!(protocols as string[]).includes(url.protocol)) throw unsafe(protocolMessage(protocols));
  if (url.username || url.password) throw unsafe("url must not contain a user name or password");

  // WHATWG parsing has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into dotted IPv4.
  const host = bareHost(url.hostname);
  if (!host) throw unsafe("url must name a host");
  const literal = isIP(host) !== 0;
  if (literal ? !isPublicAddress(host) : isLocalName(host)) throw unsafe(PRIVATE_MESSAGE);

  if (policy.allowedHosts) {
    const allowed = policy.allowedHosts.map((entry) => bareHost(entry.trim())).filter(Boolean);
    const candidates = new Set([host, bareHost(url.host)]);
    if (!allowed.some((entry) => candidates.has(entry))) {
      throw unsafe(`url host ${url.hostname} is not allowed; allowed hosts: ${allowed.length ? allowed.join(", ") : "(none)"}`);
    }
  }

  if (literal) return { url, addresses: [host] };

  let answers: string[];
  try {
    answers = await abortable((policy.resolver ?? systemResolver)(host), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SafeFetchError("unresolvable", `url could not be resolved (${host})`, `${host} could not be resolved`);
  }
  const addresses = [...new Set((Array.isArray(answers) ? answers : []).map((a) => String(a).trim()))];
  if (addresses.length === 0) {
    throw new SafeFetchError("unresolvable", `url could not be resolved (${host})`, `${host} could not be resolved`);
  }
  if (!addresses.every(isPublicAddress)) throw unsafe(PRIVATE_MESSAGE);
  return { url, addresses };
}

/**
 * Checks that `url` may be fetched: http(s) (or `protocols`), no user info, not a local host name, not a
 * non-public IP literal, on `allowedHosts` when given, and every resolved address public.
 * Throws SafeFetchError (an AppError BAD_REQUEST) naming what to fix; answers the parsed URL and the
 * addresses that were checked (connect only to those).
 */
export async function assertPublicUrl(url: string | URL, options: UrlPolicy = {}): Promise<{ url: URL; addresses: string[] }> {
  return checkUrl(url, options);
}

/**
 * A `lookup` for node:net that answers only `addresses` (already validated) for `hostname`, never asking
 * DNS again. Honours `all` (used by Node's happy-eyeballs connect) and `family`.
 */
export function createPinnedLookup(hostname: string, addresses: readonly string[]): LookupFunction {
  const expected = bareHost(hostname);
  const entries = addresses.map((address) => ({ address, family: isIP(address) })).filter((entry) => entry.family !== 0);
  return (host, options, callback) => {
    const wanted = options?.family === 4 || options?.family === "IPv4" ? 4 : options?.family === 6 || options?.family === "IPv6" ? 6 : 0;
    const matching = entries.filter((entry) => wanted === 0 || entry.family === wanted);
    process.nextTick(() => {
      const first = matching[0];
      if (bareHost(host) !== expected || !first) {
        const error: NodeJS.ErrnoException = new Error(`no validated address for ${host}`);
        error.code = "ENOTFOUND";
        callback(error, "", 0);
      } else if (options?.all) {
        callback(
          null,
          matching.map((entry) => ({ address: entry.address, family: entry.family })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

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

interface Opened {
  status: number;
  headers: Headers;
  url: string;
  redirects: string[];
  body: Readable;
}

function tooLarge(url: string, maxBytes: number): SafeFetchError {
  const detail = `response is larger than ${maxBytes} bytes`;
  return new SafeFetchError("too_large", `response from ${url} is larger than the ${maxBytes}-byte limit`, detail);
}

async function open(input: string | URL, options: SafeFetchOptions, exchange: Exchange): Promise<Opened> {
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

function startExchange(options: SafeFetchOptions) {
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
function failure(error: unknown, exchange: Exchange, timeoutMs: number, userSignal: AbortSignal | undefined): unknown {
  if (error instanceof SafeFetchError) return error;
  if (userSignal?.aborted) return userSignal.reason;
  if (exchange.timedOut()) {
    const detail = `timed out after ${timeoutMs} ms`;
    return new SafeFetchError("timeout", `request to ${exchange.current} timed out after ${timeoutMs} ms`, detail);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SafeFetchError("network", `could not fetch ${exchange.current}: ${reason}`, reason);
}

/**
 * Fetches a public URL: redirects followed by hand (each hop checked again, at most `maxRedirects`), the
 * connection pinned to the checked addresses, the body buffered up to `maxBytes`, everything within
 * `timeoutMs`. Non-2xx statuses are answered, not thrown.
 */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const run = startExchange(options);
  const { exchange } = run;
  let body: Readable | undefined;
  const onAbort = () => body?.destroy(exchange.deadline.reason as Error);
  exchange.deadline.addEventListener("abort", onAbort, { once: true });
  try {
    const opened = await open(url, options, exchange);
    body = opened.body;
    if (exchange.deadline.aborted) body.destroy(exchange.deadline.reason as Error);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        body.destroy();
        throw tooLarge(opened.url, maxBytes);
      }
      chunks.push(chunk);
    }
    return {
      status: opened.status,
      headers: opened.headers,
      url: opened.url,
      redirects: opened.redirects,
      body: Buffer.concat(chunks, total),
    };
  } catch (error) {
    body?.destroy();
    throw failure(error, exchange, run.timeoutMs, options.signal);
  } finally {
    exchange.deadline.removeEventListener("abort", onAbort);
    run.finish();
  }
}

/**
 * Like safeFetch but the body is not buffered (for proxying large downloads). `timeoutMs` bounds the time to
 * the response headers and then each wait for the next chunk; `maxBytes` is enforced on the stream (it
 * errors with a SafeFetchError past the limit). Cancel the stream to release the connection.
 */
export async function safeFetchStream(url: string, options: SafeFetchOptions = {}): Promise<SafeStreamResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const run = startExchange(options);
  const { exchange } = run;
  let opened: Opened;
  try {
    opened = await open(url, options, exchange);
  } catch (error) {
    run.finish();
    throw failure(error, exchange, run.timeoutMs, options.signal);
  }
  run.stopTimer();

  const source = opened.body;
  let stalled = false;
  const onAbort = () => source.destroy(exchange.deadline.reason as Error);
  exchange.deadline.addEventListener("abort", onAbort, { once: true });
  if (exchange.deadline.aborted) onAbort();
  const done = () => {
    exchange.deadline.removeEventListener("abort", onAbort);
    run.finish();
  };
  const iterator = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let total = 0;

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const timer = setTimeout(() => {
          stalled = true;
          source.destroy(new Error("stalled"));
        }, run.timeoutMs);
        try {
          const next = await iterator.next();
          if (next.done) {
            done();
            controller.close();
            return;
          }
          total += next.value.length;
          if (total > maxBytes) {
            source.destroy();
            done();
            controller.error(tooLarge(opened.url, maxBytes));
            return;
          }
          controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        } catch (error) {
          done();
          if (stalled) {
            const detail = `no data for ${run.timeoutMs} ms`;
            controller.error(new SafeFetchError("timeout", `download from ${opened.url} stalled: ${detail}`, detail));
          } else {
            controller.error(failure(error, exchange, run.timeoutMs, options.signal));
          }
        } finally {
          clearTimeout(timer);
        }
      },
      async cancel() {
        source.destroy();
        done();
      },
    },
    { highWaterMark: 0 },
  );

  return { status: opened.status, headers: opened.headers, url: opened.url, body };
}
