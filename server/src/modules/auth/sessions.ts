// Sessions on lucia: lucia owns expiry and sliding renewal; we store the session under the hash of its
// token and hand the client a signed JWT carrying the token. A live session is remembered briefly
// (session-cache.ts), so most requests authenticate without reading it; every revocation goes through
// `revoke`, which reaches every instance: there it forgets the cached sessions and ends the streams open
// under the revoked credentials (live-streams.ts).
import { PrismaAdapter } from "@lucia-auth/adapter-prisma";
import type { PrismaClient, User } from "@adgen/prisma";
import { Lucia, TimeSpan } from "lucia";
import { BUS_RECONNECTED, type EventBus } from "../../bus/bus.ts";
import { type CredentialRevocation, isCredentialRevocation, Revoke } from "./credential-revocation.ts";
import { LiveStreams } from "./live-streams.ts";
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
  /** The streams open in this process, each ended when its credential is revoked. */
  readonly streams = new LiveStreams();
  /** Lucia extends a session once less than half of this is left; the cache leaves that to lucia. */
  private readonly renewWithinMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly secret: Uint8Array,
    sessionDays: number,
    private readonly events: EventBus,
  ) {
    // The adapter's types predate Prisma 6; at run time it only calls findUnique/create/update/delete.
    const adapter = new PrismaAdapter(prisma.session as never, prisma.user as never);
    this.lucia = new Lucia(adapter, { sessionExpiresIn: new TimeSpan(sessionDays, "d") });
    this.renewWithinMs = (sessionDays * 86_400_000) / 2;
    events.onBroadcast(REVOKED, (revocation) => {
      if (isCredentialRevocation(revocation)) this.apply(revocation);
    });
    events.onBroadcast(BUS_RECONNECTED, () => {
      this.cache.clear();
      // Revocations sent while this instance was not listening are lost: its open streams are checked again
      // (should that read fail, the streams stay as they were until the next reconnect checks again).
      void this.recheckStreams().catch(() => {});
    });
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

  /** Signs one session out (logout). */
  async invalidate(userId: string, sessionId: string): Promise<void> {
    await this.lucia.invalidateSession(sessionId);
    this.revoke(Revoke.session(userId, sessionId, "signed_out"));
  }

  /**
   * Tells every instance that credentials ended (call it once the deleting transaction committed): each
   * forgets the sessions it cached and ends the streams open under them.
   */
  revoke(revocation: CredentialRevocation): void {
    this.apply(revocation);
    this.events.broadcast(REVOKED, revocation);
  }

  /** Idempotent: the bus hands an instance its own broadcasts too. */
  private apply(revocation: CredentialRevocation): void {
    const forget = sessionsForgotten(revocation);
    if (forget) this.cache.forget(forget);
    this.streams.end(revocation);
  }

  /** Ends the streams whose credential is gone or whose account is suspended, as the database says now. */
  private async recheckStreams(): Promise<void> {
    const held = this.streams.held();
    if (!held.length) return;
    const ids = (pick: (h: (typeof held)[number]) => string | null) => [...new Set(held.map(pick).filter((id) => id !== null))];
    const [sessions, keys, users] = await Promise.all([
      this.prisma.session.findMany({ where: { id: { in: ids((h) => h.sessionId) }, expiresAt: { gt: new Date() } }, select: { id: true } }),
      this.prisma.apiKey.findMany({ where: { id: { in: ids((h) => h.apiKeyId) } }, select: { id: true } }),
      this.prisma.user.findMany({ where: { id: { in: ids((h) => h.userId) } }, select: { id: true, status: true } }),
    ]);
    const live = new Set([...sessions, ...keys].map((row) => row.id));
    const status = new Map(users.map((row) => [row.id, row.status]));
    for (const { userId, sessionId, apiKeyId } of held) {
      if (status.get(userId) !== "active")
        this.streams.end(Revoke.everything(userId, status.has(userId) ? "suspended" : "credential_gone"));
      else if (sessionId && !live.has(sessionId)) this.streams.end(Revoke.session(userId, sessionId, "credential_gone"));
      else if (apiKeyId && !live.has(apiKeyId)) this.streams.end(Revoke.apiKey(userId, apiKeyId, "credential_gone"));
    }
  }

  deleteExpired(): Promise<void> {
    return this.lucia.deleteExpiredSessions();
  }
}

/** The cached sessions a revocation ends, if any. */
function sessionsForgotten({ userId, sessions }: CredentialRevocation): SessionRevocation | null {
  if (sessions === "none") return null;
  return "only" in sessions ? { sessionId: sessions.only } : { userId, except: sessions.allBut };
}

declare module "lucia" {
  interface Register {
    Lucia: Lucia;
    DatabaseUserAttributes: Omit<User, "id">;
  }
}
