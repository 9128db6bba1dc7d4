// A stream that can also be pushed: the SSE transport writes each item to the client's socket as the event
// arrives, with no async iterator, promise or web stream per subscriber in between (at 10,000 subscribers
// on one job those cost about 80 µs each per event, all on the main thread). Transports that iterate
// (GraphQL, tRPC) use the same object as an async iterator. The symbol is registered, so the REST adapter
// recognises it without importing server code.
import { AppError } from "../errors.ts";

export const PUSH = Symbol.for("adgen.push-source");

export interface PushSink<T> {
  /** One item, in order; called synchronously from the event's publication once the stream is live. */
  write(item: T): void;
  /** The stream is over: finished (no error) or failed. */
  end(error?: Error): void;
}

export interface PushSource<T> {
  /** Starts delivering to `sink`; the returned function stops delivery and releases the subscription. */
  pipe(sink: PushSink<T>): () => void;
}

export type PushableStream<T> = AsyncGenerator<T> & { [PUSH]: PushSource<T> };

/**
 * How many items a reader that iterates may fall behind before its stream is ended: a client that stops
 * reading (GraphQL, tRPC) must not hold memory without end, nor slow anyone else. What it missed is in the
 * job's event log, and it resumes from its last event id.
 */
export const MAX_BEHIND = 1000;

/**
 * A domain error, so every transport says what happened and what to do, in words (GraphQL and tRPC would
 * otherwise answer "Internal server error"): 503, as the server gave up on the stream, not the request.
 */
export class FellBehindError extends AppError {
  constructor() {
    super(
      "UNAVAILABLE",
      `This stream fell more than ${MAX_BEHIND} events behind its reader and was closed; subscribe again with the last event id to resume`,
    );
  }
}

/**
 * An async generator reading `source` (for transports that iterate), that also carries `source` for
 * transports that push. Only one of the two may be used.
 */
export function pushableStream<T>(source: PushSource<T>, signal?: AbortSignal, maxBehind = MAX_BEHIND): PushableStream<T> {
  async function* iterate(): AsyncGenerator<T> {
    const queue: T[] = [];
    let ended: { error?: Error } | null = null;
    let wake: (() => void) | null = null;
    const stop = source.pipe({
      write(item) {
        if (ended) return;
        if (queue.length >= maxBehind) {
          // What is queued is still read; then the stream ends with the reason.
          ended = { error: new FellBehindError() };
          queueMicrotask(stop);
        } else queue.push(item);
        wake?.();
      },
      end(error) {
        ended ??= error ? { error } : {};
        wake?.();
      },
    });
    const onAbort = () => {
      stop();
      ended ??= {};
      wake?.();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      while (true) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (ended) {
          if ((ended as { error?: Error }).error) throw (ended as { error?: Error }).error;
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      stop();
    }
  }
  return Object.assign(iterate(), { [PUSH]: source });
}

export function pushSourceOf<T>(stream: unknown): PushSource<T> | undefined {
  return typeof stream === "object" && stream !== null ? (stream as { [PUSH]?: PushSource<T> })[PUSH] : undefined;
}

/** The same source with every item passed through `map`. */
export function mapPushSource<T, U>(source: PushSource<T>, map: (item: T) => U): PushSource<U> {
  return {
    pipe: (sink) =>
      source.pipe({
        write: (item) => sink.write(map(item)),
        end: (error) => sink.end(error),
      }),
  };
}

/** The same stream with every item passed through `map` (both ways of reading it). */
export function mapPushable<T, U>(stream: PushableStream<T>, map: (item: T) => U, signal?: AbortSignal): PushableStream<U> {
  return pushableStream<U>(mapPushSource(stream[PUSH], map), signal);
}
