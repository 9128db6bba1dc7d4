// A project's daily performance: the figures of every creative made from it (performance_creatives.job_id),
// summed per day in SQL, for many projects in one statement (the analytics graph asks it once per page).
import type { Sql } from "../../db/database.ts";

export interface ProjectDay {
  day: string;
  impressions: number;
  clicks: number;
  conversions: number;
  spendCents: number;
  revenueCents: number;
}

/** Each project's days, oldest first, in the order of `jobIds` (a project without figures gets none). */
export async function projectDays(sql: Sql, jobIds: readonly string[]): Promise<ProjectDay[][]> {
  const rows = await sql.query<Record<string, string | number>>(
    `SELECT c.job_id AS "jobId", to_char(m.day, 'YYYY-MM-DD') AS day,
            SUM(m.impressions)::float8 AS impressions, SUM(m.clicks)::float8 AS clicks,
            SUM(m.conversions)::float8 AS conversions, SUM(m.spend_cents)::float8 AS "spendCents",
            SUM(m.revenue_cents)::float8 AS "revenueCents"
       FROM performance_metrics m
       JOIN performance_creatives c ON c.id = m.creative_id
      WHERE c.job_id = ANY($1::text[])
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    [jobIds],
  );
  const byJob = new Map<string, ProjectDay[]>();
  for (const row of rows) {
    const days = byJob.get(String(row.jobId)) ?? [];
    days.push({
      day: String(row.day),
      impressions: Number(row.impressions),
      clicks: Number(row.clicks),
      conversions: Number(row.conversions),
      spendCents: Number(row.spendCents),
      revenueCents: Number(row.revenueCents),
    });
    byJob.set(String(row.jobId), days);
  }
  return jobIds.map((id) => byJob.get(id) ?? []);
}
