// The operations' zod schemas as JSON Schema (the same one OpenAPI documents), and the reshaping the
// GraphQL types need: nullable unions split off, intersections merged.
import { z } from "zod";

export type JsonSchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  $ref?: string;
};

export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // Without `$schema`, a shared schema (Job) has the same shape at the root and nested, so it is one type.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema & { $schema?: string };
  return json;
}

/** Splits `anyOf [X, null]` into X and whether null is allowed. */
export function unwrapNullable(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const rest = options.filter((option) => option.type !== "null");
    if (rest.length < options.length) {
      if (rest.length === 1) return { schema: { ...rest[0]!, description: schema.description ?? rest[0]!.description }, nullable: true };
      return { schema: { ...schema, anyOf: rest, oneOf: undefined }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

/** Merges `allOf` object parts (zod intersections) into one object schema. */
export function mergeAllOf(schema: JsonSchema): JsonSchema {
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map(mergeAllOf);
  return {
    type: "object",
    title: schema.title,
    description: schema.description,
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

export const isStringOrStringList = (options: JsonSchema[]) =>
  options.every((o) => o.type === "string" || (o.type === "array" && o.items?.type === "string"));

/** The GraphQL scalar of a JSON Schema leaf, or null when it is not one. */
export function scalarOf(schema: JsonSchema): "String" | "Int" | "Float" | "Boolean" | null {
  const type = schema.type ?? (schema.const !== undefined ? typeof schema.const : undefined);
  switch (type) {
    case "string":
      return "String";
    case "integer":
      return "Int";
    case "number":
      return "Float";
    case "boolean":
      return "Boolean";
    default:
      return null;
  }
}
