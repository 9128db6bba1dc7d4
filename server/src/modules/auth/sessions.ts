// Sessions on lucia: lucia owns expiry and sliding renewal; we store the session under the hash of its
// token and hand the client a signed JWT carrying the token. A live session is remembered briefly
// (session-cache.ts), so most requests authenticate without reading it; every revocation goes through
// `revoke`, which reaches every instance.
import { PrismaAdapter } from "@lucia-auth/adapter-prisma";
import type { PrismaClient, User } from "@adgen/prisma";
import { Lucia, TimeSpan } from "lucia";
import { BUS_RECONNECTED, type EventBus } from "../../events/bus.ts";
import { SessionCache, type SessionRevocation } from "./session-cache.ts";
import { newSessionToken, sha256Hex, signSessionJwt, verifySessionJwt } from "./tokens.ts";

const REVOKED = "sessions.revoked";

export interface IssuedSession {
  jwt: string;
  sessionId: string;
  expiresAt: Date;
}

export interface ValidatedSession {
  sessionId: string;
  userId: string;
  expiresAt: Date;
  /** A new JWT when lucia extended the session (sliding expiry); null otherwise. */
  renewedJwt: string | null;
}

export class SessionManager {
  private readonly lucia: Lucia;
  private readonly cache = new SessionCache();
  /** Lucia extends a session once less than half of this is left; the cache leaves that to lucia. */
  private readonly renewWithinMs: number;

  constructor(
    prisma: PrismaClient,
    private readonly secret: Uint8Array,
    sessionDays: number,
    private readonly events: EventBus,
  ) {
    // The adapter's types predate Prisma 6; at run time it only calls findUnique/create/update/delete.
    const adapter = new PrismaAdapter(prisma.session as never, prisma.user as never);
    this.lucia = new Lucia(adapter, { sessionExpiresIn: new TimeSpan(sessionDays, "d") });
    this.renewWithinMs = (sessionDays * 86_400_000) / 2;
    events.onBroadcast(REVOKED, (revocation) => this.cache.forget(revocation as SessionRevocation));
    events.onBroadcast(BUS_RECONNECTED, () => this.cache.clear());
  }

  async create(userId: string, meta: { ip: string | null; userAgent: string | null }): Promise<IssuedSession> {
    const token = newSessionToken();
    const session = await this.lucia.createSession(userId, { ip: meta.ip, userAgent: meta.userAgent?.slice(0, 500) ?? null } as never, {
      sessionId: sha256Hex(token),
    });
    const jwt = await signSessionJwt(this.secret, { token, userId, expiresAt: session.expiresAt });
    return { jwt, sessionId: session.id, expiresAt: session.expiresAt };
  }

  async validate(jwt: string): Promise<ValidatedSession | null> {
    const cached = this.cache.get(jwt);
    if (cached && cached.expiresAt.getTime() - Date.now() > this.renewWithinMs) {
      return { sessionId: cached.sessionId, userId: cached.userId, expiresAt: cached.expiresAt, renewedJwt: null };
    }
    const claims = await verifySessionJwt(this.secret, jwt);
    if (!claims) return null;
    const { session } = await this.lucia.validateSession(sha256Hex(claims.token));
    if (!session || session.userId !== claims.userId) return null;
    const credentialExpiry = claims.expiresAt && claims.expiresAt < session.expiresAt ? claims.expiresAt : session.expiresAt;
    this.cache.remember(jwt, { sessionId: session.id, userId: session.userId, expiresAt: credentialExpiry });
    const renewedJwt = session.fresh
      ? await signSessionJwt(this.secret, { token: claims.token, userId: session.userId, expiresAt: session.expiresAt })
      : null;
    return { sessionId: session.id, userId: session.userId, expiresAt: session.expiresAt, renewedJwt };
  }

  async invalidate(sessionId: string): Promise<void> {
    await this.lucia.invalidateSession(sessionId);
    this.revoke({ sessionId });
  }

  async invalidateAllForUser(userId: string): Promise<void> {
    await this.lucia.invalidateUserSessions(userId);
    this.revoke({ userId });
  }

  /**
   * Tells every instance that sessions were deleted (call it once the deleting transaction committed):
   * one session, or all of an account's but `except`.
   */
  revoke(revocation: SessionRevocation): void {
    this.cache.forget(revocation);
    this.events.broadcast(REVOKED, revocation);
  }

  deleteExpired(): Promise<void> {
    return this.lucia.deleteExpiredSessions();
  }
}

declare module "lucia" {
  interface Register {
    Lucia: Lucia;
    DatabaseUserAttributes: Omit<User, "id">;
  }
}
