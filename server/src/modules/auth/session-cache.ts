// Live sessions remembered briefly in memory, so a request is authenticated without reading its session
// row. A revocation (logout, password change, suspension, reset) is broadcast to every instance and
// forgets the entries at once; should an instance miss one (its link to the database was down), it
// forgets everything when the link is back, and no entry outlives TTL_MS anyway.
export interface CachedSession {
  userId: string;
  expiresAt: Date;
}

export type SessionRevocation = { sessionId: string } | { userId: string; except?: string | null };

const TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

export class SessionCache {
  private readonly entries = new Map<string, CachedSession & { until: number }>();

  constructor(private readonly ttlMs = TTL_MS) {}

  get(sessionId: string, now = Date.now()): CachedSession | null {
    const entry = this.entries.get(sessionId);
    if (!entry) return null;
    if (entry.until <= now || entry.expiresAt.getTime() <= now) {
      this.entries.delete(sessionId);
      return null;
    }
    return entry;
  }

  remember(sessionId: string, session: CachedSession, now = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { ...session, until: now + this.ttlMs });
  }

  forget(revocation: SessionRevocation): void {
    if ("sessionId" in revocation) {
      this.entries.delete(revocation.sessionId);
      return;
    }
    for (const [id, entry] of this.entries) {
      if (entry.userId === revocation.userId && id !== revocation.except) this.entries.delete(id);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
