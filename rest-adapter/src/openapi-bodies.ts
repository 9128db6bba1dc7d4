// Request bodies for the OpenAPI document. The fields that travel in the path or in headers are taken out
// of the input's schema (they are documented as parameters), and a JSON body whose input has a title is
// written once in `components.requestBodies` under that title and referenced, so two operations taking
// one input (POST /workflow and /workflow/estimate, sign-up and log-in) share it and generated clients name
// it. requestBodies, not schemas: a client generator reads a field with a default there as one the caller
// may leave out (openapi-typescript makes it required in a schema component, as for an answer).
import type { JsonSchema, SchemaComponents } from "./openapi-schemas.ts";

export type ObjectSchema = { properties?: Record<string, unknown>; required?: string[]; allOf?: unknown[]; [key: string]: unknown };

/** The input schema without `fields` (also inside an intersection, whose emptied parts are dropped). */
export function withoutFields(schema: ObjectSchema, fields: readonly string[]): ObjectSchema {
  if (fields.length === 0) return schema;
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as ObjectSchema[])
      .map((part) => withoutFields(part, fields))
      .filter((part) => !(part.type === "object" && part.properties && Object.keys(part.properties).length === 0 && !part.title));
    const { allOf: _a, ...rest } = schema;
    return parts.length === 1 && Object.keys(rest).length === 0 ? parts[0]! : { ...rest, allOf: parts };
  }
  if (!schema.properties) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !fields.includes(name)));
  const required = schema.required?.filter((name) => !fields.includes(name));
  const { required: _r, ...rest } = schema;
  return { ...rest, properties, ...(required?.length ? { required } : {}) };
}

/**
 * Whether a caller must send a body: only when the input has a field it must fill. An input whose fields
 * are all optional or defaulted (POST /user/api-key's `scope`, DELETE /notifications/subscribe's
 * `endpoint`) is served with no body at all, so the document says the body may be left out.
 */
export function needsBody(schema: ObjectSchema): boolean {
  if ((schema.required?.length ?? 0) > 0) return true;
  return Array.isArray(schema.allOf) && (schema.allOf as ObjectSchema[]).some(needsBody);
}

const componentName = (title: string) => title.replace(/[^A-Za-z0-9_.-]+/g, "_");

export class RequestBodies {
  readonly bodies: Record<string, unknown> = {};
  private readonly serialized = new Map<string, string>();

  constructor(private readonly schemas: SchemaComponents) {}

  /** A JSON body: a reference to `components.requestBodies` when its input is titled, else written here. */
  json(schema: JsonSchema): Record<string, unknown> {
    const { title, ...untitled } = schema;
    const required = needsBody(schema as ObjectSchema);
    if (typeof title !== "string") {
      return { required, content: { "application/json": { schema: this.schemas.named(schema, "input") } } };
    }
    const body = { required, content: { "application/json": { schema: this.schemas.named(untitled, "input") } } };
    const text = JSON.stringify(body);
    let name = this.serialized.get(text);
    if (!name) {
      const base = componentName(title);
      name = base;
      for (let n = 2; this.bodies[name]; n++) name = `${base}${n}`;
      this.bodies[name] = body;
      this.serialized.set(text, name);
    }
    return { $ref: `#/components/requestBodies/${name}` };
  }
}
