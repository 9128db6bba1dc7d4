import { z } from "zod";

/** The REST envelope of SPEC 1: `{ success, data }` or `{ success: false, error }`. */
export const ErrorEnvelope = z.object({ success: z.literal(false), error: z.string() });
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const Email = z
  .string({ error: (issue) => (issue.input === undefined ? "Enter your e-mail address" : "Your e-mail address must be text") })
  .trim()
  .max(254, { error: "Your e-mail address must be at most 254 characters" })
  .pipe(z.email({ error: "Enter a valid e-mail address, like name@example.com" }))
  .meta({ format: "email" });

/** An e-mail address the service answers (validated when it was stored): documented as `format: email`. */
export const EmailAddress = z.string().meta({ format: "email" });

/** The most calls one tRPC batch may hold: the SPA's client splits larger batches, the server refuses them. */
export const TRPC_MAX_BATCH_CALLS = 20;

export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;

export const IsoDateTime = z.string().meta({ description: "ISO 8601 date-time", format: "date-time" });

/** An http(s) address; `what` names it for people ("The page address"), the field key travels apart. */
export const webAddress = (what: string) =>
  z
    .string({ error: `${what} must be a web address` })
    .trim()
    .max(2048, { error: `${what} must be at most 2048 characters` })
    .refine(
      (s) => {
        try {
          return ["http:", "https:"].includes(new URL(s).protocol);
        } catch {
          return false;
        }
      },
      { error: `${what} must be a web address starting with http:// or https://` },
    );
