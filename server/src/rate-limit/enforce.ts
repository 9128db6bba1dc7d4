import { AppError } from "../errors.ts";
import type { RateLimitClass, RateLimitResult, RateLimiter } from "./limiter.ts";

/** What a request's count needs of its context: the limiter, the caller's account if any, its IP. */
export interface RateLimitedRequest {
  services: { rateLimiter: RateLimiter };
  auth: { user: { id: string } } | null;
  ip: string | null;
}

export const TOO_MANY_REQUESTS = "Too many requests. Please try again later.";

/**
 * Counts this request against `endpoint`'s limit and throws 429 past it. The client is the IP for the
 * auth class (CONTRACT: per client IP) and the account for the others (per IP when anonymous).
 * Every transport calls this with the same endpoint name, so REST, tRPC and GraphQL share one counter.
 */
export async function enforceRateLimit(ctx: RateLimitedRequest, cls: RateLimitClass, endpoint: string): Promise<RateLimitResult> {
  const client = cls === "auth" || !ctx.auth ? `ip:${ctx.ip ?? "unknown"}` : `user:${ctx.auth.user.id}`;
  const result = await ctx.services.rateLimiter.consume(cls, endpoint, client);
  if (!result.allowed) throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_REQUESTS, { rateLimit: result });
  return result;
}
