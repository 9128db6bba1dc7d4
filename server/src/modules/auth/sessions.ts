// Sessions on lucia: lucia owns expiry and sliding renewal; we store the session under the hash of its
// token and hand the client a signed JWT carrying the token.
import { PrismaAdapter } from "@lucia-auth/adapter-prisma";
import type { PrismaClient, User } from "@adgen/prisma";
import { Lucia, TimeSpan } from "lucia";
import { newSessionToken, sha256Hex, signSessionJwt, verifySessionJwt } from "./tokens.ts";

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

  constructor(
    prisma: PrismaClient,
    private readonly secret: Uint8Array,
    sessionDays: number,
  ) {
    // The adapter's types predate Prisma 6; at run time it only calls findUnique/create/update/delete.
    const adapter = new PrismaAdapter(prisma.session as never, prisma.user as never);
    this.lucia = new Lucia(adapter, { sessionExpiresIn: new TimeSpan(sessionDays, "d") });
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
    const claims = await verifySessionJwt(this.secret, jwt);
    if (!claims) return null;
    const { session } = await this.lucia.validateSession(sha256Hex(claims.token));
    if (!session || session.userId !== claims.userId) return null;
    const renewedJwt = session.fresh
      ? await signSessionJwt(this.secret, { token: claims.token, userId: session.userId, expiresAt: session.expiresAt })
      : null;
    return { sessionId: session.id, userId: session.userId, expiresAt: session.expiresAt, renewedJwt };
  }

  invalidate(sessionId: string): Promise<void> {
    return this.lucia.invalidateSession(sessionId);
  }

  invalidateAllForUser(userId: string): Promise<void> {
    return this.lucia.invalidateUserSessions(userId);
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
