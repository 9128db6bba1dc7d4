// Pothos types for the catalogue's operations, from their JSON Schema: objects become object or input
// types, enums enums, arrays lists, and a required field non-null. Names come from a schema's `title`
// (`.meta({ title })`), else from where it stands; the same name and shape is one shared type. Field
// names are camel-cased (`credits_balance` → `creditsBalance`). Only data that is really free-form (a
// record, `unknown`) becomes the JSON scalar; a field whose schema stays open for REST but whose shapes
// GraphQL knows gets its own type through `override` (job-event-result.ts). Types are described now and
// defined on the builder by `define()`, so their names are settled in a fixed order (outputs before
// inputs) whatever Pothos does.
import type { Builder } from "../builder.ts";
import { isStringOrStringList, type JsonSchema, mergeAllOf, scalarOf, unwrapNullable } from "./json-schema.ts";
import { enumValueName, fieldName, pascal } from "./names.ts";

/** A named type (a Pothos ref or a scalar's name), or a list of one. */
export interface TypeUse {
  ref: any;
  /** Set for a list: whether its items may be null. */
  list?: { itemsNullable: boolean };
  /** Set for a record keyed by data (workflow type → count): GraphQL lists its `{ key, value }` entries. */
  entries?: true;
}

interface FieldPlan {
  key: string;
  use: TypeUse;
  nullable: boolean;
  description: string | undefined;
  /** Set for a field whose GraphQL value is derived from its parent's (an override). */
  resolve?: (parent: any) => unknown;
}

/**
 * A GraphQL-only type for one output field whose schema must stay open (REST, tRPC and SSE answer it as
 * it is stored): its type, and how its value is read from the parent.
 */
export interface FieldOverride {
  use: TypeUse;
  nullable: boolean;
  description: string;
  resolve: (parent: any) => unknown;
}

interface Pending {
  plan: () => FieldPlan[];
  planned?: FieldPlan[];
}

export class CatalogueTypes {
  private readonly objects = new Map<string, { ref: any; pending: Pending; description?: string }>();
  private readonly inputs = new Map<string, { ref: any; pending: Pending; description?: string }>();
  private readonly enumByValues = new Map<string, any>();
  private readonly shapes = new Map<string, string>();
  private readonly names = new Set<string>();
  private readonly overrides = new Map<string, () => FieldOverride>();

  constructor(private readonly builder: Builder) {}

  /**
   * Gives the output field `type.field` (a type's GraphQL name, the field's schema key) its own GraphQL
   * type. `make` runs when the type's fields are planned, so it may ask for other catalogue types.
   */
  override(type: string, field: string, make: () => FieldOverride): void {
    this.overrides.set(`${type}.${field}`, make);
  }

  /**
   * An object type with the fields of the catalogue type `of` (once planned), every one nullable: a part of
   * such an object (a worker's update of a result). Its nested types are `of`'s own.
   */
  partialOf(of: any, name: string, description: string): any {
    const source = [...this.objects.values()].find((entry) => entry.ref === of);
    if (!source) throw new Error(`partialOf: ${String(of)} is not a catalogue object type`);
    const { name: unique } = this.uniqueName(name, `partial:${name}`);
    const ref = this.builder.objectRef<Record<string, unknown>>(unique);
    const plan = () => {
      source.pending.planned ??= source.pending.plan();
      return source.pending.planned.map((field) => ({ ...field, nullable: true }));
    };
    this.objects.set(unique, { ref, pending: { plan }, description });
    return ref;
  }

  private uniqueName(wanted: string, shape: string): { name: string; existing: boolean } {
    const known = this.shapes.get(`${wanted}|${shape}`);
    if (known) return { name: known, existing: true };
    let name = wanted;
    for (let i = 2; this.names.has(name); i++) name = `${wanted}${i}`;
    this.names.add(name);
    this.shapes.set(`${wanted}|${shape}`, name);
    return { name, existing: false };
  }

  private enumType(schema: JsonSchema, fallbackName: string): any {
    const values = (schema.enum ?? []).map(String);
    const key = [...values].sort().join("|");
    const known = this.enumByValues.get(key);
    if (known) return known;
    const { name } = this.uniqueName(schema.title ?? fallbackName, `enum:${key}`);
    const ref = this.builder.enumType(name, {
      description: schema.description ?? `Values of ${name}.`,
      values: Object.fromEntries(values.map((value) => [enumValueName(value), { value, description: value }])),
    });
    this.enumByValues.set(key, ref);
    return ref;
  }

