// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate, as
// the service really answers: JSON envelopes (reshaped where a route's `respond` says so), files with
// their content types, SSE streams, raw JSON webhook bodies; path parameters typed from the input; every
// titled schema a named component (openapi-schemas.ts); each operation described with its errors.
import { type ObjectSchema, RequestBodies, withoutFields } from "./openapi-bodies.ts";
import { ErrorResponses, responseHeaders, STANDARD_ERRORS, sharedComponents } from "./openapi-responses.ts";
import { type JsonSchema, jsonSchema, SchemaComponents } from "./openapi-schemas.ts";
import type { RestRoute } from "./route.ts";

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

interface Shared {
  schemas: SchemaComponents;
  bodies: RequestBodies;
  errors: ErrorResponses;
}

function requestBody(r: RestRoute, rest: ObjectSchema, shared: Shared): Record<string, unknown> {
  if (r.upload) return { required: true, content: { "multipart/form-data": { schema: multipartSchema(rest, r.upload) } } };
  if (r.rawBody) {
    // Providers send JSON; it is read as the bytes they signed, so any JSON object is taken here.
    const schema = { type: "object", description: "The event as the sender signed it, byte for byte" };
    return { required: true, content: { "application/json": { schema } } };
  }
  return shared.bodies.json(rest as JsonSchema);
}

function operation(r: RestRoute, shared: Shared, method: string) {
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
  const content = method === "head" ? undefined : successContent(r, shared.schemas);
  const responses: Record<string, unknown> = {
    200: { description: "Success", headers: { ...responseHeaders, ...extraHeaders }, ...(content ? { content } : {}) },
  };
  if (r.source.rest.ranged && content) {
    responses[206] = { description: "The byte range asked for (a Range header)", headers: responseHeaders, content };
    responses[416] = { description: "The byte range asked for is outside the file", headers: responseHeaders };
  }
  for (const [status, description] of Object.entries(errors)) {
    if (description) responses[status] = shared.errors.answer(status, description, method !== "head");
  }
  return {
    operationId: method === "head" ? `${r.operation}.head` : r.operation,
    summary: method === "head" ? `${r.summary} (headers only)` : r.summary,
    description: describe(r, errors),
    tags: [r.tag],
    security: r.auth === "public" ? [] : [{ sessionCookie: [] }, { bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody ? { requestBody: requestBody(r, rest, shared) } : {}),
    responses,
    "x-rate-limit-class": r.rateLimit ?? "api",
  };
}

export function buildOpenApi(routes: readonly RestRoute[]) {
  const schemas = new SchemaComponents();
  const shared: Shared = { schemas, bodies: new RequestBodies(schemas), errors: new ErrorResponses() };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = operation(r, shared, r.method.toLowerCase());
    if (r.method === "GET" && r.source.rest.documentHead) paths[r.path]!.head = operation(r, shared, "head");
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "AdGen video-advertising API",
      version: "1.0.0",
      description:
        "Every response is `{ success, data }` or `{ success: false, error, requestId }` (a 400 adds `fields`) and carries an `X-Request-Id` header; downloads answer the file itself. Authenticate with the `session` cookie or `Authorization: Bearer <JWT or ca_ API key>`.\n\n" +
        "Rate limits: every operation is counted in the class its `x-rate-limit-class` names (auth: per client IP and hour; stream: per account and hour; api: per account, or per IP when anonymous, and minute), one counter per operation. Every answer of an operation carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, refusals (401, 403, 429) included: a refused call counts too. A path that names no operation (404) or a method the path does not take (405) counts against no limit, and its answer carries no `X-RateLimit-*` header.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // Relative: the API is on whatever host served this document (a fixed origin is wrong behind a proxy).
    servers: [{ url: "/api" }],
    components: {
      schemas: { ...sharedComponents.schemas, ...schemas.schemas },
      headers: sharedComponents.headers,
      responses: shared.errors.responses,
      requestBodies: shared.bodies.bodies,
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
        bearer: { type: "http", scheme: "bearer", description: "A session JWT or a `ca_` API key" },
      },
    },
    paths,
  };
}
