import { z } from "zod";

/** The REST envelope of SPEC 1: `{ success, data }` or `{ success: false, error }`. */
export const ErrorEnvelope = z.object({ success: z.literal(false), error: z.string() });
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const Email = z
  .string({ error: (issue) => (issue.input === undefined ? "email is required" : "email must be a string") })
  .trim()
  .max(254, { error: "email must be at most 254 characters" })
  .pipe(z.email({ error: "email must be a valid e-mail address" }));

export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;

export const IsoDateTime = z.string().describe("ISO 8601 date-time");