  /** The output type of a JSON Schema, and whether it may be null. */
  output(raw: JsonSchema, name: string): { use: TypeUse; nullable: boolean } {
    const unwrapped = unwrapNullable(raw);
    return { use: this.outputUse(mergeAllOf(unwrapped.schema), name), nullable: unwrapped.nullable };
  }

  private outputUse(schema: JsonSchema, name: string): TypeUse {
    if (schema.enum?.every((v) => typeof v === "string")) return { ref: this.enumType(schema, name) };
    const scalar = scalarOf(schema);
    if (scalar) return { ref: scalar };
    if (schema.type === "array" && schema.items) {
      const item = this.output(schema.items, name);
      return item.use.list ? { ref: "JSON" } : { ref: item.use.ref, list: { itemsNullable: item.nullable } };
    }
    const options = schema.anyOf ?? schema.oneOf;
    if (options && isStringOrStringList(options)) return { ref: "String", list: { itemsNullable: false } };
    if (schema.type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
      return { ref: this.objectType(schema, schema.title ?? name) };
    }
    const entry = recordEntry(schema);
    if (entry) return { ref: this.objectType(entry, `${schema.title ?? name}Entry`), list: { itemsNullable: false }, entries: true };
    return { ref: "JSON" };
  }

  private objectType(schema: JsonSchema, wanted: string): any {
    const { name, existing } = this.uniqueName(wanted, JSON.stringify(schema));
    if (existing) return this.objects.get(name)!.ref;
    const required = new Set(schema.required ?? []);
    const ref = this.builder.objectRef<Record<string, unknown>>(name);
    const plan = () =>
      Object.entries(schema.properties ?? {}).map(([key, property]): FieldPlan => {
        const override = this.overrides.get(`${name}.${key}`);
        if (override) return { key, ...override() };
        const { use, nullable } = this.output(property, `${name}${pascal(key)}`);
        return { key, use, nullable: nullable || !required.has(key), description: property.description };
      });
    this.objects.set(name, { ref, pending: { plan }, description: schema.description });
    return ref;
  }

  /** Plans an output type's fields now, depth first, so nested enums are named before any input's. */
  settle(use: TypeUse, seen = new Set<any>()): void {
    const entry = [...this.objects.values()].find((o) => o.ref === use.ref);
    if (!entry || seen.has(entry.ref)) return;
    seen.add(entry.ref);
    entry.pending.planned ??= entry.pending.plan();
    for (const field of entry.pending.planned) this.settle(field.use, seen);
  }

  /** The input type of a JSON Schema, and whether it must be given (required, not nullable, no default). */
  input(raw: JsonSchema, name: string, required: boolean): { use: TypeUse; required: boolean } {
    const unwrapped = unwrapNullable(raw);
    return {
      use: this.inputUse(mergeAllOf(unwrapped.schema), name),
      required: required && !unwrapped.nullable && raw.default === undefined,
    };
  }

  private inputUse(schema: JsonSchema, name: string): TypeUse {
    if (schema.enum?.every((v) => typeof v === "string")) return { ref: this.enumType(schema, name) };
    const scalar = scalarOf(schema);
    if (scalar) return { ref: scalar };
    if (schema.type === "array" && schema.items) {
      const item = this.input(schema.items, name, true);
      return item.use.list ? { ref: "JSON" } : { ref: item.use.ref, list: { itemsNullable: !item.required } };
    }
    const options = schema.anyOf ?? schema.oneOf;
    // `formats`: a list of strings, or one comma-separated string (GraphQL coerces a single value to a list).
    if (options && isStringOrStringList(options)) return { ref: "String", list: { itemsNullable: false } };
    if (schema.type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
      return { ref: this.inputObjectType(schema, `${schema.title ?? name}Input`) };
    }
    return { ref: "JSON" };
  }

