// A REST route: one documented `/api` path and method, mapped onto one domain function. The same
// table drives routing, rate limits, the OpenAPI document and the 404/405 answers.
import type { RequestContext } from "@adgen/server/context.ts";
import type { RateLimitClass } from "@adgen/server/rate-limit/limiter.ts";
import type { z } from "zod";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, string>;
  /** Parsed JSON body (undefined when there is none). Domain functions validate it. */
  body: unknown;
  headers: Headers;
  /** Aborts when the client goes away (streams stop with it). */
  signal: AbortSignal;
  request: Request;
}

export interface ResponseControl {
  setCookie(cookie: string): void;
  setHeader(name: string, value: string): void;
}

export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path under /api, e.g. `/admin/users/{id}`. */
  path: string;
  /** Stable name: the OpenAPI operationId and the rate-limit counter (shared with tRPC and GraphQL). */
  operation: string;
  summary: string;
  tag: string;
  auth: "public" | "user" | "admin";
  rateLimit?: RateLimitClass;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Schema of `data` in the success envelope. */
  response?: z.ZodType;
  /** Extra documented statuses beside the usual ones, e.g. `{ 409: "e-mail already registered" }`. */
  errors?: Record<number, string>;
  /** Returns the `data` of the envelope, or a ready Response (files, streams). */
  handler(ctx: RequestContext, input: RouteInput, res: ResponseControl): unknown | Promise<unknown>;
}

export const route = (definition: RestRoute): RestRoute => definition;
