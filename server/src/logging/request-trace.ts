// What one HTTP request did, for its log line: its id (sent back in `X-Request-Id` and in every error
// answer, so a user's report leads to the line), the catalogue operations it ran and who asked.
import { randomUUID } from "node:crypto";
import type { Logger } from "./logger.ts";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** An id a client or proxy may choose: short, and safe to print in a log or a header. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface RequestTrace {
  readonly requestId: string;
  readonly startedAt: number;
  /** Catalogue operations run (a tRPC batch or a GraphQL document may run several). */
  readonly operations: string[];
  /** The REST route's pattern (`/api/workflow/job`), when the request matched one. */
  route: string | null;
  userId: string | null;
}

/** The incoming `X-Request-Id` when it is 1–64 of `A-Z a-z 0-9 . _ -`, else a new UUID. */
export function chooseRequestId(incoming: string | null | undefined): string {
  return incoming && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function startTrace(incomingRequestId: string | null | undefined): RequestTrace {
  return { requestId: chooseRequestId(incomingRequestId), startedAt: performance.now(), operations: [], route: null, userId: null };
}

/** Records an operation about to run for the caller, once per operation name. */
export function traceOperation(trace: RequestTrace | undefined, operation: string, userId: string | null): void {
  if (!trace) return;
  if (!trace.operations.includes(operation)) trace.operations.push(operation);
  trace.userId ??= userId;
}

const API_PREFIXES = ["/api", "/trpc", "/graphql"];

/**
 * One line per request: method, path (never the query string, where a token may travel), route,
 * operation, status, duration, request id and the caller. API calls at info (server faults at error, a
 * deliberate 503 not);
 * the SPA's files at debug.
 */
export function logRequest(logger: Logger, request: { method: string; url: string }, status: number, trace: RequestTrace): void {
  const path = new URL(request.url).pathname;
  const api = API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  // A 503 is the service declining on purpose (maintenance, a webhook or a provider not set up, try
  // again): an answer like a 4xx, not a fault; the code that answers it warns where an operator must act.
  const level = status >= 500 && status !== 503 ? "error" : api ? "info" : "debug";
  logger[level](
    {
      requestId: trace.requestId,
      method: request.method,
      path,
      ...(trace.route ? { route: trace.route } : {}),
      ...(trace.operations.length ? { operation: trace.operations.join(",") } : {}),
      status,
      durationMs: Math.round((performance.now() - trace.startedAt) * 10) / 10,
      ...(trace.userId ? { userId: trace.userId } : {}),
    },
    "request",
  );
}

/** One line per GraphQL operation over the WebSocket (no HTTP request of its own), when it ends. */
export function logSocketOperation(logger: Logger, trace: RequestTrace, outcome: "completed" | "refused"): void {
  logger.info(
    {
      requestId: trace.requestId,
      transport: "graphql-ws",
      path: "/graphql",
      ...(trace.operations.length ? { operation: trace.operations.join(",") } : {}),
      outcome,
      durationMs: Math.round((performance.now() - trace.startedAt) * 10) / 10,
      ...(trace.userId ? { userId: trace.userId } : {}),
    },
    "socket operation",
  );
}
