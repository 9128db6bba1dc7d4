// The one invocation path. REST, tRPC and GraphQL each decode a request into (operation, who is
// asking, a way to read the input) and call `invokeOperation`, which runs, in this order:
//   1. authenticate: the transport host built `ctx` from the request's credentials;
//   2. rate limit: one counter per operation name and client, shared by every transport; a stream
//      connection counts in the stream class; a call refused next counts too;
//   3. authorize: the operation's `access` (401, 403), and a read-only (analytics) API key's scope: no
//      mutation or upload (403); the assistant's tool calls pass the same `admit` for the operations
//      they stand for;
//   4. validate (`parseInput`): first an iterative walk refuses input nested deeper than 32 levels or
//      holding a NUL or lone surrogate at any depth, before the schema or anything recursive sees it;
//      then the operation's input schema (400 naming each field);
//   5. the domain handler;
//   6. under tests, the answer is checked against the output schema.
// Transports then encode the answer; no rule lives in a transport.
import type { RequestContext } from "../request-context.ts";
import { AppError, Errors, parseInput } from "../errors.ts";
import { traceOperation } from "../logging/request-trace.ts";
import { mapPushable, type PushableStream, pushSourceOf } from "../streams/push-source.ts";
import { requireAdmin } from "../modules/auth/require-admin.ts";
import { refuseWritesInMaintenance } from "../modules/settings/settings.ts";
import { readBearer, requireUser } from "../modules/auth/authenticate.ts";
import { enforceRateLimit } from "../rate-limit/enforce.ts";
import type { RateLimitResult } from "../rate-limit/limiter.ts";
import { type AnyOperation, isFileResult, type OperationCall, type StreamItem } from "./operation.ts";
import { checkOutputShape } from "./output-check.ts";

export interface Invocation {
  operation: AnyOperation;
  ctx: RequestContext;
  /** Decodes the raw input; called only once the caller is authorized and counted. */
  readInput(): unknown | Promise<unknown>;
  call: OperationCall;
  /** Reports the counted rate limit (REST sends it as X-RateLimit-* headers, 429 included). */
  onRateLimit?(result: RateLimitResult): void;
}

/** Outputs are checked against their schemas while tests run, so a schema that lies fails a test. */
const CHECK_OUTPUTS = process.env.VITEST !== undefined || process.env.CHECK_OPERATION_OUTPUTS === "1";

/** Kinds of operation that change something: a read-only (analytics) API key may call none of them. */
const WRITES = new Set(["mutation", "upload"]);

export function authorize(operation: AnyOperation, ctx: RequestContext, headers: Headers): void {
  if (ctx.auth?.apiKey?.scope === "analytics" && WRITES.has(operation.kind)) {
    throw new AppError("FORBIDDEN", "This API key is read-only (analytics): it may read the account, not change it.");
  }
  switch (operation.access) {
    case "public":
      return;
    case "user":
      requireUser(ctx);
      return;
    case "admin":
      requireAdmin(ctx);
      return;
    case "worker": {
      const token = ctx.services.config.workerToken;
      if (token && readBearer(headers.get("authorization")) === token) return;
      if (!ctx.auth) throw Errors.unauthenticated();
      requireUser(ctx);
      return;
    }
  }
}

/**
 * Whether this caller may call the operation now: `authorize`, then maintenance mode (an admin setting:
 * changes by non-admins answer 503, reads keep working). Throws the refusal. Also what a tool call that
 * stands for the operation passes first (modules/assistant/tool-gate.ts), so both obey one rule.
 */
export async function admit(operation: AnyOperation, ctx: RequestContext, headers: Headers): Promise<void> {
  authorize(operation, ctx, headers);
  await refuseWritesInMaintenance(ctx.services, ctx.auth?.user.role ?? null, operation);
}

export async function invokeOperation(invocation: Invocation): Promise<unknown> {
  const { operation, ctx, call } = invocation;
  // Named in the request's log line whatever happens next (a 401 and a 429 are worth finding too).
  traceOperation(ctx.trace, operation.name, ctx.auth?.user.id ?? null);
  // Counted before it is admitted: every call of a counted operation counts (CONTRACT), a refused one
  // (401, 403) too, and so every answer carries the X-RateLimit-* headers.
  try {
    const counted = await enforceRateLimit(ctx, operation.rateLimit, operation.name);
    invocation.onRateLimit?.(counted);
  } catch (error) {
    const result = error instanceof AppError ? (error.details?.rateLimit as RateLimitResult | undefined) : undefined;
    if (result) invocation.onRateLimit?.(result);
    throw error;
  }
  await admit(operation, ctx, call.headers);
  const input = parseInput(operation.input, await invocation.readInput());
  const output = await operation.handler(ctx, input, call);
  if (!CHECK_OUTPUTS || !operation.output) return output;
  if (operation.kind === "subscription") {
    // A stream that can be pushed stays pushable, checked item by item either way.
    if (pushSourceOf(output)) {
      const checked = (item: StreamItem) => {
        checkOutput(operation, item.data);
        return item;
      };
      return mapPushable(output as PushableStream<StreamItem>, checked, call.signal);
    }
    return checkedStream(operation, output as AsyncIterable<StreamItem>);
  }
  if (!isFileResult(output)) checkOutput(operation, output);
  return output;
}

function checkOutput(operation: AnyOperation, value: unknown): void {
  if (operation.output) checkOutputShape(operation.name, operation.output, value);
}

async function* checkedStream(operation: AnyOperation, items: AsyncIterable<StreamItem>): AsyncGenerator<StreamItem> {
  for await (const item of items) {
    checkOutput(operation, item.data);
    yield item;
  }
}
