// A stream that ends, with the signal's reason as its last error, when a signal aborts (the credential
// that opened it ended: modules/auth/live-streams.ts). Read either way, pushed or iterated, like the
// stream it wraps; the transport then says the reason in its own form and closes.
import { type PushSource, pushableStream, pushSourceOf } from "./push-source.ts";

const reasonOf = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));

/** `source`, ending with the signal's reason when `signal` aborts. */
function endingPushSource<T>(source: PushSource<T>, signal: AbortSignal): PushSource<T> {
  return {
    pipe(sink) {
      let done = false;
      let stop: () => void = () => {};
      const end = (error?: Error) => {
        if (done) return;
        done = true;
        signal.removeEventListener("abort", onAbort);
        sink.end(error);
      };
      const onAbort = () => {
        stop();
        end(reasonOf(signal));
      };
      stop = source.pipe({ write: (item) => done || sink.write(item), end });
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      return () => {
        done = true;
        signal.removeEventListener("abort", onAbort);
        stop();
      };
    },
  };
}

async function* endingIterable<T>(stream: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(reasonOf(signal));
  });
  aborted.catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      if (signal.aborted) throw reasonOf(signal);
      const next = iterator.next();
      // Abandoned when the signal wins the race: the stream was given the same signal and ends itself.
      next.catch(() => {});
      const step = await Promise.race([next, aborted]);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Not awaited: a stream busy with a step finishes it before its `return` runs.
    Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

/**
 * `stream` that ends with `signal.reason` once `signal` aborts; `release` runs once it is over, whichever
 * way it ended. A pushable stream stays pushable.
 */
export function endWhenAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal, release: () => void): AsyncIterable<T> {
  const push = pushSourceOf<T>(stream);
  if (push) {
    const source = endingPushSource(push, signal);
    // Released when the stream is over, however it is read: pushed (pipe's stop or end) or iterated.
    const released: PushSource<T> = {
      pipe(sink) {
        const stop = source.pipe({
          write: (item) => sink.write(item),
          end: (error) => {
            release();
            sink.end(error);
          },
        });
        return () => {
          release();
          stop();
        };
      },
    };
    // The wrapped stream's own iterator never starts (generators are lazy): its source is read here instead.
    return pushableStream(released);
  }
  return (async function* () {
    try {
      yield* endingIterable(stream, signal);
    } finally {
      release();
    }
  })();
}
