// SSRF-safe outbound HTTP: the public entry points. safeFetch buffers the body, safeFetchStream hands it on
// as a stream; both go through the same checked, pinned exchange. The pieces live beside this file:
// url-policy.ts (which URLs may be fetched, DNS pinning), http-exchange.ts (the node:http/https transport,
// redirects, deadline) and safe-fetch-error.ts (the one error they throw). Everything is re-exported here so
// importers need only this module.
import type { Readable } from "node:stream";
import { DEFAULT_MAX_BYTES, failure, type Opened, open, type SafeFetchOptions, startExchange } from "./http-exchange.ts";
import { SafeFetchError, tooLarge } from "./safe-fetch-error.ts";

export { isPublicAddress } from "./address.ts";
export type { SafeFetchOptions } from "./http-exchange.ts";
export { SafeFetchError, type SafeFetchFailure } from "./safe-fetch-error.ts";
export {
  assertPublicUrl,
  assertStorableUrl,
  createPinnedLookup,
  type Protocol,
  type Resolver,
  systemResolver,
  type UrlPolicy,
} from "./url-policy.ts";

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
