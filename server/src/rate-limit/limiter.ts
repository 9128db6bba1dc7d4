// Fixed-window rate limits (CONTRACT): each endpoint keeps its own counter with the limit of its class.
// One instance on PGlite counts in memory. On PostgreSQL the instances share their counts through one
// table: the auth class exactly (one upsert per request; its limits are a handful an hour), the api and
// stream classes in batches (shared-store.ts: no database write per request, a bounded error).
import type { Config } from "../config/env.ts";
import type { Sql } from "../db/database.ts";

export type RateLimitClass = "auth" | "stream" | "api" | "preview";

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  reset: number;
}

export interface RateLimitStore {
  /** Adds one hit to `key` and returns the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** Shares what is only counted here yet with the other instances (batched stores). */
  sync?(): Promise<void>;
  /** Syncs one last time and stops. */
  close?(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly sql: Sql) {}

  async hit(key: string, windowMs: number) {
    // One atomic upsert: a new or expired window starts at 1, a live one counts up.
    const rows = await this.sql.query<{ count: number; reset_at: Date }>(
      `INSERT INTO rate_limit_counters (key, count, reset_at)
       VALUES ($1, 1, now() + ($2::int * interval '1 millisecond'))
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limit_counters.reset_at <= now() THEN 1 ELSE rate_limit_counters.count + 1 END,
         reset_at = CASE WHEN rate_limit_counters.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limit_counters.reset_at END
       RETURNING count, reset_at`,
      [key, windowMs],
    );
    const row = rows[0];
    if (!row) throw new Error("rate limit upsert returned nothing");
    if (Math.random() < 0.001)
      void this.sql.query("DELETE FROM rate_limit_counters WHERE reset_at < now() - interval '1 hour'").catch(() => {});
    return { count: Number(row.count), resetAt: new Date(row.reset_at).getTime() };
  }
}

export class RateLimiter {
  private readonly hotStore: RateLimitStore;

  /** `hotStore` counts the api and stream classes when given; `store` counts the rest (or everything). */
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: Config["rateLimits"],
    hotStore?: RateLimitStore,
  ) {
    this.hotStore = hotStore ?? store;
  }

  policy(cls: RateLimitClass): { limit: number; windowMs: number } {
    switch (cls) {
      case "auth":
        return { limit: this.limits.authPerHour, windowMs: 3_600_000 };
      case "stream":
        return { limit: this.limits.streamPerHour, windowMs: 3_600_000 };
      case "api":
        return { limit: this.limits.apiPerMinute, windowMs: 60_000 };
      // Free storyboard previews draw stills with the renderer: their own, smaller budget.
      case "preview":
        return { limit: this.limits.previewPerMinute, windowMs: 60_000 };
    }
  }

  /** Counts one request of `endpoint` by `client` (an IP or an account id). */
  async consume(cls: RateLimitClass, endpoint: string, client: string): Promise<RateLimitResult> {
    const { limit, windowMs } = this.policy(cls);
    const store = cls === "auth" ? this.store : this.hotStore;
    const { count, resetAt } = await store.hit(`${cls}:${endpoint}:${client}`, windowMs);
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset: Math.ceil(resetAt / 1000) };
  }

  /** Shares this instance's counts with the others now instead of at the next interval. */
  async sync(): Promise<void> {
    await this.hotStore.sync?.();
  }

  async close(): Promise<void> {
    await this.store.close?.();
    if (this.hotStore !== this.store) await this.hotStore.close?.();
  }
}
