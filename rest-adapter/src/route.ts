// The REST side of an operation: its documented `/api` path and method, and where its input comes from.
// Operations are defined once in the server's catalogue; this package only routes, decodes and encodes.
import { z } from "zod";
import type { UploadBinding } from "./multipart.ts";

/**
 * Whether a schema has input fields (an operation without any takes no body or query). Read from the
 * schema's definition: converting each of some 150 inputs to JSON Schema took 150 ms of every start.
 */
function hasFields(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  switch (def.type) {
    case "object":
      return Object.keys(def.shape ?? {}).length > 0;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return hasFields(def.innerType as z.ZodType);
    case "pipe":
      return hasFields(def.in as z.ZodType);
    case "intersection":
      return hasFields(def.left as z.ZodType) || hasFields(def.right as z.ZodType);
    case "union":
      return (def.options ?? []).some((option) => hasFields(option as z.ZodType));
    default: {
      const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: object; allOf?: unknown[] };
      return Boolean(json.allOf) || Object.keys(json.properties ?? {}).length > 0;
    }
  }
}

interface ZodDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  left?: unknown;
  right?: unknown;
  options?: unknown[];
}

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RestBinding {
  method: HttpMethod;
  /** OpenAPI-style path under /api, e.g. `/admin/users/{id}`. Path parameters become input fields. */
  path: string;
  tag: string;
  /** Where the rest of the input is: the JSON body (default except on GET) or the query string. */
  from?: "body" | "query";
  /** Request headers copied into input fields when present, e.g. `{ idempotencyKey: "idempotency-key" }`. */
  headers?: Record<string, string>;
  /** Extra documented statuses beside the usual ones, e.g. `{ 409: "e-mail already registered" }`. */
  errors?: Record<number, string>;
  /**
   * Upload operations (kind `upload`): the body is `multipart/form-data`; the part `field` is streamed to
   * a temporary file of at most `maxBytes` (413 beyond) and becomes the input field of that name.
   */
  upload?: UploadBinding;
  /**
   * The body is not decoded: its exact bytes, base64-encoded, become the input field of this name (any
   * content type). For callers that sign the bytes they send, so a signature can be checked over them.
   */
  rawBody?: string;
  /** Shapes a success answer that says more than `{ success, data }` (CONTRACT's launch answer). */
  respond?(output: never): { data: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> };
  /**
   * For the document, when `respond` reshapes the answer: the whole success body as sent, and the headers
   * it may add (name: description).
   */
  responds?: { body: z.ZodType; headers?: Record<string, string> };
  /** Downloads: the content types the file may have (default `application/octet-stream`). */
  produces?: readonly string[];
  /** Downloads served with byte ranges: a Range request answers 206 (or 416 when it cannot be met). */
  ranged?: boolean;
  /** A GET route answers HEAD too (always); this documents it (SPEC lists `HEAD /health`). */
  documentHead?: boolean;
}

/** What the adapter needs to know of an operation (the server's definitions carry more). */
export interface RestOperation {
  name: string;
  summary: string;
  access: string;
  rateLimit: string;
  kind: "query" | "mutation" | "subscription" | "download" | "upload";
  input: z.ZodType;
  output: z.ZodType | null;
  rest: RestBinding | { none: string };
}

/** One row of the generated REST table. */
export interface RestRoute {
  method: HttpMethod;
  path: string;
  operation: string;
  auth: string;
  rateLimit: string;
  summary: string;
  tag: string;
  /** The input schema when the input travels in the body. */
  body?: z.ZodType;
  /** The input schema when the input travels in the query string. */
  query?: z.ZodType;
  response?: z.ZodType;
  errors?: Record<number, string>;
  /** Upload routes: the file part and its limit; the input (the operation's) travels as a multipart body. */
  upload?: UploadBinding;
  /** Raw-body routes: the input field that receives the body's bytes (base64). */
  rawBody?: string;
  source: RestOperation & { rest: RestBinding };
}

export function restTable(operations: readonly RestOperation[]): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const op of operations) {
    if ("none" in op.rest) continue;
    const binding = op.rest;
    const from = binding.from ?? (binding.method === "GET" || binding.method === "HEAD" ? "query" : "body");
    // An upload's input is a multipart body (the file and its text fields), not JSON.
    const upload = op.kind === "upload" ? binding.upload : undefined;
    const rawBody = binding.rawBody;
    routes.push({
      method: binding.method,
      path: binding.path,
      operation: op.name,
      auth: op.access,
      rateLimit: op.rateLimit,
      summary: op.summary,
      tag: binding.tag,
      ...(!hasFields(op.input) || upload || rawBody ? {} : from === "body" ? { body: op.input } : { query: op.input }),
      ...(op.output && op.kind !== "subscription" ? { response: op.output } : {}),
      ...(binding.errors ? { errors: binding.errors } : {}),
      ...(upload ? { upload } : {}),
      ...(rawBody ? { rawBody } : {}),
      source: op as RestOperation & { rest: RestBinding },
    });
  }
  return routes;
}
