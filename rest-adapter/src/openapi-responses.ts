// The parts every operation of the OpenAPI document shares, written once in `components` and referenced:
// the rate-limit and request-id headers, the error envelopes (a 400's with its `fields`), and each error
// answer (the standard 400, 401, 429 and 500 that any operation may give, and an operation's own, such as
// 404 "Job not found", named once however many operations give it). Written inline in every operation,
// these were three quarters of the document.
import type { JsonSchema } from "./openapi-schemas.ts";

export const STANDARD_ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field",
  401: "Authentication required",
  429: "Too many requests",
  500: "Internal server error",
};

/** The name of each standard error's answer in `components.responses`. */
const STANDARD_RESPONSE_NAMES: Record<number, string> = {
  400: "InvalidInput",
  401: "AuthenticationRequired",
  429: "TooManyRequests",
  500: "InternalServerError",
};

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

const headers = {
  "X-RateLimit-Limit": { schema: { type: "integer" }, description: "Requests allowed in the window" },
  "X-RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left in the window" },
  "X-RateLimit-Reset": { schema: { type: "integer" }, description: "Unix time when the window resets" },
  "X-Request-Id": {
    schema: { type: "string" },
    description: "The request's id: the caller's own X-Request-Id (1–64 of A-Z a-z 0-9 . _ -) or one the server made",
  },
};

/** The headers every answer carries, as references to `components.headers`. */
export const responseHeaders: Record<string, { $ref: string }> = Object.fromEntries(
  Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

const ERROR_SCHEMA = { $ref: "#/components/schemas/ErrorEnvelope" };
const VALIDATION_SCHEMA = { $ref: "#/components/schemas/ValidationErrorEnvelope" };

const STATUS_WORDS: Record<string, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  402: "PaymentRequired",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  413: "TooLarge",
  415: "UnsupportedType",
  422: "Unprocessable",
  503: "Unavailable",
};

function errorBody(status: string, description: string, withBody: boolean): Record<string, unknown> {
  return {
    description,
    headers: responseHeaders,
    ...(withBody ? { content: { "application/json": { schema: status === "400" ? VALIDATION_SCHEMA : ERROR_SCHEMA } } } : {}),
  };
}

/** `Forbidden_admin_access_required`: the status in a word and the wording, as a component name may be spelt. */
function responseName(status: string, description: string): string {
  const words = description
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .slice(0, 6)
    .join("_");
  return `${STATUS_WORDS[status] ?? `Status${status}`}_${words}`;
}

/**
 * Error answers, each wording written once: the standard ones (400, 401, 429, 500 as STANDARD_ERRORS word
 * them) under their own names, an operation's own wording (404 "Job not found"…) under a name made from
 * it. A HEAD answer has no body and stays where it is.
 */
export class ErrorResponses {
  readonly responses: Record<string, unknown> = {};
  private readonly names = new Map<string, string>();

  answer(status: string, description: string, withBody: boolean): Record<string, unknown> {
    if (!withBody) return errorBody(status, description, false);
    const key = `${status} ${description}`;
    let name = this.names.get(key);
    if (!name) {
      const code = Number(status);
      const base = STANDARD_ERRORS[code] === description ? STANDARD_RESPONSE_NAMES[code]! : responseName(status, description);
      name = base;
      for (let n = 2; this.responses[name]; n++) name = `${base}_${n}`;
      this.names.set(key, name);
      this.responses[name] = errorBody(status, description, true);
    }
    return { $ref: `#/components/responses/${name}` };
  }
}

/** What the header and envelope references point at; `schemas` join the document's named schemas. */
export const sharedComponents = {
  schemas: { ErrorEnvelope: errorEnvelope, ValidationErrorEnvelope: validationEnvelope } as Record<string, JsonSchema>,
  headers,
};
