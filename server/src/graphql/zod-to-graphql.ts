// GraphQL types from the operations' zod schemas, through their JSON Schema (the same one OpenAPI
// documents): objects become object or input types, enums enums, arrays lists, and a required field
// non-null. Names come from a schema's `title` (`.meta({ title })`), else from where it stands.
// Field names are camel-cased (`credits_balance` → `creditsBalance`) and mapped back both ways. Only
// data that is really free-form (a record, `unknown`) becomes the JSON scalar.
import {
  type GraphQLEnumValueConfigMap,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLOutputType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from "graphql";
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

export const JSONScalar = new GraphQLScalarType({
  name: "JSON",
  description: "Free-form JSON (records keyed by data, provider metadata)",
  serialize: (value) => value,
  parseValue: (value) => value,
});

export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // Without `$schema`, a shared schema (Job) has the same shape at the root and nested, so it is one type.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema & { $schema?: string };
  return json;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

/** `credits_balance` → `creditsBalance`; GraphQL names are [_A-Za-z][_0-9A-Za-z]*. */
export function fieldName(key: string): string {
  const camel = key.replace(/[_-]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[^_0-9A-Za-z]/g, "_");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

const enumValueName = (value: string) => {
  const name = value.replace(/[^_0-9A-Za-z]/g, "_");
  return /^[0-9]/.test(name) ? `_${name}` : name;
};

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
function mergeAllOf(schema: JsonSchema): JsonSchema {
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

const isStringOrStringList = (options: JsonSchema[]) =>
  options.every((o) => o.type === "string" || (o.type === "array" && o.items?.type === "string"));

/** Builds GraphQL types once per name and shape, so shared schemas become one shared type. */
export class TypeRegistry {
  private readonly outputs = new Map<string, GraphQLObjectType>();
  private readonly inputs = new Map<string, GraphQLInputObjectType>();
  private readonly enums = new Map<string, GraphQLEnumType>();
  private readonly enumByValues = new Map<string, GraphQLEnumType>();
  private readonly shapes = new Map<string, string>();
  private readonly names = new Set<string>();

  private uniqueName(wanted: string, shape: string): { name: string; existing: boolean } {
    const known = this.shapes.get(`${wanted}|${shape}`);
    if (known) return { name: known, existing: true };
    let name = wanted;
    for (let i = 2; this.names.has(name); i++) name = `${wanted}${i}`;
    this.names.add(name);
    this.shapes.set(`${wanted}|${shape}`, name);
    return { name, existing: false };
  }

  private enumType(schema: JsonSchema, fallbackName: string): GraphQLEnumType {
    const values = (schema.enum ?? []).map(String);
    const key = [...values].sort().join("|");
    const byValues = this.enumByValues.get(key);
    if (byValues) return byValues;
    const { name } = this.uniqueName(schema.title ?? fallbackName, `enum:${key}`);
    const config: GraphQLEnumValueConfigMap = {};
    for (const value of values) config[enumValueName(value)] = { value };
    const type = new GraphQLEnumType({ name, values: config, description: schema.description });
    this.enums.set(name, type);
    this.enumByValues.set(key, type);
    return type;
  }

  /** The GraphQL output type of a JSON Schema, non-null unless `nullable`. */
  output(raw: JsonSchema, name: string, nullable = false): GraphQLOutputType {
    const unwrapped = unwrapNullable(raw);
    const type = this.outputNullable(mergeAllOf(unwrapped.schema), name);
    return nullable || unwrapped.nullable ? type : new GraphQLNonNull(type);
  }

  private outputNullable(schema: JsonSchema, name: string): Exclude<GraphQLOutputType, GraphQLNonNull<never>> {
    if (schema.enum?.every((v) => typeof v === "string")) return this.enumType(schema, name);
    const scalar = scalarOf(schema);
    if (scalar) return scalar;
    if (schema.type === "array" && schema.items) {
      return new GraphQLList(this.output(schema.items, name)) as Exclude<GraphQLOutputType, GraphQLNonNull<never>>;
    }
    const options = schema.anyOf ?? schema.oneOf;
    if (options && isStringOrStringList(options)) return new GraphQLList(new GraphQLNonNull(GraphQLString));
    if (schema.type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
      return this.objectType(schema, schema.title ?? name);
    }
    return JSONScalar;
  }

  private objectType(schema: JsonSchema, wanted: string): GraphQLObjectType {
    const { name, existing } = this.uniqueName(wanted, JSON.stringify(schema));
    if (existing) return this.outputs.get(name)!;
    const properties = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const type: GraphQLObjectType = new GraphQLObjectType({
      name,
      description: schema.description,
      fields: () => {
        const fields: GraphQLFieldConfigMap<Record<string, unknown>, unknown> = {};
        for (const [key, property] of Object.entries(properties)) {
          fields[fieldName(key)] = {
            type: this.output(property, `${name}${pascal(key)}`, !required.has(key)),
            description: property.description,
            resolve: (parent) => parent[key] ?? null,
          };
        }
        return fields;
      },
    });
    this.outputs.set(name, type);
    return type;
  }

  /** The GraphQL input type of a JSON Schema; non-null when required and neither nullable nor defaulted. */
  input(raw: JsonSchema, name: string, required: boolean): GraphQLInputType {
    const unwrapped = unwrapNullable(raw);
    const type = this.inputNullable(mergeAllOf(unwrapped.schema), name);
    return required && !unwrapped.nullable && raw.default === undefined ? new GraphQLNonNull(type) : type;
  }

  private inputNullable(schema: JsonSchema, name: string): Exclude<GraphQLInputType, GraphQLNonNull<never>> {
    if (schema.enum?.every((v) => typeof v === "string")) return this.enumType(schema, name);
    const scalar = scalarOf(schema);
    if (scalar) return scalar;
    if (schema.type === "array" && schema.items) {
      return new GraphQLList(this.input(schema.items, name, true)) as Exclude<GraphQLInputType, GraphQLNonNull<never>>;
    }
    const options = schema.anyOf ?? schema.oneOf;
    // `formats`: a list of strings, or one comma-separated string (GraphQL coerces a single value to a list).
    if (options && isStringOrStringList(options)) return new GraphQLList(new GraphQLNonNull(GraphQLString));
    if (schema.type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
      return this.inputObjectType(schema, `${schema.title ?? name}Input`);
    }
    return JSONScalar;
  }

  private inputObjectType(schema: JsonSchema, wanted: string): GraphQLInputObjectType {
    const { name, existing } = this.uniqueName(wanted, `input:${JSON.stringify(schema)}`);
    if (existing) return this.inputs.get(name)!;
    const properties = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const type = new GraphQLInputObjectType({
      name,
      description: schema.description,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const [key, property] of Object.entries(properties)) {
          fields[fieldName(key)] = {
            type: this.input(property, `${name.replace(/Input$/, "")}${pascal(key)}`, required.has(key)),
            description: property.description,
          };
        }
        return fields;
      },
    });
    this.inputs.set(name, type);
    return type;
  }

  /** Arguments of a root field: the top-level fields of the operation's input object. */
  args(schema: JsonSchema, name: string): GraphQLInputFieldConfigMap {
    const merged = mergeAllOf(unwrapNullable(schema).schema);
    const required = new Set(merged.required ?? []);
    const args: GraphQLInputFieldConfigMap = {};
    for (const [key, property] of Object.entries(merged.properties ?? {})) {
      args[fieldName(key)] = { type: this.input(property, `${name}${pascal(key)}`, required.has(key)), description: property.description };
    }
    return args;
  }
}

function scalarOf(schema: JsonSchema): GraphQLScalarType | null {
  const type = schema.type ?? (schema.const !== undefined ? typeof schema.const : undefined);
  switch (type) {
    case "string":
      return GraphQLString;
    case "integer":
      return GraphQLInt;
    case "number":
      return GraphQLFloat;
    case "boolean":
      return GraphQLBoolean;
    default:
      return null;
  }
}

/**
 * GraphQL arguments back to the operation's raw input: camel-cased names to the schema's keys, and
 * a null given for a field that does not take null to "not given".
 */
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
