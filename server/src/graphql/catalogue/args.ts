// GraphQL arguments back to an operation's raw input, which the invocation path then validates.
import { type JsonSchema, mergeAllOf, unwrapNullable } from "./json-schema.ts";
import { fieldName } from "./names.ts";

/** Camel-cased names to the schema's keys, and a null given for a field that does not take null to "not given". */
export function argsToInput(value: unknown, raw: JsonSchema): unknown {
  const { schema: unwrapped } = unwrapNullable(raw);
  const schema = mergeAllOf(unwrapped);
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return schema.type === "array" && schema.items ? value.map((item) => argsToInput(item, schema.items!)) : value;
  if (typeof value !== "object" || !schema.properties) return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    const given = source[fieldName(key)];
    if (given === undefined) continue;
    if (given === null && !unwrapNullable(property).nullable) continue;
    result[key] = argsToInput(given, property);
  }
  return result;
}
