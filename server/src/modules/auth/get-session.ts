import type { User } from "@adgen/prisma";
import type { UserSession } from "@adgen/schema";
import { Errors } from "../../errors.ts";

/** API keys do not expire until revoked; they report the largest 32-bit Unix time. */
export const NEVER_EXPIRES = 2_147_483_647;

/**
 * The session of `user` signed in with `session` (null: an API key). A suspended account is refused
 * (403) here too: asking who is signed in is a public operation, so no gate has checked it.
 */
export function getSession(user: User, session: { expiresAt: Date } | null): UserSession {
  if (user.status === "suspended") throw Errors.suspended();
  const expiresAt = session ? Math.floor(session.expiresAt.getTime() / 1000) : NEVER_EXPIRES;
  return { userId: user.id, email: user.email, role: user.role, expiresAt, trialEndsAt: user.trialEndsAt?.toISOString() ?? null };
}
