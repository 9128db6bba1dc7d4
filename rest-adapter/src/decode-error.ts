// A request the adapter cannot decode into an operation's input (not JSON, a malformed path segment, an
// upload too large): answered with its status before the operation runs.
export class DecodeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
