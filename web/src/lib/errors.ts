// Turning tRPC errors into what a form shows: a validation answer lists its fields (`data.fields`, each
// with a message for people); each message goes next to its field, anything else becomes the form-level
// alert. Messages that only start with a field key ("url must be …", several joined by "; ") still split.
import { TRPCClientError } from "@trpc/client";

interface ErrorData {
  code?: string;
  httpStatus?: number;
  /** Validation answers: one entry per invalid field, keyed for machines (the message is for people). */
  fields?: { field: string; message: string }[];
}

function errorData(error: unknown): ErrorData | undefined {
  if (error instanceof TRPCClientError) return (error.data ?? undefined) as ErrorData | undefined;
  if (error && typeof error === "object" && "data" in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === "object") return data as ErrorData;
  }
  return undefined;
}

/** The tRPC error code (BAD_REQUEST, UNAUTHORIZED, …), when the server answered. */
export function errorCode(error: unknown): string | undefined {
  return errorData(error)?.code;
}

export function isUnauthorized(error: unknown): boolean {
  return errorCode(error) === "UNAUTHORIZED";
}

const NETWORK_MESSAGE = "Could not reach AdGen. Check your connection and try again.";

/** A human sentence for any error: the server's own message, or a plain network message. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    if (!error.data && (error.cause instanceof TypeError || /fetch|network/i.test(error.message))) return NETWORK_MESSAGE;
    return error.message || "Something went wrong. Please try again.";
  }
  if (error instanceof TypeError) return NETWORK_MESSAGE;
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Please try again.";
}

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface SplitErrors<F extends string> {
  fields: FieldErrors<F>;
  form: string | null;
}

function fieldOf<F extends string>(part: string, fields: readonly F[]): F | undefined {
  // Longest name first so "newPassword" is never taken for a field called "new".
  const sorted = [...fields].sort((a, b) => b.length - a.length);
  return sorted.find(
    (field) => part === field || part.startsWith(`${field} `) || part.startsWith(`${field}:`) || part.startsWith(`${field}.`),
  );
}

/** Splits a server message into per-field messages and a form-level remainder. */
export function splitMessage<F extends string>(message: string, fields: readonly F[]): SplitErrors<F> {
  const result: SplitErrors<F> = { fields: {}, form: null };
  const rest: string[] = [];
  for (const raw of message.split("; ")) {
    const part = raw.trim();
    if (!part) continue;
    const field = fieldOf(part, fields);
    if (field) {
      const prev = result.fields[field];
      result.fields[field] = prev ? `${prev} ${part}` : part;
    } else {
      rest.push(part);
    }
  }
  if (rest.length > 0) result.form = rest.join(" ");
  return result;
}

/** Field and form errors for a failed mutation: validation messages by field, the rest form-level. */
export function splitServerError<F extends string>(error: unknown, fields: readonly F[]): SplitErrors<F> {
  const code = errorCode(error);
  // Only validation answers name fields; "Invalid email or password" is about the pair, not one field.
  // The server's `fields` list says which field each message is about; older answers only had the message.
  const listed = errorData(error)?.fields;
  if (code === "BAD_REQUEST" && listed?.length) {
    return issuesToFieldErrors(
      listed.map((entry) => ({ path: entry.field ? entry.field.split(".") : [], message: entry.message })),
      fields,
    );
  }
  if (code === "BAD_REQUEST") return splitMessage(errorMessage(error), fields);
  return { fields: {}, form: errorMessage(error) };
}

interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/** Per-field messages from a failed zod `safeParse` of a shared schema (first message per field). */
export function issuesToFieldErrors<F extends string>(issues: readonly IssueLike[], fields: readonly F[]): SplitErrors<F> {
  const result: SplitErrors<F> = { fields: {}, form: null };
  for (const issue of issues) {
    // A nested field ("models.image") by its dotted path, else by its top-level name.
    const dotted = issue.path.map(String).join(".");
    const head = issue.path[0];
    const field = fields.find((f) => f === dotted) ?? fields.find((f) => f === head);
    if (field) {
      if (!result.fields[field]) result.fields[field] = issue.message;
    } else if (!result.form) {
      result.form = issue.message;
    }
  }
  return result;
}
