// The tRPC client for the SPA: same origin, cookie credentials, queries and mutations batched over
// HTTP, subscriptions over Server-Sent Events at the same /trpc endpoint.
import { TRPC_MAX_BATCH_CALLS } from "@adgen/schema";
import type { AppRouter } from "@adgen/server";
import { QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { errorCode, isUnauthorized } from "./lib/errors.ts";

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

const TRPC_URL = "/trpc";

/** The query key prefix tRPC gives `auth.currentSession` (keys are `[path, { type, input }]`). */
export const SESSION_KEY_PREFIX = [["auth", "currentSession"]] as const;

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: TRPC_URL, eventSourceOptions: { withCredentials: true } }),
        false: httpBatchLink({
          url: TRPC_URL,
          maxItems: TRPC_MAX_BATCH_CALLS,
          fetch: (input, init) => fetch(input, { ...init, credentials: "include" }),
        }),
      }),
    ],
  });
}

/** Codes that a retry cannot fix. */
const FINAL_CODES = new Set(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PAYMENT_REQUIRED", "TOO_MANY_REQUESTS"]);

export function makeQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A query other than the session check answering UNAUTHORIZED means the session ended
      // (expired, revoked by a password change elsewhere): re-check it so the guard sends the
      // visitor to /login.
      onError: (error, query) => {
        const key = query.queryKey[0];
        const isSessionQuery = Array.isArray(key) && key[0] === "auth" && key[1] === "currentSession";
        if (!isSessionQuery && isUnauthorized(error)) {
          void queryClient.invalidateQueries({ queryKey: SESSION_KEY_PREFIX });
        }
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          const code = errorCode(error);
          if (code && FINAL_CODES.has(code)) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
