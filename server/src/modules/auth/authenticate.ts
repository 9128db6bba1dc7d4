// Turns a request's credentials (the `session` cookie, or `Authorization: Bearer` with a session JWT
// or a `ca_` API key) into who is asking. Invalid credentials authenticate nobody; the operation then
// decides whether that is a 401.
import { API_KEY_PLANS } from "@adgen/schema";
import type { AuthState, RequestContext, Services } from "../../request-context.ts";
import { Errors } from "../../errors.ts";
import { readUser } from "./read-account.ts";
import { sha256Hex } from "./tokens.ts";

export const SESSION_COOKIE = "session";
export const API_KEY_PREFIX = "ca_";

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

export function readBearer(header: string | null | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

export async function authenticate(
  services: Services,
  credentials: { cookie?: string | null; authorization?: string | null },
): Promise<AuthState | null> {
  const bearer = readBearer(credentials.authorization);
  if (bearer?.startsWith(API_KEY_PREFIX)) return authenticateApiKey(services, bearer);
  const jwt = bearer ?? readCookie(credentials.cookie, SESSION_COOKIE);
  if (!jwt) return null;
  const session = await services.sessions.validate(jwt);
  if (!session) return null;
  // The one read of the account in this request: the operation's handler gets this row.
  const user = await readUser(services.db.sql, session.userId);
  if (!user) return null;
  return {
    user,
    method: "session",
    session: { id: session.sessionId, expiresAt: session.expiresAt },
    renewedToken: session.renewedJwt,
  };
}

async function authenticateApiKey(services: Services, key: string): Promise<AuthState | null> {
  const record = await services.prisma.apiKey.findUnique({ where: { keyHash: sha256Hex(key) }, include: { user: true } });
  // A key works only while the account's plan includes API keys (a downgrade stops it at once).
  if (!record || !(API_KEY_PLANS as readonly string[]).includes(record.user.currentPlanId)) return null;
  // Touch at most once a minute: the key is used on every request.
  if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > 60_000) {
    await services.prisma.apiKey.update({ where: { id: record.id }, data: { lastUsedAt: new Date() } });
  }
  return {
    user: record.user,
    method: "api_key",
    session: null,
    apiKey: { id: record.id, scope: record.scope === "analytics" ? "analytics" : "full" },
    renewedToken: null,
  };
}

/** The signed-in, active account, or 401/403. Every non-public operation starts here. */
export function requireUser(ctx: RequestContext) {
  if (!ctx.auth) throw Errors.unauthenticated();
  if (ctx.auth.user.status === "suspended") throw Errors.suspended();
  return ctx.auth.user;
}
