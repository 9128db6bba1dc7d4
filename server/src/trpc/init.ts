// tRPC for the SPA. Procedures are a few lines around domain functions; domain errors become tRPC
// errors here, in one table.
import { initTRPC, TRPCError } from "@trpc/server";
import type { RequestContext } from "../context.ts";
import { AppError, type ErrorCode, formatIssues } from "../errors.ts";
import { requireAdmin } from "../modules/admin/require-admin.ts";
import { enforceRateLimit } from "../rate-limit/enforce.ts";
import type { RateLimitClass } from "../rate-limit/limiter.ts";

export interface TrpcContext extends RequestContext {
  resHeaders: Headers;
}

export interface TrpcMeta {
  /** Rate-limit class; the counter is shared with the REST endpoint of the same operation. */
  rateLimit?: RateLimitClass;
}

const TRPC_CODE: Record<ErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  PAYMENT_REQUIRED: "PAYMENT_REQUIRED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

const t = initTRPC
  .context<TrpcContext>()
  .meta<TrpcMeta>()
  .create({
    // Stack traces never leave the server.
    isDev: false,
    errorFormatter({ shape, error }) {
      const cause = error.cause as { issues?: Parameters<typeof formatIssues>[0] } | undefined;
      if (error.code === "BAD_REQUEST" && cause?.issues) return { ...shape, message: formatIssues(cause.issues) };
      if (error.code === "INTERNAL_SERVER_ERROR") return { ...shape, message: "Internal server error" };
      return shape;
    },
  });

const domainErrors = t.middleware(async ({ next, ctx, meta, path }) => {
  try {
    if (meta?.rateLimit) await enforceRateLimit(ctx, meta.rateLimit, path);
  } catch (error) {
    if (error instanceof AppError) throw new TRPCError({ code: TRPC_CODE[error.code], message: error.message, cause: error });
    throw error;
  }
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path}:`, result.error.cause ?? result.error);
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(domainErrors);
/** Admin operations: the admin gate (in the domain) runs before input validation, as on REST and GraphQL. */
export const adminProcedure = publicProcedure.use(({ ctx, next }) => {
  requireAdmin(ctx);
  return next();
});
