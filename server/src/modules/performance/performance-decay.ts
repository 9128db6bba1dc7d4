// The performance-decay agent: creative fatigue. For every running creative (not stopped) with daily figures
// in performance_metrics (what POST /workflow/performance ingests), the click-through rate of the last 3 days is compared with that
// of the 7 days before; a drop of 30 % or more, on at least 100 impressions in each window, is decay. With
// no performance data recorded yet, the scan runs and reports 0 creatives scanned.
import type { Services } from "../../request-context.ts";

const RECENT_DAYS = 3;
const BASELINE_DAYS = 7;
const MIN_IMPRESSIONS = 100;
/** Recent CTR at most this share of the baseline's is decay. */
const DECAY_RATIO = 0.7;
const EXAMPLES = 10;

interface Window {
  creativeId: string;
  key: string;
  userId: string;
  recentImpressions: number;
  recentClicks: number;
  baseImpressions: number;
  baseClicks: number;
}

const ctr = (clicks: number, impressions: number) => (impressions > 0 ? clicks / impressions : 0);
const pct = (rate: number) => Math.round(rate * 10_000) / 100;

export async function scanPerformanceDecay(services: Services): Promise<Record<string, unknown>> {
  const rows = await services.prisma.$queryRaw<Window[]>`
    SELECT c.id AS "creativeId", c.key, c.user_id AS "userId",
      COALESCE(sum(m.impressions) FILTER (WHERE m.day > current_date - ${RECENT_DAYS}::int), 0)::int AS "recentImpressions",
      COALESCE(sum(m.clicks) FILTER (WHERE m.day > current_date - ${RECENT_DAYS}::int), 0)::int AS "recentClicks",
      COALESCE(sum(m.impressions) FILTER (WHERE m.day <= current_date - ${RECENT_DAYS}::int), 0)::int AS "baseImpressions",
      COALESCE(sum(m.clicks) FILTER (WHERE m.day <= current_date - ${RECENT_DAYS}::int), 0)::int AS "baseClicks"
    FROM performance_creatives c
    JOIN performance_metrics m ON m.creative_id = c.id
    WHERE c.stopped_at IS NULL AND m.day > current_date - ${RECENT_DAYS + BASELINE_DAYS}::int
    GROUP BY c.id, c.key, c.user_id`;
  const decaying = rows
    .map((row) => ({
      row,
      before: ctr(Number(row.baseClicks), Number(row.baseImpressions)),
      recent: ctr(Number(row.recentClicks), Number(row.recentImpressions)),
    }))
    .filter(
      ({ row, before, recent }) =>
        Number(row.baseImpressions) >= MIN_IMPRESSIONS &&
        Number(row.recentImpressions) >= MIN_IMPRESSIONS &&
        before > 0 &&
        recent <= before * DECAY_RATIO,
    );
  return {
    creativesScanned: rows.length,
    decaying: decaying.length,
    ...(rows.length === 0 ? { note: "no performance data in the last 10 days" } : {}),
    examples: decaying.slice(0, EXAMPLES).map(({ row, before, recent }) => ({
      creativeId: row.creativeId,
      key: row.key,
      userId: row.userId,
      ctrBeforePercent: pct(before),
      ctrRecentPercent: pct(recent),
    })),
  };
}
