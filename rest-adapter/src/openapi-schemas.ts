// JSON Schemas for the OpenAPI document, from the zod schemas that validate: standard formats only (zod's
// `starts_with`, `ends_with` and `includes` are not formats any validator knows; the pattern beside them
// says the same), and every schema with a title named once in `components.schemas`, referenced where it
// is used, so generated clients get a `Project` or `UserProfile` type rather than hundreds of inline shapes.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/** zod's names for string checks that JSON Schema has no format for (each also emits a `pattern`). */
const NON_STANDARD_FORMATS = new Set(["starts_with", "ends_with", "includes"]);

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return standardFormats(rest) as JsonSchema;
}

function standardFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(standardFormats);
  if (typeof node !== "object" || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "format" && typeof value === "string" && NON_STANDARD_FORMATS.has(value)) continue;
    out[key] = standardFormats(value);
  }
  return out;
}

const componentName = (title: string) => title.replace(/[^A-Za-z0-9_.-]+/g, "_");

/** Collects titled schemas as components; `named` answers a schema with each titled part as a `$ref`. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly serialized = new Map<string, string>();

  named(schema: JsonSchema, io: "input" | "output"): JsonSchema {
    return this.walk(schema, io) as JsonSchema;
  }

  private walk(node: unknown, io: "input" | "output"): unknown {
    if (Array.isArray(node)) return node.map((item) => this.walk(item, io));
    if (typeof node !== "object" || node === null) return node;
    const inner: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      // `properties` maps names to schemas: a property called "title" is not a title.
      inner[key] =
        key === "properties" && typeof value === "object" && value !== null
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, this.walk(property, io)]))
          : this.walk(value, io);
    }
    const isSchema = ["type", "anyOf", "oneOf", "allOf", "enum", "const"].some((key) => key in inner);
    if (typeof inner.title !== "string" || !isSchema) return inner;
    return { $ref: `#/components/schemas/${this.register(componentName(inner.title), inner, io)}` };
  }

  /** The component's name: the title, or (when the same title names another shape) a distinct one. */
  private register(base: string, schema: JsonSchema, io: "input" | "output"): string {
    const text = JSON.stringify(schema);
    const known = this.serialized.get(text);
    if (known) return known;
    const candidates = [base, `${base}${io === "input" ? "Input" : "Output"}`];
    for (let n = 2; candidates.length < 50; n++) candidates.push(`${base}${n}`);
    const name = candidates.find((candidate) => !this.schemas[candidate])!;
    this.schemas[name] = schema;
    this.serialized.set(text, name);
    return name;
  }
}
