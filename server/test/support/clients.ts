// Small clients for the three transports, as an outside caller would use them.
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import type { AppRouter } from "../../src/trpc/router.ts";
import { FetchEventSource } from "./fetch-event-source.ts";

export interface RestResult<T = any> {
  status: number;
  body: { success: boolean; data?: T; error?: string };
  headers: Headers;
  cookie: string | null;
  /** The answer's X-Request-Id (an error envelope's `requestId`, checked equal, is moved here). */
  requestId: string | null;
  /** A 400's fields, keyed for machines (moved out of the envelope, like `requestId`). */
  fields?: { field: string; message: string }[];
}

/**
 * Every answer carries `X-Request-Id`, and every error answer the same id in its body. The clients check
 * that on each call and take the id out of the body, so tests compare bodies in their SPEC shape
 * (`{ success: false, error }`) and read the id from `requestId`.
 */
function takeRequestId(where: string, header: string | null, carriers: { requestId?: unknown }[]): string | null {
  if (!header) throw new Error(`${where}: the answer has no X-Request-Id header`);
  for (const carrier of carriers) {
    if (carrier.requestId !== header) {
      throw new Error(`${where}: an error carries requestId ${JSON.stringify(carrier.requestId)}, not the header's ${header}`);
    }
    delete carrier.requestId;
  }
  return header;
}

/** A REST caller that keeps the session cookie like a browser would. */
export class RestClient {
  cookie: string | null = null;
  constructor(
    readonly baseUrl: string,
    readonly options: { bearer?: string; ip?: string } = {},
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResult<T>> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h["content-type"] ??= "application/json";
    if (this.cookie) h.cookie = `session=${this.cookie}`;
    if (this.options.bearer) h.authorization = `Bearer ${this.options.bearer}`;
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("session="));
    let cookie: string | null = null;
    if (setCookie) {
      cookie = setCookie.slice("session=".length).split(";")[0] ?? "";
      this.cookie = cookie || null;
    }
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : {};
    const requestId = takeRequestId(`${method} ${path}`, response.headers.get("x-request-id"), parsed.success === false ? [parsed] : []);
    const fields = parsed.success === false ? parsed.fields : undefined;
    if (fields) delete parsed.fields;
    return {
      status: response.status,
      body: parsed,
      headers: response.headers,
      cookie: setCookie ?? null,
      requestId,
      ...(fields ? { fields } : {}),
    };
  }

  get = <T = any>(path: string) => this.call<T>("GET", path);
  post = <T = any>(path: string, body?: unknown) => this.call<T>("POST", path, body ?? {});
  patch = <T = any>(path: string, body?: unknown) => this.call<T>("PATCH", path, body ?? {});
  delete = <T = any>(path: string) => this.call<T>("DELETE", path);
}

export async function graphql<T = any>(baseUrl: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string; status?: number; requestId?: string } }[];
  };
  const carriers = (body.errors ?? []).map((error) => (error.extensions ??= {}));
  const requestId = takeRequestId("graphql", response.headers.get("x-request-id"), carriers);
  for (const error of body.errors ?? []) if (error.extensions && Object.keys(error.extensions).length === 0) delete error.extensions;
  return { status: response.status, body, requestId };
}

export function trpcClient(baseUrl: string, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
  });
}

/** The same, with subscriptions over SSE as the SPA reads them (httpSubscriptionLink). */
export function trpcSubscriptionClient(baseUrl: string, token?: string) {
  const headers = () => (token ? { authorization: `Bearer ${token}` } : {});
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url: `${baseUrl}/trpc`,
          EventSource: FetchEventSource as unknown as typeof EventSource,
          eventSourceOptions: () => ({ headers: headers() }) as EventSourceInit,
        }),
        false: httpLink({ url: `${baseUrl}/trpc`, headers }),
      }),
    ],
  });
}

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}
