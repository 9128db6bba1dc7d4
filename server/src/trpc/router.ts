// tRPC, generated from the operation catalogue: one procedure per operation (downloads excepted), at
// the operation's name. Each procedure only decodes (tRPC already parsed the JSON) and hands the call to
// the one invocation path, which authenticates, authorizes, rate-limits and validates; input is *not*
// validated by tRPC, so an anonymous bad call is a 401 like on REST. Subscriptions yield tracked ids so
// the client's own reconnect resumes where it stopped. Input fields an operation takes from request
// headers on REST (`Idempotency-Key`) are read from the same headers here (tRPC's links can send them).
import { initTRPC, type TRPCBuiltRouter, TRPCError, type TRPCRouterRecord, type TrackedEnvelope, tracked } from "@trpc/server";
import { type z, ZodObject } from "zod";
import type { RequestContext } from "../request-context.ts";
import { AppError, type ErrorCode } from "../errors.ts";
import { openLiveStream } from "../modules/auth/live-streams.ts";
import { type Catalogue, catalogue } from "../operations/catalogue.ts";
import { invokeOperation } from "../operations/invoke.ts";
import { type AnyOperation, type Operation, type OperationCall, type StreamItem, served } from "../operations/operation.ts";

export interface TrpcContext extends RequestContext {
  reqHeaders: Headers;
  resHeaders: Headers;
}

const TRPC_CODE: Record<ErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  PAYMENT_REQUIRED: "PAYMENT_REQUIRED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

const t = initTRPC.context<TrpcContext>().create({
  // Stack traces never leave the server.
  isDev: false,
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause instanceof AppError ? error.cause : null;
    const fields = cause?.details?.fields;
    // The request's id (also the X-Request-Id header), so a reported error leads to its log line.
    const requestId = ctx?.trace?.requestId;
    const data = { ...shape.data, ...(requestId ? { requestId } : {}) };
    if (error.code === "INTERNAL_SERVER_ERROR") return { ...shape, message: "Internal server error", data };
    return { ...shape, data: fields ? { ...data, fields } : data };
  },
});

/** A domain error as its tRPC code; anything else stays a fault (logged by the HTTP host's onError). */
export function toTrpcError(error: unknown): unknown {
  if (error instanceof AppError) return new TRPCError({ code: TRPC_CODE[error.code], message: error.message, cause: error });
  return error;
}

export function callFor(ctx: TrpcContext, signal: AbortSignal | undefined): OperationCall {
  return {
    headers: ctx.reqHeaders,
    signal: signal ?? new AbortController().signal,
    credentials: "cookie",
    setCookie: (cookie) => ctx.resHeaders.append("set-cookie", cookie),
    setHeader: (name, value) => ctx.resHeaders.set(name, value),
  };
}

/**
 * The input with the fields the operation's REST binding reads from headers (`idempotencyKey` from
 * `Idempotency-Key`), taken from this request's headers when the input leaves them out. A field sent in
 * the input itself wins, so a subscription's own `lastEventId` is never replaced. In a batch, every call
 * reads the one request's headers.
 */
export function withHeaderFields(operation: AnyOperation, input: unknown, headers: Headers): unknown {
  const mapped = served(operation.rest) ? Object.entries(operation.rest.headers ?? {}) : [];
  if (!mapped.length || (input !== undefined && (typeof input !== "object" || input === null || Array.isArray(input)))) return input;
  const given = (input ?? {}) as Record<string, unknown>;
  const fromHeaders: Record<string, string> = {};
  for (const [field, header] of mapped) {
    const value = headers.get(header);
    if (value !== null && given[field] === undefined) fromHeaders[field] = value;
  }
  return Object.keys(fromHeaders).length ? { ...given, ...fromHeaders } : input;
}

/** An operation whose every input field is optional may be called without an argument. */
type OptionalIfEmpty<In> = Record<string, never> extends In ? In | undefined : In;

/** Types the procedure's input as the operation's without letting tRPC validate it (the invocation path does). */
function passthrough<In, Out>() {
  return { _input: undefined as In, _output: undefined as Out, parse: (value: unknown) => value as Out };
}

/**
 * The procedure builder with the operation's input type. An operation without input fields takes no
 * `.input()` at all, so a call with no body (a plain POST of `auth.logout`) is not a JSON parse error.
 */
