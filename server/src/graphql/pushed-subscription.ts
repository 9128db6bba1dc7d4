// GraphQL subscriptions over graphql-ws, with each event run through a document and serialised once for
// all its subscribers. graphql-js would execute the selection set for every subscriber, and graphql-ws
// would stringify every `next` message, so at 1,000 watchers of one job an event cost 1,000 executions
// and 1,000 serialisations. Here the first subscriber's answer is kept with the event (weakly) under its
// document and variables, and the others get the same JSON framed with their own subscription id.
// A stream that can be pushed (a job's events, events/push-source.ts) is written to the socket in the
// call that published the event, with no iterator or promise per subscriber: the path SSE takes.
// graphql-ws still runs the protocol: the handshake, refusals, `complete` in both directions.
import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLError,
  type GraphQLFormattedError,
} from "graphql";
import type { WebSocket } from "ws";
import { type PushSource, pushSourceOf } from "../streams/push-source.ts";

/**
 * A socket this many bytes behind (written, not yet taken by the client) is not reading: it is closed
 * rather than buffered without end, as SSE drops such a client. Its subscriptions resume from their last
 * event id (`lastEventId`) when the client reconnects.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** An execution's answer, and its JSON once a pushed stream has written it. */
interface Answer {
  result: ExecutionResult;
  json?: string;
}

/** event → (document key → answer). Events are shared objects: one per publication, seen by every subscriber. */
const answers = new WeakMap<object, Map<string, Answer | Promise<Answer>>>();

const answerOf = (result: ExecutionResult): Answer => ({ result });

/**
 * The answer to `event` for a document (`key`: who asks, the document and its variables). A subscription's
 * fields read only the event (the schema's output fields have no resolvers that look at who asks), so the
 * same key gives the same answer to every subscriber.
 */
function answerFor(event: unknown, key: string, run: () => ExecutionResult | Promise<ExecutionResult>): Answer | Promise<Answer> {
  const shared = typeof event === "object" && event !== null ? event : null;
  let byDocument = shared ? answers.get(shared) : undefined;
  const known = byDocument?.get(key);
  if (known) return known;
  const result = run();
  const answer = result instanceof Promise ? result.then(answerOf) : answerOf(result);
  if (shared) {
    if (!byDocument) {
      byDocument = new Map();
      answers.set(shared, byDocument);
    }
    byDocument.set(key, answer);
  }
  return answer;
}

export interface SocketSubscription {
  socket: WebSocket;
  /** The subscription's id, chosen by the client. */
  id: string;
  /** Who asks (an account id): answers are shared among subscribers of the same document and audience. */
  audience: string;
  /** This subscription's errors as it answers them (masked, with its request id). */
  formatErrors(errors: readonly GraphQLError[]): GraphQLFormattedError[];
}

const DONE: IteratorResult<never> = { done: true, value: undefined };

/**
 * Subscribes as graphql-js does, sharing each event's answer among subscribers of the same document. Answers
 * graphql-ws either a refusal (an execution result with errors) or an iterator: one that yields each answer
 * for graphql-ws to send or, for a pushed stream, writes every answer itself and only ends.
 */
export async function subscribeSharing(
  args: ExecutionArgs,
  subscription: SocketSubscription,
): Promise<ExecutionResult | AsyncIterableIterator<ExecutionResult>> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  // Today no output field looks at who asks; with the audience in the key, one that someday does cannot
  // hand an account's answer to an admin watching the same event, or the other way round.
  const key = `${subscription.audience}\n${args.operationName ?? ""}\n${JSON.stringify(args.variableValues ?? {})}\n${documentText(args)}`;
  const run = (event: unknown) => () => execute({ ...args, rootValue: event });
  const iterator = source[Symbol.asyncIterator]();
  const push = pushSourceOf<unknown>(source);
  if (push) return pushedAnswers(push, iterator, (event) => answerFor(event, key, run(event)), subscription);
  // Iterated streams (a balance, a chat): graphql-ws sends each answer, made once per event all the same.
  const answers: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => answers,
    async next() {
      const step = await iterator.next();
      if (step.done) return DONE;
      try {
        return { done: false, value: (await answerFor(step.value, key, run(step.value))).result };
      } catch (error) {
        // graphql-ws ends the subscription on this error without closing the source: release it here.
        await iterator.return?.();
        throw error;
      }
    },
    return: async () => {
      await iterator.return?.();
      return DONE;
    },
    throw: async (error) => {
      await iterator.return?.();
      throw error;
    },
  };
  return answers;
}

/** The document's source text: what the client sent, so the same subscription shares its answers. */
const documentText = (args: ExecutionArgs) => args.document.loc?.source.body ?? JSON.stringify(args.document);

/**
 * Writes each event's answer to the socket as the event is published. graphql-ws gets an iterator that
 * only ends: with the stream, with an error when the stream fails, or when the client completes the
 * subscription or goes away (its `return`).
 */
function pushedAnswers(
  push: PushSource<unknown>,
  source: AsyncIterator<unknown>,
  answer: (event: unknown) => Answer | Promise<Answer>,
  { socket, id, formatErrors }: SocketSubscription,
): AsyncIterableIterator<ExecutionResult> {
  const prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  const send = (answer: Answer) => {
    const { result } = answer;
    // Errors are this subscription's own (masked, with its request id); an answer without is everyone's.
    if (result.errors?.length) {
      socket.send(`${prefix}${JSON.stringify({ ...result, errors: formatErrors(result.errors) })}}`);
      return;
    }
    answer.json ??= JSON.stringify(result);
    socket.send(`${prefix}${answer.json}}`);
  };
  let stop: (() => void) | null = null;
  let settled = false;
  let finish!: (error?: Error) => void;
  const ended = new Promise<IteratorResult<ExecutionResult>>((resolve, reject) => {
    finish = (error) => {
      if (settled) return;
      settled = true;
      stop?.();
      Promise.resolve(source.return?.()).catch(() => {});
      if (error) reject(error);
      else resolve(DONE);
    };
  });
  const fail = (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)));
  // Answers that are promises (a resolver that awaits) are sent in order behind one another.
  let queue: Promise<void> | null = null;
  const write = (event: unknown) => {
    if (socket.readyState !== socket.OPEN) return finish();
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      finish();
      socket.terminate();
      return;
    }
    const made = answer(event);
    if (!queue && !(made instanceof Promise)) return send(made);
    queue = (queue ?? Promise.resolve())
      .then(async () => {
        const ready = await made;
        if (!settled) send(ready);
      })
      .catch(fail);
  };
  const start = () => {
    stop = push.pipe({
      write(event) {
        if (settled) return;
        // Called from the event's publication, with every other subscriber of the job still to come:
        // a failure ends this subscription only.
        try {
          write(event);
        } catch (error) {
          fail(error);
        }
      },
      end(error) {
        // Whatever is queued goes first.
        if (queue) void queue.then(() => finish(error));
        else finish(error);
      },
    });
    if (settled) stop();
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => iterator,
    next() {
      // Started by graphql-ws's first read, once it holds this subscription (it completes it from then on).
      if (!stop && !settled) start();
      return ended;
    },
    async return() {
      finish();
      return DONE;
    },
    async throw(error) {
      finish();
      throw error;
    },
  };
  return iterator;
}
