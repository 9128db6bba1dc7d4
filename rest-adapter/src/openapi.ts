// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate.
import { z } from "zod";
import type { RestRoute } from "./route.ts";

const STANDARD_ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field",
  401: "Authentication required",
  429: "Too many requests",
  500: "Internal server error",
};

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

type ObjectSchema = { properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/** The input schema without the fields that travel in the path or in headers (documented as parameters). */
function withoutFields(schema: ObjectSchema, fields: readonly string[]): ObjectSchema {
  if (!schema.properties || fields.length === 0) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !fields.includes(name)));
  const required = schema.required?.filter((name) => !fields.includes(name));
  const { required: _r, ...rest } = schema;
  return { ...rest, properties, ...(required?.length ? { required } : {}) };
}

/** An upload's body: its fields as multipart parts, the file part as bytes. */
function multipartSchema(schema: ObjectSchema, upload: NonNullable<RestRoute["upload"]>): ObjectSchema {
  const file = { type: "string", format: "binary", description: `The file, at most ${upload.maxBytes} bytes` };
  return { ...schema, properties: { ...schema.properties, [upload.field]: file } };
}

const envelope = (data: Record<string, unknown> | null) => ({
  type: "object",
  required: ["success", "data"],
  properties: { success: { const: true }, data: data ?? {} },
});

const errorEnvelope = {
  type: "object",
  required: ["success", "error"],
  properties: {
    success: { const: false },
    error: { type: "string" },
    requestId: { type: "string", description: "The request's id (also the X-Request-Id header): quote it when reporting a problem" },
  },
};

/** A 400 also lists its fields, keyed for machines; `error` is the sentence for people. */
const validationEnvelope = {
  ...errorEnvelope,
  properties: {
    ...errorEnvelope.properties,
    fields: {
      type: "array",
      description: "One entry per invalid field: `field` is the input's dotted path (empty for the whole input)",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const rateLimitHeaders = {
  "X-RateLimit-Limit": { schema: { type: "integer" }, description: "Requests allowed in the window" },
  "X-RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left in the window" },
  "X-RateLimit-Reset": { schema: { type: "integer" }, description: "Unix time when the window resets" },
};

const responseHeaders = {
  ...rateLimitHeaders,
  "X-Request-Id": {
    schema: { type: "string" },
    description: "The request's id: the caller's own X-Request-Id (1–64 of A-Z a-z 0-9 . _ -) or one the server made",
  },
};

export function buildOpenApi(routes: readonly RestRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    const pathNames = (r.path.match(/\{(\w+)\}/g) ?? []).map((name) => name.slice(1, -1));
    for (const name of pathNames) parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
    const headerFields = r.source.rest.headers ?? {};
    const inInput = r.query ?? r.body ?? (r.upload || r.rawBody ? r.source.input : undefined);
    const input = inInput ? (jsonSchema(inInput, "input") as ObjectSchema) : null;
    for (const [field, header] of Object.entries(headerFields)) {
      parameters.push({ name: header, in: "header", required: false, schema: input?.properties?.[field] ?? { type: "string" } });
    }
    const rest = input ? withoutFields(input, [...pathNames, ...Object.keys(headerFields)]) : null;
    if (r.query && rest) {
      for (const [name, property] of Object.entries(rest.properties ?? {})) {
        parameters.push({ name, in: "query", required: rest.required?.includes(name) ?? false, schema: property });
      }
    }
    const hasBody = (r.body || r.upload || r.rawBody) && rest && (!rest.properties || Object.keys(rest.properties).length > 0);
    const errors = { ...STANDARD_ERRORS, ...(r.auth === "public" ? { 401: undefined } : {}), ...(r.errors ?? {}) };
    const responses: Record<string, unknown> = {
      200: {
        description: "Success",
        headers: responseHeaders,
        ...(r.method === "HEAD"
          ? {}
          : r.source.kind === "subscription"
            ? { content: { "text/event-stream": { schema: { type: "string" } } } }
            : { content: { "application/json": { schema: envelope(r.response ? jsonSchema(r.response, "output") : null) } } }),
      },
    };
    for (const [status, description] of Object.entries(errors)) {
      if (description)
        responses[status] = {
          description,
          headers: responseHeaders,
          content: { "application/json": { schema: status === "400" ? validationEnvelope : errorEnvelope } },
        };
    }
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = {
      operationId: r.operation,
      summary: r.summary,
      tags: [r.tag],
      security: r.auth === "public" ? [] : [{ sessionCookie: [] }, { bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(hasBody
        ? {
            requestBody: {
              required: true,
              content: r.upload
                ? { "multipart/form-data": { schema: multipartSchema(rest, r.upload) } }
                : r.rawBody
                  ? {
                      "application/octet-stream": {
                        schema: { type: "string", format: "binary", description: "The body as the sender signed it, byte for byte" },
                      },
                    }
                  : { "application/json": { schema: rest } },
            },
          }
        : {}),
      responses,
      "x-rate-limit-class": r.rateLimit ?? "api",
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "AdGen video-advertising API",
      version: "1.0.0",
      description:
        "Every response is `{ success, data }` or `{ success: false, error, requestId }` (a 400 adds `fields`) and carries an `X-Request-Id` header. Authenticate with the `session` cookie or `Authorization: Bearer <JWT or ca_ API key>`.",
    },
    // Relative: the API is on whatever host served this document (a fixed origin is wrong behind a proxy).
    servers: [{ url: "/api" }],
    components: {
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
        bearer: { type: "http", scheme: "bearer", description: "A session JWT or a `ca_` API key" },
      },
    },
    paths,
  };
}
