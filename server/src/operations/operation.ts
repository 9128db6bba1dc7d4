// What an operation is. Every operation of the service is defined once, with `defineOperation`, in
// `server/src/operations/<area>.ts`; its name is `<area>.<key>` (the OpenAPI operationId, the tRPC path,
// and, camel-cased, the GraphQL field). The REST table, OpenAPI, the tRPC router and the GraphQL root
// fields are generated from these definitions, and every transport calls `invokeOperation` (invoke.ts).
import type { RestBinding } from "@adgen/rest-adapter";
import { z } from "zod";
import type { RequestContext } from "../request-context.ts";
import type { RateLimitClass } from "../rate-limit/limiter.ts";

/** The input of an operation that takes none (REST: no body or query; GraphQL: no arguments). */
export const NoInput = z.object({});

/** Who may call an operation; checked before the input is read. */
export type Access =
  /** Anyone. */
  | "public"
  /** A signed-in, active account (401 / 403 suspended). */
  | "user"
  /** An admin (403 `admin access required`). */
  | "admin"
  /** A signed-in account or the bearer WORKER_TOKEN; the domain decides which jobs each may touch. */
  | "worker";

/**
 * query and mutation answer once; a subscription is a stream (SSE, tRPC subscription, GraphQL
 * subscription); a download answers bytes, and an upload receives a file (multipart, streamed to a
 * temporary file: its REST binding's `upload`), which only REST carries.
 */
export type OperationKind = "query" | "mutation" | "subscription" | "download" | "upload";

/** One item of a stream: `id` resumes it (Last-Event-ID, tRPC tracked id), `event` names it on SSE. */
export interface StreamItem<T = unknown> {
  id?: number | string;
  event: string;
  data: T;
}

/** A file answer (downloads): REST only, since neither tRPC nor GraphQL carries bytes. */
export interface FileResult {
  kind: "file";
  filename: string;
  contentType: string;
  body: string | ReadableStream<Uint8Array>;
  length?: number | null;
  /** Present for media served with byte ranges (video players seek with them). */
  ranged?: { bytes: number; modifiedAt: Date; read(range?: { start: number; end: number }): NodeJS.ReadableStream };
  /** `attachment` (download) or `inline` (media). */
  disposition?: "attachment" | "inline";
}

/** How the transport that carried the call delivers a session credential. */
export type CredentialDelivery = "cookie" | "body";

/** What a handler may ask of the transport beside its input. */
export interface OperationCall {
  /** Request headers as received (Authorization, Cookie, Accept). */
  headers: Headers;
  /** Aborts when the client goes away; streams end with it. */
  signal: AbortSignal;
  /** REST and tRPC (browsers) carry sessions in the cookie; GraphQL clients get the token in the answer. */
  credentials: CredentialDelivery;
  setCookie(cookie: string): void;
  setHeader(name: string, value: string): void;
}

/** A transport that does not serve an operation says why, in the definition. */
export interface NotServed {
  none: string;
}

export interface OperationSpec<I extends z.ZodType, O, K extends OperationKind> {
  summary: string;
  access: Access;
  kind: K;
  /** Rate-limit class; default `api`, `stream` for subscriptions. */
  rateLimit?: RateLimitClass;
  /** The whole input, whichever transport carries it (REST merges path, query, body and mapped headers). */
  input: I;
  /** The answer's schema; for a subscription, the schema of one event's data; null for file answers. */
  output: z.ZodType<O> | null;
  rest: RestBinding | NotServed;
  trpc?: NotServed;
  graphql?: NotServed;
  handler(
    ctx: RequestContext,
    input: z.output<I>,
    call: OperationCall,
  ): K extends "subscription"
    ? AsyncIterable<StreamItem<O>> | Promise<AsyncIterable<StreamItem<O>>>
    : K extends "download"
      ? Promise<FileResult>
      : Promise<O> | O;
}

export interface Operation<I extends z.ZodType = z.ZodType, O = unknown, K extends OperationKind = OperationKind>
  extends OperationSpec<I, O, K> {
  /** `<area>.<key>`, set by the catalogue. */
  name: string;
  rateLimit: RateLimitClass;
}

/** Any operation: the catalogue holds operations of every input and output type. */
export type AnyOperation = Operation<any, any, OperationKind>;

export function defineOperation<I extends z.ZodType, O, K extends OperationKind>(spec: OperationSpec<I, O, K>): Operation<I, O, K> {
  return { ...spec, name: "", rateLimit: spec.rateLimit ?? (spec.kind === "subscription" ? "stream" : "api") };
}

export const isFileResult = (value: unknown): value is FileResult =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file";

export const served = <T extends object>(binding: T | NotServed | undefined): binding is T => binding !== undefined && !("none" in binding);
