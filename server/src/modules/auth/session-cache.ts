// Live sessions remembered briefly in memory under the credential that named them (the signed JWT), so a
// request presenting it again is authenticated without verifying the signature or reading the session
// row. A revocation (logout, password change, suspension, reset) is broadcast to every instance and
// forgets the entries at once; should an instance miss one (its link to the database was down), it
// forgets everything when the link is back, and no entry outlives TTL_MS anyway.
export interface CachedSession {
  sessionId: string;
  userId: string;
  /** The earlier of the session's and the credential's expiry. */
  expiresAt: Date;
}

export type SessionRevocation = { sessionId: string } | { userId: string; except?: string | null };

const TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

export class SessionCache {
  private readonly entries = new Map<string, CachedSession & { until: number }>();

  constructor(private readonly ttlMs = TTL_MS) {}

  get(credential: string, now = Date.now()): CachedSession | null {
    const entry = this.entries.get(credential);
    if (!entry) return null;
    if (entry.until <= now || entry.expiresAt.getTime() <= now) {
      this.entries.delete(credential);
      return null;
    }
    return entry;
  }

  remember(credential: string, session: CachedSession, now = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.delete(credential);
    this.entries.set(credential, { ...session, until: now + this.ttlMs });
  }

  /** Revocations are rare next to requests: a walk over the entries is fine. */
  forget(revocation: SessionRevocation): void {
    for (const [credential, entry] of this.entries) {
      const revoked =
        "sessionId" in revocation
          ? entry.sessionId === revocation.sessionId
          : entry.userId === revocation.userId && entry.sessionId !== revocation.except;
      if (revoked) this.entries.delete(credential);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
