// Usage figures for the signed-in account (SPEC 4.3), computed from projects and the ledger.
import { AnalyticsQuery, StatsQuery } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { LedgerReason } from "../credits/ledger.ts";

const DAY = 86_400_000;

export async function userStats(services: Services, user: { id: string }, input: z.input<typeof StatsQuery>) {
  const { startDate, endDate } = parseInput(StatsQuery, input);
  const from = startDate ? new Date(`${startDate}T00:00:00.000Z`) : new Date(0);
  const to = endDate ? new Date(new Date(`${endDate}T00:00:00.000Z`).getTime() + DAY) : new Date(Date.now() + DAY);
  if (from >= to) throw new AppError("BAD_REQUEST", "startDate must be on or before endDate");
  const { prisma } = services;
  const jobs = await prisma.job.findMany({
    where: { userId: user.id, createdAt: { gte: from, lt: to } },
    select: { type: true, status: true, creditsUsed: true, refundedAt: true },
  });
  const byType: Record<string, { total: number; completed: number; failed: number; credits: number }> = {};
  for (const job of jobs) {
    const entry = byType[job.type] ?? { total: 0, completed: 0, failed: 0, credits: 0 };
    byType[job.type] = entry;
    entry.total += 1;
    if (job.status === "completed") entry.completed += 1;
    if (job.status === "failed") entry.failed += 1;
    if (!job.refundedAt) entry.credits += job.creditsUsed;
  }
  const ledger = await prisma.creditLedgerEntry.groupBy({
    by: ["reason"],
    where: {
      userId: user.id,
      createdAt: { gte: from, lt: to },
      reason: { in: [LedgerReason.workflowCharge, LedgerReason.workflowRefund] },
    },
    _sum: { delta: true },
  });
  const charged = -(ledger.find((l) => l.reason === LedgerReason.workflowCharge)?._sum.delta ?? 0);
  const refunded = ledger.find((l) => l.reason === LedgerReason.workflowRefund)?._sum.delta ?? 0;
  const finished = jobs.filter((j) => j.status === "completed" || j.status === "failed").length;
  const completed = jobs.filter((j) => j.status === "completed").length;
  return {
    startDate: startDate ?? null,
    endDate: endDate ?? null,
    totalProjects: jobs.length,
    projectsByType: byType,
    creditsUsed: charged - refunded,
    creditsCharged: charged,
    creditsRefunded: refunded,
    completed,
    failed: finished - completed,
    inProgress: jobs.length - finished,
    successRate: finished === 0 ? null : Math.round((completed / finished) * 1000) / 1000,
  };
}

export async function userAnalytics(services: Services, user: { id: string }, input: z.input<typeof AnalyticsQuery>) {
  const { period } = parseInput(AnalyticsQuery, input);
  const days = Number.parseInt(period, 10);
  const since = new Date(Date.now() - days * DAY);
  const { prisma } = services;
  const [jobs, ledger] = await Promise.all([
    prisma.job.findMany({
      where: { userId: user.id, createdAt: { gte: since } },
      select: { type: true, status: true, createdAt: true, creditsUsed: true, refundedAt: true },
    }),
    prisma.creditLedgerEntry.findMany({ where: { userId: user.id, createdAt: { gte: since } }, select: { reason: true, delta: true } }),
  ]);
  const trend = new Map<string, { date: string; projects: number; completed: number; credits: number }>();
  for (let i = days - 1; i >= 0; i--) {
    const date = new Date(Date.now() - i * DAY).toISOString().slice(0, 10);
    trend.set(date, { date, projects: 0, completed: 0, credits: 0 });
  }
  const usageByType: Record<string, number> = {};
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, projects: 0 }));
  for (const job of jobs) {
    const day = trend.get(job.createdAt.toISOString().slice(0, 10));
    if (day) {
      day.projects += 1;
      if (job.status === "completed") day.completed += 1;
      if (!job.refundedAt) day.credits += job.creditsUsed;
    }
    usageByType[job.type] = (usageByType[job.type] ?? 0) + 1;
    hours[job.createdAt.getUTCHours()]!.projects += 1;
  }
  const distribution: Record<string, number> = {};
  for (const entry of ledger) distribution[entry.reason] = (distribution[entry.reason] ?? 0) + entry.delta;
  return {
    period,
    since: since.toISOString(),
    trends: [...trend.values()],
    usageByType,
    creditDistribution: distribution,
    peakHours: [...hours]
      .sort((a, b) => b.projects - a.projects || a.hour - b.hour)
      .slice(0, 3)
      .filter((h) => h.projects > 0),
    hourly: hours,
  };
}
