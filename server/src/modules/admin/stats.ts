// GET /admin/stats: accounts by plan and status, jobs launched by type and status, and the credits granted
// and used in a period, all counted from the tables that hold them (the ledger for credits).
import { ACCOUNT_STATUSES, type AdminPeriodQuery, type AdminStats, JOB_STATUSES, PLAN_IDS, WORKFLOW_TYPES } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { LedgerReason } from "../credits/ledger.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { daysOf, parsePeriod, periodView } from "./period.ts";

const GRANT_REASONS: string[] = [LedgerReason.signupGrant, LedgerReason.purchase, LedgerReason.planAllowance, LedgerReason.adminAdjustment];

export async function adminStats(services: Services, source: AuditSource, input: z.input<typeof AdminPeriodQuery>): Promise<AdminStats> {
  const period = parsePeriod(input);
  const { prisma } = services;
  const inPeriod = { gte: period.from, lt: period.to };
  const [total, newInPeriod, byPlan, byStatus, jobsByType, jobsByStatus, ledger, granted, daily] = await Promise.all([
    prisma.user.count(),
    prisma.user.count({ where: { createdAt: inPeriod } }),
    prisma.user.groupBy({ by: ["currentPlanId"], _count: { _all: true } }),
    prisma.user.groupBy({ by: ["status"], _count: { _all: true } }),
    prisma.job.groupBy({ by: ["type"], where: { createdAt: inPeriod }, _count: { _all: true } }),
    prisma.job.groupBy({ by: ["status"], where: { createdAt: inPeriod }, _count: { _all: true } }),
    prisma.creditLedgerEntry.groupBy({ by: ["reason"], where: { createdAt: inPeriod }, _sum: { delta: true } }),
    prisma.creditLedgerEntry.aggregate({
      where: { createdAt: inPeriod, reason: { in: GRANT_REASONS }, delta: { gt: 0 } },
      _sum: { delta: true },
    }),
    dailySeries(services, period.from, period.to),
  ]);
  const byReason = Object.fromEntries(ledger.map((row) => [row.reason, row._sum.delta ?? 0]));
  const charged = -(byReason[LedgerReason.workflowCharge] ?? 0);
  const refunded = byReason[LedgerReason.workflowRefund] ?? 0;
  await auditAdminRead(services, source, "admin.stats_viewed", periodView(period));
  const days = daysOf(period);
  return {
    period: periodView(period),
    users: {
      total,
      newInPeriod,
      byPlan: countEach(
        PLAN_IDS,
        byPlan.map((row) => [row.currentPlanId, row._count._all]),
      ),
      byStatus: countEach(
        ACCOUNT_STATUSES,
        byStatus.map((row) => [row.status, row._count._all]),
      ),
    },
    jobs: {
      total: jobsByType.reduce((sum, row) => sum + row._count._all, 0),
      byType: countEach(
        WORKFLOW_TYPES,
        jobsByType.map((row) => [row.type, row._count._all]),
      ),
      byStatus: countEach(
        JOB_STATUSES,
        jobsByStatus.map((row) => [row.status, row._count._all]),
      ),
    },
    credits: { granted: granted._sum.delta ?? 0, charged, refunded, used: charged - refunded, byReason },
    daily: days.map((day) => ({ day, jobs: 0, creditsUsed: 0, signups: 0, ...daily.get(day) })),
  };
}

/** A count for every key (0 when no row has it). */
function countEach<K extends string>(keys: readonly K[], rows: [string, number][]): Record<K, number> {
  const found = new Map(rows);
  return Object.fromEntries(keys.map((key) => [key, found.get(key) ?? 0])) as Record<K, number>;
}

async function dailySeries(services: Services, from: Date, to: Date) {
  const { prisma } = services;
  const [jobs, credits, signups] = await Promise.all([
    prisma.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM jobs WHERE created_at >= ${from} AND created_at < ${to} GROUP BY 1`,
    prisma.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, (-sum(delta))::int AS n
      FROM credit_ledger WHERE created_at >= ${from} AND created_at < ${to}
        AND reason IN (${LedgerReason.workflowCharge}, ${LedgerReason.workflowRefund}) GROUP BY 1`,
    prisma.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM users WHERE created_at >= ${from} AND created_at < ${to} GROUP BY 1`,
  ]);
  const byDay = new Map<string, { jobs?: number; creditsUsed?: number; signups?: number }>();
  const put = (rows: { day: string; n: number }[], field: "jobs" | "creditsUsed" | "signups") => {
    for (const row of rows) byDay.set(row.day, { ...byDay.get(row.day), [field]: Number(row.n) });
  };
  put(jobs, "jobs");
  put(credits, "creditsUsed");
  put(signups, "signups");
  return byDay;
}
