// Reading figures: per creative, the totals, the daily series (ingested days plus recorded events, by UTC
// day) and the decay verdict; filtered by brand, creative and a date range.
import { Prisma, type PrismaClient } from "@adgen/prisma";
import { type CreativePerformance, PerformanceQuery, type PerformanceReport } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type DailyCounts, detectDecay } from "./decay.ts";
import { addCounts, type Counts, figuresOf, sumCounts, ZERO_COUNTS } from "./figures.ts";

export interface CreativeFilter {
  brandId?: string;
  key?: string;
  from?: string;
  to?: string;
}

interface EventDay {
  creative_id: string;
  day: string;
  impressions: number;
  clicks: number;
  conversions: number;
  revenue_cents: bigint | number | string;
}

const dayDate = (day: string) => new Date(`${day}T00:00:00.000Z`);
const endOfDay = (day: string) => new Date(`${day}T23:59:59.999Z`);

/** The account's creatives matching the filter, with their figures, oldest first. */
export async function loadCreativePerformance(
  prisma: PrismaClient,
  userId: string,
  filter: CreativeFilter,
): Promise<CreativePerformance[]> {
  const creatives = await prisma.performanceCreative.findMany({
    where: { userId, ...(filter.brandId ? { brandId: filter.brandId } : {}), ...(filter.key ? { key: filter.key } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (creatives.length === 0) return [];
  const ids = creatives.map((c) => c.id);
  const dayRange = {
    ...(filter.from ? { gte: dayDate(filter.from) } : {}),
    ...(filter.to ? { lte: dayDate(filter.to) } : {}),
  };
  const metrics = await prisma.performanceMetric.findMany({
    where: { creativeId: { in: ids }, ...(filter.from || filter.to ? { day: dayRange } : {}) },
  });
  const from = filter.from ? dayDate(filter.from) : new Date("1970-01-01T00:00:00Z");
  const to = filter.to ? endOfDay(filter.to) : new Date("9999-12-31T00:00:00Z");
  const eventDays = await prisma.$queryRaw<EventDay[]>`
    SELECT creative_id,
           to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           (count(*) FILTER (WHERE kind = 'impression'))::int AS impressions,
           (count(*) FILTER (WHERE kind = 'click'))::int AS clicks,
           (count(*) FILTER (WHERE kind = 'conversion'))::int AS conversions,
           coalesce(sum(value_cents) FILTER (WHERE kind = 'conversion'), 0)::bigint AS revenue_cents
      FROM performance_events
     WHERE creative_id IN (${Prisma.join(ids)}) AND occurred_at >= ${from} AND occurred_at <= ${to}
     GROUP BY 1, 2`;

  const byCreative = new Map<string, Map<string, Counts>>();
  const add = (creativeId: string, day: string, counts: Counts) => {
    const days = byCreative.get(creativeId) ?? new Map<string, Counts>();
    days.set(day, addCounts(days.get(day) ?? ZERO_COUNTS, counts));
    byCreative.set(creativeId, days);
  };
  for (const m of metrics) {
    add(m.creativeId, m.day.toISOString().slice(0, 10), {
      impressions: m.impressions,
      clicks: m.clicks,
      conversions: m.conversions,
      spendCents: Number(m.spendCents),
      revenueCents: Number(m.revenueCents),
    });
  }
  for (const e of eventDays) {
    add(e.creative_id, e.day, {
      impressions: Number(e.impressions),
      clicks: Number(e.clicks),
      conversions: Number(e.conversions),
      spendCents: 0,
      revenueCents: Number(e.revenue_cents),
    });
  }
  const jobs = await prisma.job.findMany({
    where: { id: { in: creatives.flatMap((c) => (c.jobId ? [c.jobId] : [])) }, userId },
    select: { id: true, name: true },
  });
  const names = new Map(jobs.map((j) => [j.id, j.name]));

  return creatives.map((creative) => {
    const series: DailyCounts[] = [...(byCreative.get(creative.id) ?? new Map()).entries()]
      .map(([date, counts]) => ({ date, ...counts }))
      .sort((a, b) => a.date.localeCompare(b.date));
    return {
      creativeId: creative.key,
      projectId: creative.jobId,
      name: creative.jobId ? (names.get(creative.jobId) ?? null) : null,
      brandId: creative.brandId,
      stopped: creative.stoppedAt !== null,
      stoppedAt: creative.stoppedAt?.toISOString() ?? null,
      totals: figuresOf(sumCounts(series)),
      series: series.map(({ date, ...counts }) => ({ date, ...figuresOf(counts) })),
      decay: detectDecay(series),
    };
  });
}

/** The account's own brand id, or 404. */
export async function assertOwnBrand(prisma: PrismaClient, userId: string, brandId: string): Promise<void> {
  const brand = await prisma.brandProfile.findFirst({ where: { id: brandId, userId }, select: { id: true } });
  if (!brand) throw Errors.notFound("Brand");
}

export function assertRange(from?: string, to?: string): void {
  if (from && to && from > to)
    throw new AppError("BAD_REQUEST", `The range starts after it ends: from (${from}) must be on or before to (${to})`, {
      fields: [{ field: "from", message: "from must be on or before to" }],
    });
}

export async function performanceReport(services: Services, user: { id: string }, input: PerformanceQuery): Promise<PerformanceReport> {
  const query = parseInput(PerformanceQuery, input);
  assertRange(query.from, query.to);
  const { prisma } = services;
  if (query.brandId) await assertOwnBrand(prisma, user.id, query.brandId);
  const creatives = await loadCreativePerformance(prisma, user.id, {
    brandId: query.brandId,
    key: query.creativeId,
    from: query.from,
    to: query.to,
  });
  if (query.creativeId && creatives.length === 0) throw new AppError("NOT_FOUND", `Creative ${query.creativeId} not found`);
  const all = creatives.flatMap((c) => c.series);
  return {
    from: query.from ?? null,
    to: query.to ?? null,
    totals: figuresOf(
      sumCounts(
        all.map((d) => ({
          impressions: d.impressions,
          clicks: d.clicks,
          conversions: d.conversions,
          spendCents: Math.round(d.spend * 100),
          revenueCents: Math.round(d.revenue * 100),
        })),
      ),
    ),
    creatives,
  };
}
