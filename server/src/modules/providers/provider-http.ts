// One HTTP exchange with a provider's documented API: a deadline, errors as ProviderError, JSON checked
// against the part of the documented shape the adapter reads.
import type { z } from "zod";
import { failureForStatus, ProviderError } from "./provider-error.ts";

export interface ProviderRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the service in messages ("the picture service"). */
  service: string;
}

async function exchange(url: string, request: ProviderRequest): Promise<Response> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  try {
    return await fetch(url, {
      method: request.method ?? (request.json === undefined ? "GET" : "POST"),
      headers: { ...(request.json === undefined ? {} : { "content-type": "application/json" }), ...request.headers },
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    if (timeout.aborted) throw new ProviderError(`${request.service} did not answer within ${request.timeoutMs / 1000} s`, "timeout");
    throw new ProviderError(`${request.service} could not be reached`, "unavailable");
  }
}

/** The answer's JSON, checked against `shape`. */
export async function providerJson<S extends z.ZodType>(url: string, shape: S, request: ProviderRequest): Promise<z.output<S>> {
  const response = await exchange(url, request);
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const kind = failureForStatus(response.status);
    throw new ProviderError(
      kind === "refused" ? `${request.service} refused the request` : `${request.service} answered HTTP ${response.status}`,
      kind,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`${request.service} answered something that is not JSON`, "malformed");
  }
  const parsed = shape.safeParse(body);
  if (!parsed.success) throw new ProviderError(`${request.service} answered in an unexpected shape`, "malformed");
  return parsed.data;
}

/** The bytes at `url` (a generated file on the provider's storage), at most `maxBytes`. */
export async function providerBytes(url: string, request: ProviderRequest & { maxBytes: number }): Promise<Buffer> {
  if (!/^https:\/\//.test(url)) throw new ProviderError(`${request.service} answered a file address that is not https`, "malformed");
  const response = await exchange(url, request);
  if (!response.ok)
    throw new ProviderError(`${request.service}'s file answered HTTP ${response.status}`, failureForStatus(response.status));
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > request.maxBytes)
    throw new ProviderError(`${request.service}'s file is larger than ${request.maxBytes} bytes`, "malformed");
  return bytes;
}

/** Runs `attempt` until it succeeds, a permanent failure, or `tries` transient failures (backing off between). */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: { tries: number; backoffMs: number; signal?: AbortSignal },
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.transient || n >= options.tries || options.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.backoffMs * 2 ** (n - 1)));
    }
  }
}
