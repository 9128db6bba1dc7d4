// A tRPC subscription, answered here in tRPC's own SSE wire format (what httpSubscriptionLink reads)
// rather than by tRPC's producer. That producer serialises each event once per subscriber, inside two
// async generators and a web stream of its own per subscriber. Here a job's event is serialised once
// for all its subscribers and, for a stream that can be pushed, written straight to each socket: the
// path REST's SSE takes (@adgen/rest-adapter's sseResponse). The call itself goes through the one
// invocation path like any other, and ends, with the reason as its last error, when the credential that
// opened it does (modules/auth/live-streams.ts). Anything this does not take (not a GET of one
// subscription, input that is not JSON) is left to tRPC, which answers it as it always has.
import { type SseWireFormat, sharedEncoding, sseResponse } from "@adgen/rest-adapter";
import { TRPCError } from "@trpc/server";
import { getErrorShape, getLastEventId, isAbortError, isObject } from "@trpc/server/unstable-core-do-not-import";
import { openLiveStream } from "../modules/auth/live-streams.ts";
import { operationByName } from "../operations/catalogue.ts";
import { invokeOperation } from "../operations/invoke.ts";
import type { StreamItem } from "../operations/operation.ts";
import { appRouter, callFor, type TrpcContext, toTrpcError } from "./router.ts";

const encoder = new TextEncoder();
const CONNECTED = encoder.encode(`event: connected\ndata: {}\n\n`);
const RETURN = encoder.encode(`event: return\ndata: \n\n`);
const itemEncoding = sharedEncoding();

/** tRPC's events: each item tracked by its id (the client's reconnect resumes from it), JSON data. */
function trpcFormat(describe: (error: Error) => unknown): SseWireFormat<StreamItem> {
  return {
    opening: CONNECTED,
    item(item, position) {
      const id = String(item.id ?? position);
      return itemEncoding(item.data, id, () => `data: ${JSON.stringify(item.data)}\nid: ${id}\n\n`);
    },
    closing(error) {
      if (!error) return RETURN;
      if (isAbortError(error)) return null;
      return encoder.encode(`event: serialized-error\ndata: ${JSON.stringify(describe(error))}\n\n`);
    },
  };
}

/** A stream whose first read fails with `error`. */
const failing = (error: unknown): AsyncIterable<StreamItem> => ({
  [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
});

export interface SubscriptionRequest {
  request: Request;
  /** The call's context, as tRPC's createContext builds it (`resHeaders` go out with the answer). */
  createContext(resHeaders: Headers): Promise<TrpcContext>;
  /** A failure that is not the caller's (an internal error), for the log. */
  onInternalError(error: TRPCError): void;
}

/** The answer to a tRPC subscription request, or null for a request this leaves to tRPC. */
export async function answerSubscription({ request, createContext, onInternalError }: SubscriptionRequest): Promise<Response | null> {
  if (request.method !== "GET") return null;
  // The procedure's name, read without parsing the URL: every tRPC query passes through here first.
  const href = request.url;
  const from = href.indexOf("/trpc/") + "/trpc/".length;
  const query = href.indexOf("?", from);
  const path = href.slice(from, query === -1 ? undefined : query);
  const operation = operationByName.get(path);
  if (operation?.kind !== "subscription" || operation.trpc) return null;
  const url = new URL(href);
  let input: unknown;
  try {
    const raw = url.searchParams.get("input");
    input = raw === null ? undefined : JSON.parse(raw);
  } catch {
    return null;
  }
  // Where tRPC puts the id a reconnecting client resumes from.
  const lastEventId = getLastEventId({ headers: request.headers, searchParams: url.searchParams });
  if (lastEventId) input = isObject(input) ? { ...input, lastEventId } : (input ?? { lastEventId });

  const resHeaders = new Headers();
  const ctx = await createContext(resHeaders);
  let items: AsyncIterable<StreamItem>;
  try {
    // Tied to the credential that opened it: its end (logout, password change, suspension) is this stream's last error.
    items = await openLiveStream<StreamItem>(ctx, request.signal, (signal) =>
      invokeOperation({ operation, ctx, readInput: () => input, call: callFor(ctx, signal) }),
    );
  } catch (error) {
    // tRPC refuses a subscription inside its stream too: the client gets the error as its first event.
    items = failing(error);
  }
  const format = trpcFormat((failure) => {
    const mapped = toTrpcError(failure);
    const error =
      mapped instanceof TRPCError ? mapped : new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: failure.message, cause: failure });
    if (error.code === "INTERNAL_SERVER_ERROR") onInternalError(error);
    return getErrorShape({ config: appRouter._def._config, error, type: "subscription", path, input, ctx });
  });
  const response = sseResponse(items, { signal: request.signal, format });
  for (const cookie of resHeaders.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}