function withInput<In, Out>(operation: AnyOperation) {
  const typed = t.procedure.input(passthrough<In, Out>());
  // (Asked of the schema's own shape: converting every input to JSON Schema cost 30 ms of each start.)
  const hasFields = !(operation.input instanceof ZodObject) || Object.keys(operation.input.shape).length > 0;
  return (hasFields ? typed : t.procedure) as typeof typed;
}

function queryProcedure<I extends z.ZodType, O>(operation: Operation<I, O, "query">) {
  return withInput<OptionalIfEmpty<z.input<I>>, z.output<I>>(operation).query(async ({ ctx, input, signal }) => {
    try {
      return (await invokeOperation({
        operation,
        ctx,
        readInput: () => withHeaderFields(operation, input, ctx.reqHeaders),
        call: callFor(ctx, signal),
      })) as O;
    } catch (error) {
      throw toTrpcError(error);
    }
  });
}

function mutationProcedure<I extends z.ZodType, O>(operation: Operation<I, O, "mutation">) {
  return withInput<OptionalIfEmpty<z.input<I>>, z.output<I>>(operation).mutation(async ({ ctx, input, signal }) => {
    try {
      return (await invokeOperation({
        operation,
        ctx,
        readInput: () => withHeaderFields(operation, input, ctx.reqHeaders),
        call: callFor(ctx, signal),
      })) as O;
    } catch (error) {
      throw toTrpcError(error);
    }
  });
}

function subscriptionProcedure<I extends z.ZodType, O>(operation: Operation<I, O, "subscription">) {
  return withInput<OptionalIfEmpty<z.input<I> & { lastEventId?: string | number | null }>, z.output<I>>(operation).subscription(
    async function* ({ ctx, input, signal }): AsyncGenerator<TrackedEnvelope<O>> {
      // Tied to the credential that opened it, as on the streaming path (subscription-stream.ts).
      const own = signal ?? new AbortController().signal;
      try {
        const items = await openLiveStream<StreamItem<O>>(ctx, own, (leased) =>
          invokeOperation({
            operation,
            ctx,
            readInput: () => withHeaderFields(operation, input, ctx.reqHeaders),
            call: callFor(ctx, leased),
          }),
        );
        let seq = 0;
        for await (const item of items) {
          seq += 1;
          yield tracked(String(item.id ?? seq), item.data);
        }
      } catch (error) {
        throw toTrpcError(error);
      }
    },
  );
}

type ProcedureOf<Op> =
  Op extends Operation<infer I, infer O, "query">
    ? ReturnType<typeof queryProcedure<I, O>>
    : Op extends Operation<infer I, infer O, "mutation">
      ? ReturnType<typeof mutationProcedure<I, O>>
      : Op extends Operation<infer I, infer O, "subscription">
        ? ReturnType<typeof subscriptionProcedure<I, O>>
        : never;

type AreaRouter<Area> = {
  // Downloads and uploads carry bytes, which tRPC does not.
  [Key in keyof Area as Area[Key] extends { kind: "download" | "upload" } ? never : Key]: ProcedureOf<Area[Key]>;
};
type AppRouterRecord = { [Area in keyof Catalogue]: AreaRouter<Catalogue[Area]> };

export type AppRouter = TRPCBuiltRouter<typeof t._config.$types, AppRouterRecord>;

function procedureFor(operation: AnyOperation) {
  switch (operation.kind) {
    case "query":
      return queryProcedure(operation as Operation<z.ZodType, unknown, "query">);
    case "mutation":
      return mutationProcedure(operation as Operation<z.ZodType, unknown, "mutation">);
    case "subscription":
      return subscriptionProcedure(operation as Operation<z.ZodType, unknown, "subscription">);
    default:
      return null;
  }
}

function buildRouter(): AppRouter {
  const areas: TRPCRouterRecord = {};
  for (const [area, entries] of Object.entries(catalogue)) {
    const record: TRPCRouterRecord = {};
    for (const [key, operation] of Object.entries(entries as Record<string, AnyOperation>)) {
      const procedure = operation.trpc ? null : procedureFor(operation);
      if (procedure) record[key] = procedure;
    }
    areas[area] = record;
  }
  return t.router(areas) as unknown as AppRouter;
}

export const appRouter = buildRouter();
