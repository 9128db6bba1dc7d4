import type { UserSession } from "@adgen/schema";
import type { RequestContext } from "../../request-context.ts";
import { requireUser } from "./authenticate.ts";

/** API keys do not expire until revoked; they report the largest 32-bit Unix time. */
export const NEVER_EXPIRES = 2_147_483_647;

export function getSession(ctx: RequestContext): UserSession {
  const user = requireUser(ctx);
  const expiresAt = ctx.auth?.session ? Math.floor(ctx.auth.session.expiresAt.getTime() / 1000) : NEVER_EXPIRES;
  return { userId: user.id, email: user.email, role: user.role, expiresAt, trialEndsAt: user.trialEndsAt?.toISOString() ?? null };
}
