// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate, as
// the service really answers: JSON envelopes (reshaped where a route's `respond` says so), files with
// their content types, SSE streams, raw JSON webhook bodies; path parameters typed from the input; every
// titled schema a named component (openapi-schemas.ts); each operation described with its errors.
import { type JsonSchema, jsonSchema, SchemaComponents } from "./openapi-schemas.ts";
import type { RestRoute } from "./route.ts";

const STANDARD_ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field",
  401: "Authentication required",
  429: "Too many requests",
  500: "Internal server error",
};

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

/** A file's body: text types as strings, the rest as bytes. */
function fileSchema(type: string): JsonSchema {
  if (type.startsWith("text/")) return { type: "string" };
  if (type === "application/json") return { description: "A JSON document (the file itself, not the envelope)" };
  return { type: "string", format: "binary", contentMediaType: type };
}

function successContent(r: RestRoute, components: SchemaComponents): Record<string, unknown> | undefined {
  if (r.method === "HEAD") return undefined;
  if (r.source.kind === "subscription") return { "text/event-stream": { schema: { type: "string" } } };
  if (r.source.kind === "download") {
    const types = r.source.rest.produces?.length ? r.source.rest.produces : ["application/octet-stream"];
    return Object.fromEntries(types.map((type) => [type, { schema: fileSchema(type) }]));
  }
  const reshaped = r.source.rest.responds?.body;
  if (reshaped) return { "application/json": { schema: components.named(jsonSchema(reshaped, "output"), "output") } };
  const data = r.response ? components.named(jsonSchema(r.response, "output"), "output") : null;
  return { "application/json": { schema: envelope(data) } };
}

/** The operation's description: what it does (the summary), what it answers, and each error it may answer. */
function describe(r: RestRoute, errors: Record<string, string | undefined>): string {
  const answers =
    r.source.kind === "download"
      ? `Answers the file itself (${(r.source.rest.produces ?? ["application/octet-stream"]).join(", ")}), not the JSON envelope.`
      : r.source.kind === "subscription"
        ? "Answers a Server-Sent Events stream."
        : r.source.rest.responds
          ? "Answers the envelope with more fields beside `data` (see the schema)."
          : "Answers `{ success: true, data }`.";
  const listed = Object.entries(errors)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([status, text]) => `- ${status}: ${text}`);
  return `${r.summary}.\n\n${answers}\n\nErrors (\`{ success: false, error }\`):\n${listed.join("\n")}`.replace(/\.\.\n/, ".\n");
}

function operation(r: RestRoute, components: SchemaComponents, method: string) {
  const parameters: unknown[] = [];
  const pathNames = (r.path.match(/\{(\w+)\}/g) ?? []).map((name) => name.slice(1, -1));
  const whole = (pathNames.length ? jsonSchema(r.source.input, "input") : {}) as ObjectSchema;
  for (const name of pathNames) {
    // Typed as the input types it (an enum stays an enum), always a string in a path.
    const property = (whole.properties?.[name] ?? { type: "string" }) as JsonSchema;
    parameters.push({ name, in: "path", required: true, schema: property.type === "string" ? property : { type: "string" } });
  }
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
  const extraHeaders = Object.fromEntries(
    Object.entries(r.source.rest.responds?.headers ?? {}).map(([name, description]) => [name, { schema: { type: "string" }, description }]),
  );
  const content = method === "head" ? undefined : successContent(r, components);
  const responses: Record<string, unknown> = {
    200: { description: "Success", headers: { ...responseHeaders, ...extraHeaders }, ...(content ? { content } : {}) },
  };
  if (r.source.rest.ranged && content) {
    responses[206] = { description: "The byte range asked for (a Range header)", headers: responseHeaders, content };
    responses[416] = { description: "The byte range asked for is outside the file", headers: responseHeaders };
  }
  for (const [status, description] of Object.entries(errors)) {
    if (description)
      responses[status] = {
        description,
        headers: responseHeaders,
        ...(method === "head"
          ? {}
          : { content: { "application/json": { schema: status === "400" ? validationEnvelope : errorEnvelope } } }),
      };
  }
  return {
    operationId: method === "head" ? `${r.operation}.head` : r.operation,
    summary: method === "head" ? `${r.summary} (headers only)` : r.summary,
    description: describe(r, errors),
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
                    // Providers send JSON; it is read as the bytes they signed, so any JSON object is taken here.
                    "application/json": { schema: { type: "object", description: "The event as the sender signed it, byte for byte" } },
                  }
                : { "application/json": { schema: components.named(rest as JsonSchema, "input") } },
          },
        }
      : {}),
    responses,
    "x-rate-limit-class": r.rateLimit ?? "api",
  };
}

export function buildOpenApi(routes: readonly RestRoute[]) {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = operation(r, components, r.method.toLowerCase());
    if (r.method === "GET" && r.source.rest.documentHead) paths[r.path]!.head = operation(r, components, "head");
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "AdGen video-advertising API",
      version: "1.0.0",
      description:
        "Every response is `{ success, data }` or `{ success: false, error, requestId }` (a 400 adds `fields`) and carries an `X-Request-Id` header; downloads answer the file itself. Authenticate with the `session` cookie or `Authorization: Bearer <JWT or ca_ API key>`.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // Relative: the API is on whatever host served this document (a fixed origin is wrong behind a proxy).
    servers: [{ url: "/api" }],
    components: {
      schemas: components.schemas,
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
        bearer: { type: "http", scheme: "bearer", description: "A session JWT or a `ca_` API key" },
      },
    },
    paths,
  };
}
