// The process's log: JSON lines on stdout (pino), one object per event, filtered by LOG_LEVEL.
// Call sites log ids, names, counts and messages, never bodies or headers; the redaction below is the
// safety net for a secret passed by mistake.
import { type DestinationStream, destination, type Logger, pino, stdTimeFunctions } from "pino";

export type { Logger } from "pino";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "apiKey",
  "authorization",
  "cookie",
  "set-cookie",
  "body",
];

/** Every secret-looking key at the top of a line and one level down (`{ headers: { cookie } }`). */
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => {
  const segment = /^\w+$/.test(key) ? `.${key}` : `["${key}"]`;
  return [segment.replace(/^\./, ""), `*${segment}`];
});

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout by default (tests pass a memory stream). */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      timestamp: stdTimeFunctions.isoTime,
      // "level":"warn" reads better than "level":40 for a person with grep or jq.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    },
    // Written asynchronously: a synchronous write was a system call per request line, on the request's
    // path. Lines logged while a write is under way go out together with the next (logging's share of a
    // REST profile read's CPU, to /dev/null: 9.8 % → 7.8 %; more where stdout is a pipe). pino flushes
    // what is left when the process exits, so a line logged just before process.exit (a failed start-up)
    // still reaches stdout. Should stdout stop taking lines, more than 16 MB waiting are dropped rather
    // than held without end.
    options.destination ?? destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 }),
  );
}

let fallback: Logger | null = null;

/** For the few functions tests call without services (migrations, opening a database): stdout at info. */
export function defaultLogger(): Logger {
  fallback ??= createLogger({ level: "info" });
  return fallback;
}
