// The check, under tests (and CHECK_OPERATION_OUTPUTS=1), that an operation answers what its output schema
// says and nothing more. zod's safeParse strips keys it does not know and the handler's own value is what
// is sent, so a parse alone lets undocumented fields through to clients that trust the document (a
// review's scenes carried `motion` and `textMotion` that the closed ReviewScene schema forbids).
import type { z } from "zod";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Paths of the keys `sent` holds (with a value) that the parsed result `kept` dropped. */
export function unknownKeys(sent: unknown, kept: unknown, path = "", found: string[] = []): string[] {
  if (found.length >= 5) return found;
  if (Array.isArray(sent) && Array.isArray(kept)) {
    for (const [i, item] of sent.entries()) unknownKeys(item, kept[i], `${path}[${i}]`, found);
  } else if (isPlainObject(sent) && isPlainObject(kept)) {
    for (const [key, value] of Object.entries(sent)) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in kept)) {
        if (value !== undefined) found.push(at);
      } else unknownKeys(value, kept[key], at, found);
    }
  }
  return found;
}

/** Throws when `value` is outside `schema`, or carries fields the schema does not declare. */
export function checkOutputShape(name: string, schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`${name} answered outside its output schema: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
  }
  const extra = unknownKeys(value, result.data);
  if (extra.length) throw new Error(`${name} answered fields its output schema does not declare: ${extra.join(", ")}`);
}
