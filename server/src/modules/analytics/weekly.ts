// What analytics partners ask of an account, summed in SQL (never over every row in JavaScript):
// performance (spend, revenue, CTR, ROAS, conversions) by week and by workflow type, brand or creative,
// and credits used (from the ledger) by week and workflow type. Weeks start on Monday (ISO), in UTC. Each
// sum is one statement for any number of accounts (an admin reading a page of accounts asks once).
import type { Sql } from "../../db/database.ts";
import { LedgerReason } from "../credits/ledger.ts";

export type PerformanceGrouping = "workflow_type" | "brand" | "creative";

export interface DateRange {
  from?: string | null;
  to?: string | null;
}

export interface WeeklyPerformance {
  week: string;
  /** The workflow type, brand id or creative key ("" when a creative has none). */
  group: string;
  impressions: number;
  clicks: number;
  conversions: number;
  spendCents: number;
  revenueCents: number;
  /** clicks / impressions; null without impressions. */
  ctr: number | null;
  /** revenue / spend; null without spend. */
  roas: number | null;
}

const GROUP_COLUMN: Record<PerformanceGrouping, string> = {
  workflow_type: "j.type",
  brand: "c.brand_id",
  creative: "c.key",
};

/** Rows of a statement that selected `"userId"` first, split by account in the order of `userIds`. */
function byAccount<T>(userIds: readonly string[], rows: Record<string, unknown>[], map: (row: Record<string, any>) => T): T[][] {
  const split = new Map<string, T[]>(userIds.map((id) => [id, []]));
  for (const row of rows) split.get(String(row.userId))?.push(map(row));
  return userIds.map((id) => split.get(id)!);
}

/** Each account's weekly performance, in the order of `userIds`. */
export async function weeklyPerformance(
  sql: Sql,
  userIds: readonly string[],
  groupBy: PerformanceGrouping,
  options: { range?: DateRange | null; brandId?: string | null } = {},
): Promise<WeeklyPerformance[][]> {
  const rows = await sql.query<Record<string, string | number | null>>(
    `SELECT c.user_id AS "userId", to_char(date_trunc('week', m.day), 'YYYY-MM-DD') AS week,
            COALESCE(${GROUP_COLUMN[groupBy]}, '') AS "group",
            SUM(m.impressions)::float8 AS impressions, SUM(m.clicks)::float8 AS clicks,
            SUM(m.conversions)::float8 AS conversions, SUM(m.spend_cents)::float8 AS "spendCents",
            SUM(m.revenue_cents)::float8 AS "revenueCents",
            CASE WHEN SUM(m.impressions) > 0 THEN SUM(m.clicks)::float8 / SUM(m.impressions) END AS ctr,
            CASE WHEN SUM(m.spend_cents) > 0 THEN SUM(m.revenue_cents)::float8 / SUM(m.spend_cents) END AS roas
       FROM performance_metrics m
       JOIN performance_creatives c ON c.id = m.creative_id
       LEFT JOIN jobs j ON j.id = c.job_id
      WHERE c.user_id = ANY($1::text[])
        AND ($2::date IS NULL OR m.day >= $2::date)
        AND ($3::date IS NULL OR m.day < $3::date)
        AND ($4::text IS NULL OR c.brand_id = $4)
      GROUP BY 1, 2, 3
      ORDER BY 1, 2, 3`,
    [userIds, options.range?.from ?? null, options.range?.to ?? null, options.brandId ?? null],
  );
  return byAccount(userIds, rows, (row) => ({
    week: String(row.week),
    group: String(row.group),
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    conversions: Number(row.conversions),
    spendCents: Number(row.spendCents),
    revenueCents: Number(row.revenueCents),
    ctr: row.ctr === null ? null : Number(row.ctr),
    roas: row.roas === null ? null : Number(row.roas),
  }));
}

export interface WeeklyCredits {
  week: string;
  workflowType: string;
  /** Credits the ledger charged for projects of this type in the week, less what it refunded in the week. */
  credits: number;
  /** Projects of this type charged in the week. */
  projects: number;
}

/**
 * Credits used by week and workflow type, read from the ledger (the record of what was charged and
 * refunded), not from the jobs' own `credits_used`: a refund subtracts in the week it was made.
 */
export async function weeklyCredits(sql: Sql, userIds: readonly string[], range?: DateRange | null): Promise<WeeklyCredits[][]> {
  const rows = await sql.query<Record<string, string | number>>(
    `SELECT l.user_id AS "userId", to_char(date_trunc('week', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, j.type AS "workflowType",
            SUM(-l.delta)::float8 AS credits,
            COUNT(*) FILTER (WHERE l.reason = '${LedgerReason.workflowCharge}')::float8 AS projects
       FROM credit_ledger l
       JOIN jobs j ON j.id = l.reference AND j.user_id = l.user_id
      WHERE l.user_id = ANY($1::text[]) AND l.reason IN ('${LedgerReason.workflowCharge}', '${LedgerReason.workflowRefund}')
        AND ($2::timestamptz IS NULL OR l.created_at >= $2::timestamptz)
        AND ($3::timestamptz IS NULL OR l.created_at < $3::timestamptz)
      GROUP BY 1, 2, 3
      ORDER BY 1, 2, 3`,
    [userIds, range?.from ?? null, range?.to ?? null],
  );
  return byAccount(userIds, rows, (row) => ({
    week: String(row.week),
    workflowType: String(row.workflowType),
    credits: Number(row.credits),
    projects: Number(row.projects),
  }));
}
