// Rate-limit counts for the hot classes on PostgreSQL without a write per request: each instance counts
// in memory and, every SYNC_MS, adds what it counted to rate_limit_counters in one statement for all its
// keys and learns the total from the answer. A request is judged on the shared total as of the last sync
// plus this instance's hits since; a key in use is refreshed at every sync even without hits of its own.
//
// The bounded error: another instance's hits reach this one's judgement at most two sync intervals
// late (one for them to be shared, one for this instance to learn them), so across N instances a client can get at most (N − 1) × (the requests it makes to each other
// instance in that time) beyond its limit, and never more than N × the limit. The auth class, whose
// limits are a handful an hour, is still counted exactly, one upsert per request (see limiter.ts).
import type { Sql } from "../db/database.ts";
import type { RateLimitStore } from "./limiter.ts";

export const SYNC_MS = 250;
/** A key hit this recently has its total refreshed at every sync, hits of its own or not. */
const ACTIVE_MS = 10_000;

interface Window {
  resetAt: number;
  windowMs: number;
  /** The total of every instance as of the last sync, this instance's synced hits included. */
  shared: number;
  /** This instance's hits not yet added to the shared total. */
  pending: number;
  /** Hits on their way to the shared total (a sync under way): still counted until the answer includes them. */
  sending: number;
  lastHitAt: number;
}

const ADD_COUNTS = `INSERT INTO rate_limit_counters (key, count, reset_at)
  SELECT key, count, now() + (window_ms * interval '1 millisecond')
  FROM unnest($1::text[], $2::int[], $3::int[]) AS hits(key, count, window_ms)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_limit_counters.reset_at <= now() THEN EXCLUDED.count ELSE rate_limit_counters.count + EXCLUDED.count END,
    reset_at = CASE WHEN rate_limit_counters.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limit_counters.reset_at END
  RETURNING key, count, reset_at`;

const READ_COUNTS = "SELECT key, count, reset_at FROM rate_limit_counters WHERE key = ANY($1::text[])";

interface TotalRow {
  key: string;
  count: number;
  reset_at: Date | string;
}

export class SharedRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly timer: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  private lastSweep = Date.now();

  constructor(
    private readonly sql: Sql,
    private readonly onError: (error: Error) => void = () => {},
    syncMs = SYNC_MS,
  ) {
    this.timer = setInterval(() => this.tick(), syncMs);
    this.timer.unref();
  }

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + windowMs, windowMs, shared: 0, pending: 0, sending: 0, lastHitAt: now };
      this.windows.set(key, window);
    }
    window.pending += 1;
    window.lastHitAt = now;
    return { count: window.shared + window.sending + window.pending, resetAt: window.resetAt };
  }

  /**
   * Adds this instance's counts to the shared ones and learns the totals (one statement). A call made
   * while one is under way runs after it, so what it answers includes everything counted before the call.
   */
  sync(): Promise<void> {
    const run = this.chain.catch(() => {}).then(() => this.pushPending());
    this.chain = run;
    this.queued += 1;
    return run.finally(() => {
      this.queued -= 1;
    });
  }

  private tick() {
    // The interval does not pile up behind a slow database: one sync at a time is enough.
    if (this.queued === 0) void this.sync().catch(this.onError);
  }

  private async pushPending(): Promise<void> {
    const keys: string[] = [];
    const counts: number[] = [];
    const windowsMs: number[] = [];
    const idle: string[] = [];
    const activeSince = Date.now() - ACTIVE_MS;
    for (const [key, window] of this.windows) {
      if (window.pending > 0) {
        keys.push(key);
        counts.push(window.pending);
        windowsMs.push(window.windowMs);
      } else if (window.lastHitAt >= activeSince) {
        // In use but not hit since the last sync: only its total is read (no write).
        idle.push(key);
      }
    }
    if (keys.length === 0 && idle.length === 0) return;
    // Moved to `sending` for the round trip: hits arriving meanwhile count towards the next sync, and the
    // ones on their way still count until the answer's total includes them.
    const sent = keys.map((key, i) => {
      const window = this.windows.get(key)!;
      window.pending -= counts[i]!;
      window.sending += counts[i]!;
      return window;
    });
    let rows: TotalRow[];
    try {
      rows = [
        ...(keys.length > 0 ? await this.sql.query<TotalRow>(ADD_COUNTS, [keys, counts, windowsMs]) : []),
        ...(idle.length > 0 ? await this.sql.query<TotalRow>(READ_COUNTS, [idle]) : []),
      ];
    } catch (error) {
      // Not lost: they go again with the next sync.
      sent.forEach((window, i) => {
        window.sending -= counts[i]!;
        window.pending += counts[i]!;
      });
      throw error;
    }
    sent.forEach((window, i) => {
      window.sending -= counts[i]!;
    });
    const now = Date.now();
    for (const row of rows) {
      const window = this.windows.get(row.key);
      const resetAt = new Date(row.reset_at).getTime();
      // A total of a window that has ended since says nothing about the current one.
      if (!window || resetAt <= now) continue;
      window.shared = Number(row.count);
      window.resetAt = resetAt;
    }
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now && window.pending === 0 && window.sending === 0) this.windows.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sync().catch(this.onError);
  }
}
