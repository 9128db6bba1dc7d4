// A subscription's events as GraphQL wants them: the operation's stream without its SSE envelope, that
// stops the operation (and its bus listener) when the client unsubscribes or the socket closes.
import { mapPushSource, PUSH, type PushSource, pushSourceOf } from "../../streams/push-source.ts";
import type { StreamItem } from "../../operations/operation.ts";

/**
 * An iterator over a subscription's events that aborts the operation's signal when the client
 * unsubscribes or the socket closes, even before the first event, so no bus listener outlives it.
 */
export async function abortableStream(
  start: (signal: AbortSignal) => Promise<AsyncIterable<StreamItem>>,
): Promise<AsyncIterableIterator<unknown>> {
  const controller = new AbortController();
  let inner: AsyncIterator<StreamItem> | null = null;
  const opening = start(controller.signal).then((items) => {
    inner = items[Symbol.asyncIterator]();
    return inner;
  });
  // A refused subscription (401, 404, 429) fails here, as an error answer to the subscribe message.
  await opening;
  const finish = async () => {
    controller.abort();
    const iterator = inner ?? (await opening.catch(() => null));
    await iterator?.return?.(undefined);
    return { done: true as const, value: undefined };
  };
  const push = pushSourceOf<StreamItem>(inner);
  const iterator: AsyncIterableIterator<unknown> & { [PUSH]?: PushSource<unknown> } = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    // A stream that can be pushed stays so (graphql/pushed-subscription.ts): its events, without the SSE envelope.
    ...(push && { [PUSH]: mapPushSource(push, (item) => item.data) }),
    async next() {
      if (controller.signal.aborted) return { done: true, value: undefined };
      const result = await (await opening).next();
      return result.done ? { done: true, value: undefined } : { done: false, value: result.value.data };
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
  };
  return iterator;
}
