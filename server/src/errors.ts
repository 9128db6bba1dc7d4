// Domain errors. Every module throws these; each transport maps `code` to its own form in one table
// (REST status codes, tRPC codes, GraphQL extensions).
import type { z } from "zod";

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra facts a transport may expose (e.g. rate-limit reset time). */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const Errors = {
  unauthenticated: () => new AppError("UNAUTHORIZED", "Authentication required"),
  invalidCredentials: () => new AppError("UNAUTHORIZED", "Invalid email or password"),
  suspended: () => new AppError("FORBIDDEN", "Account suspended"),
  adminRequired: () => new AppError("FORBIDDEN", "admin access required"),
  notFound: (what: string) => new AppError("NOT_FOUND", `${what} not found`),
  internal: () => new AppError("INTERNAL", "Internal server error"),
};

/**
 * Whether a message written for people already speaks of the field in words: "Your new password must…"
 * of `newPassword`, "Enter your e-mail address" of `email`. Such a message needs no field key in front;
 * the key stays, for machines, in the error's `fields`.
 */
function speaksOf(message: string, field: string): boolean {
  if (!/[a-z]/i.test(field)) return false;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const text = ` ${message
    .toLowerCase()
    .replace(/-/g, "")
    .replace(/[^a-z0-9]+/g, " ")} `;
  return words.length > 0 && text.includes(` ${words.join(" ")} `);
}

/**
 * A message with no subject: zod's own wording ("Invalid input: expected string", "Too small: …") or a
 * bare "must be…" / "a colour must…". Only these get the field key in front; a message written for
 * people ("The concept must be text") already says what it is about, and the key travels in `fields`.
 */
const SUBJECTLESS = /^(Invalid|Too (small|big)|Unrecognized key|Expected|must|is|are|a|an)\b/;

/** One readable sentence from zod issues: names the field and says what to fix. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      if (!path) return issue.message;
      const field = String(issue.path.at(-1));
      // "Idempotency-Key must…" already names the field `idempotencyKey`.
      const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
      const named =
        !SUBJECTLESS.test(issue.message) ||
        issue.message.startsWith(path) ||
        plain(issue.message).startsWith(plain(field)) ||
        speaksOf(issue.message, field);
      return named ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** One entry per invalid field, for machines: `field` is the dotted path (empty for the whole input). */
export interface FieldError {
  field: string;
  message: string;
}

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
}

/** A lone UTF-16 surrogate: no text field may hold one (JSON can't encode it as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = String.fromCharCode(0);

/** How deep an input may nest: far beyond any real one, and shallow enough for anything recursive after. */
export const MAX_INPUT_DEPTH = 32;

type Key = string | number;
/** An object or array met in the walk, linked to its parent so a path is spelled only when it is reported. */
interface Level {
  value: object;
  key: Key | null;
  parent: Level | null;
  depth: number;
}

const pathOf = (level: Level | null, last?: Key): string => {
  const keys: Key[] = last === undefined ? [] : [last];
  for (let at = level; at && at.key !== null; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
};

type Unsafe = { kind: "depth" | "nul" | "surrogate"; path: string };

/** A NUL (PostgreSQL refuses it in text) or a lone surrogate. */
const textProblem = (text: string): Unsafe["kind"] | null => (text.includes(NUL) ? "nul" : LONE_SURROGATE.test(text) ? "surrogate" : null);

/**
 * The first thing in `value` that must not go further: an object or array nested deeper than
 * MAX_INPUT_DEPTH levels, or a string (or key) no text field can hold, at any depth. Iterative, so a
 * value nested thousands of levels deep is refused here instead of overflowing the stack later (zod,
 * serialising JSON for the database).
 */
export function unsafeInput(value: unknown): Unsafe | null {
  if (typeof value === "string") {
    const kind = textProblem(value);
    return kind ? { kind, path: "" } : null;
  }
  if (typeof value !== "object" || value === null) return null;
  const pending: Level[] = [{ value, key: null, parent: null, depth: 1 }];
  for (let level = pending.pop(); level; level = pending.pop()) {
    if (level.depth > MAX_INPUT_DEPTH) return { kind: "depth", path: pathOf(level) };
    const parent = level;
    const visit = (key: Key, item: unknown): Unsafe | null => {
      const kind = typeof item === "string" ? textProblem(item) : null;
      if (kind) return { kind, path: pathOf(parent, key) };
      if (typeof item === "object" && item !== null) pending.push({ value: item, key, parent, depth: parent.depth + 1 });
      return null;
    };
    if (Array.isArray(parent.value)) {
      for (let i = 0; i < parent.value.length; i += 1) {
        const found = visit(i, parent.value[i]);
        if (found) return found;
      }
      continue;
    }
    for (const [key, item] of Object.entries(parent.value)) {
      const kind = textProblem(key);
      const found = kind ? { kind, path: pathOf(parent, key) } : visit(key, item);
      if (found) return found;
    }
  }
  return null;
}

const UNSAFE_MESSAGE: Record<Unsafe["kind"], (field: string) => string> = {
  depth: (field) => `The input nests deeper than ${MAX_INPUT_DEPTH} levels at ${field}`,
  nul: (field) => `${field} must not contain a NUL character (\\u0000)`,
  surrogate: (field) => `${field} contains invalid Unicode (an unpaired surrogate)`,
};

/**
 * Validates input with a shared schema; bad input becomes a 400 naming the field. Every operation's input
 * passes here, on every transport, so the rules on depth, NUL characters and lone surrogates are made once,
 * before the schema (or anything else recursive) looks at the value.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const bad = unsafeInput(input);
  if (bad) {
    const message = UNSAFE_MESSAGE[bad.kind](bad.path || "input");
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: bad.path, message }] });
  }
  const result = schema.safeParse(input === undefined ? {} : input);
  if (!result.success) {
    throw new AppError("BAD_REQUEST", formatIssues(result.error.issues), { fields: fieldErrors(result.error.issues) });
  }
  return result.data;
}

/** The SQLSTATE of a database error, from Prisma's error or the PGlite adapter's raw one. */
export function sqlState(error: unknown): string | undefined {
  const e = error as {
    code?: string;
    cause?: { code?: string };
    meta?: { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } };
  };
  const adapter = e?.meta?.driverAdapterError?.cause;
  return adapter?.originalCode ?? adapter?.code ?? e?.cause?.code ?? (e?.code === "P2002" ? "23505" : undefined);
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === "23505";
}
