// What can go wrong at a remote generation provider, in the words a user may read: no provider is ever
// named in a message (the job's error and warnings say "the picture service", never a company).
export type ProviderFailure = "timeout" | "unavailable" | "refused" | "malformed";

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderFailure,
  ) {
    super(message);
    this.name = "ProviderError";
  }

  /** Worth another try: a timeout, a 5xx or 429, a dropped connection. Refused content and nonsense are not. */
  get transient(): boolean {
    return this.kind === "timeout" || this.kind === "unavailable";
  }
}

/** The HTTP status of a provider's answer as a failure: 400/422 are the request refused, 5xx and 429 transient. */
export function failureForStatus(status: number): ProviderFailure {
  if (status === 429 || status >= 500) return "unavailable";
  return status === 400 || status === 422 ? "refused" : "unavailable";
}