  private inputObjectType(schema: JsonSchema, wanted: string): any {
    const { name, existing } = this.uniqueName(wanted, `input:${JSON.stringify(schema)}`);
    if (existing) return this.inputs.get(name)!.ref;
    const required = new Set(schema.required ?? []);
    const ref = this.builder.inputRef<Record<string, unknown>>(name);
    const plan = () =>
      Object.entries(schema.properties ?? {}).map(([key, property]) => {
        const { use, required: must } = this.input(property, `${name.replace(/Input$/, "")}${pascal(key)}`, required.has(key));
        return { key, use, nullable: !must, description: property.description };
      });
    this.inputs.set(name, { ref, pending: { plan }, description: schema.description });
    return ref;
  }

  /** Arguments of a root field: the top-level fields of the operation's input object. */
  args(schema: JsonSchema, name: string): FieldPlan[] {
    const merged = mergeAllOf(unwrapNullable(schema).schema);
    const required = new Set(merged.required ?? []);
    return Object.entries(merged.properties ?? {}).map(([key, property]) => {
      const { use, required: must } = this.input(property, `${name}${pascal(key)}`, required.has(key));
      return { key, use, nullable: !must, description: property.description };
    });
  }

  /** Defines every planned type on the builder. */
  define(): void {
    // Planning an input may reveal more inputs: plan until none is left.
    for (let more = true; more; ) {
      more = false;
      for (const entry of [...this.objects.values(), ...this.inputs.values()]) {
        if (!entry.pending.planned) {
          entry.pending.planned = entry.pending.plan();
          more = true;
        }
      }
    }
    for (const [name, { ref, pending, description }] of this.objects) {
      ref.implement({
        description: description ?? `${name}.`,
        fields: (t: any) =>
          Object.fromEntries(
            pending.planned!.map((f) => [
              fieldName(f.key),
              t.field({
                ...outputOptions(f.use, f.nullable),
                description: describe(f),
                resolve: f.resolve ?? ((parent: any) => (f.use.entries ? entriesOf(parent[f.key]) : (parent[f.key] ?? null))),
              }),
            ]),
          ),
      });
    }
    for (const [name, { ref, pending, description }] of this.inputs) {
      ref.implement({
        description: description ?? `${name}.`,
        fields: (t: any) => Object.fromEntries(pending.planned!.map((f) => [fieldName(f.key), t.field(inputOptions(f))])),
      });
    }
  }
}

/**
 * A record whose values have a known shape (`z.record(z.string(), V)`), as the object type of one entry:
 * `{ key, value }`. A record of `unknown` values is really free-form and stays JSON.
 */
function recordEntry(schema: JsonSchema): JsonSchema | null {
  const values = schema.additionalProperties;
  if (schema.type !== "object" || typeof values !== "object" || Object.keys(values).length === 0) return null;
  return {
    type: "object",
    description: `One entry of a record: ${schema.description ?? "a key and its value"}`,
    properties: {
      key: { type: "string", description: "The entry's key." },
      value: { ...values, description: values.description ?? "The entry's value." },
    },
    required: ["key", "value"],
  };
}

const entriesOf = (record: unknown) =>
  record && typeof record === "object" ? Object.entries(record).map(([key, value]) => ({ key, value })) : null;

/** Pothos `type` and `nullable` of an output field. */
export function outputOptions(use: TypeUse, nullable: boolean): { type: any; nullable: any } {
  if (!use.list) return { type: use.ref, nullable };
  return { type: [use.ref], nullable: { list: nullable, items: use.list.itemsNullable } };
}

/** Pothos `type`, `required` and `description` of an input field or argument. */
export function inputOptions(field: FieldPlan): { type: any; required: any; description: string | undefined } {
  const { use, nullable } = field;
  const description = describe(field);
  if (!use.list) return { type: use.ref, required: !nullable, description };
  return { type: [use.ref], required: { list: !nullable, items: !use.list.itemsNullable }, description };
}

/**
 * A field's description: its schema's, else its name in words; and where GraphQL's camel-cased name differs
 * from the snake_case one REST and tRPC use (SPEC's names), that name too.
 */
export function describe(field: { key: string; description: string | undefined }): string {
  const own =
    field.description ??
    `${field.key
      .replace(/[_-]+/g, " ")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()}.`;
  return fieldName(field.key) === field.key ? own : `${own} (REST and tRPC: \`${field.key}\`)`;
}
