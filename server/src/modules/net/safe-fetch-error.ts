// The one error the SSRF-safe fetch throws, from the URL checks, the redirects and the transport alike, so
// callers branch on `reason` and show `message` or `detail` without caring which stage refused.
import { AppError } from "../../errors.ts";

/**
 * Why an outbound request was refused or failed. `unsafe_url` is the caller's mistake (scheme, credentials,
 * local or private target, host not allowed); the others describe the remote side.
 */
export type SafeFetchFailure = "unsafe_url" | "unresolvable" | "redirects" | "too_large" | "timeout" | "network";

/** Every refusal and failure is an AppError BAD_REQUEST (REST 400 with `message`). */
export class SafeFetchError extends AppError {
  readonly reason: SafeFetchFailure;
  /** The reason without the URL, for composing messages such as "could not fetch <url>: <detail>". */
  readonly detail: string;

  constructor(reason: SafeFetchFailure, message: string, detail: string = message) {
    super("BAD_REQUEST", message);
    this.name = "SafeFetchError";
    this.reason = reason;
    this.detail = detail;
  }
}

/** A body over the limit, whether declared by content-length or found while reading. */
export function tooLarge(url: string, maxBytes: number): SafeFetchError {
  const detail = `response is larger than ${maxBytes} bytes`;
  return new SafeFetchError("too_large", `response from ${url} is larger than the ${maxBytes}-byte limit`, detail);
}
