// Ingesting and correcting a period's figures (from..to instead of one date). The totals are stored as
// one row per day (see period.ts), so a period and single days are one timeline: a period that covers a
// day already ingested with other figures is a conflict naming that day; the same period sent again
// (every day already holds its share) is a harmless repeat.
import type { PerformanceMetric } from "@adgen/prisma";
import type { PerformanceIngested } from "@adgen/schema";
import type { Tx } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { type Counts, figuresOf, refuseImpossibleFigures, sumCounts } from "./figures.ts";
import { periodDays, splitOverDays } from "./period.ts";

interface Creative {
  id: string;
  key: string;
  jobId: string | null;
  brandId: string | null;
}

export interface Period {
  from: string;
  to: string;
}

const dayDate = (day: string) => new Date(`${day}T00:00:00.000Z`);
const dayOf = (row: PerformanceMetric) => row.day.toISOString().slice(0, 10);

export const countsOf = (row: PerformanceMetric): Counts => ({
  impressions: row.impressions,
  clicks: row.clicks,
  conversions: row.conversions,
  spendCents: Number(row.spendCents),
  revenueCents: Number(row.revenueCents),
});

const rowData = (counts: Partial<Counts>) => ({
  ...(counts.impressions !== undefined ? { impressions: counts.impressions } : {}),
  ...(counts.clicks !== undefined ? { clicks: counts.clicks } : {}),
  ...(counts.conversions !== undefined ? { conversions: counts.conversions } : {}),
  ...(counts.spendCents !== undefined ? { spendCents: BigInt(counts.spendCents) } : {}),
  ...(counts.revenueCents !== undefined ? { revenueCents: BigInt(counts.revenueCents) } : {}),
});

const periodRows = (tx: Tx, creativeId: string, period: Period) =>
  tx.performanceMetric.findMany({
    where: { creativeId, day: { gte: dayDate(period.from), lte: dayDate(period.to) } },
    orderBy: { day: "asc" },
  });

function periodIngested(creative: Creative, period: Period, rows: PerformanceMetric[]): PerformanceIngested {
  return {
    creativeId: creative.key,
    projectId: creative.jobId,
    brandId: creative.brandId,
    date: `${period.from}/${period.to}`,
    from: period.from,
    to: period.to,
    days: periodDays(period.from, period.to).length,
    figures: figuresOf(sumCounts(rows.map(countsOf))),
  };
}

/** Stores the period's totals as its days' shares, in the caller's transaction. */
export async function ingestPeriod(tx: Tx, creative: Creative, period: Period, totals: Counts): Promise<PerformanceIngested> {
  const days = periodDays(period.from, period.to);
  const shares = splitOverDays(totals, days) as Map<string, Counts>;
  // Every day of the period already stored must hold exactly its share; the first one that does not is named.
  const checkStored = async () => {
    const rows = await periodRows(tx, creative.id, period);
    for (const row of rows) {
      const share = shares.get(dayOf(row))!;
      const stored = countsOf(row);
      if ((Object.keys(share) as (keyof Counts)[]).some((field) => stored[field] !== share[field]))
        throw new AppError(
          "CONFLICT",
          `Figures for ${creative.key} on ${dayOf(row)} were already ingested with other figures, and that day is inside ${period.from} to ${period.to}; correct them with PATCH /api/workflow/performance, or send the period without that day`,
        );
    }
    return rows;
  };
  const stored = await checkStored();
  if (stored.length === days.length) return periodIngested(creative, period, stored);
  const have = new Set(stored.map(dayOf));
  await tx.performanceMetric.createMany({
    data: days
      .filter((day) => !have.has(day))
      .map((day) => {
        const share = shares.get(day)!;
        return {
          creativeId: creative.id,
          day: dayDate(day),
          ...share,
          spendCents: BigInt(share.spendCents),
          revenueCents: BigInt(share.revenueCents),
        };
      }),
    // Another ingest of one of these days at the same moment: its row stays, and the check below decides.
    skipDuplicates: true,
  });
  return periodIngested(creative, period, await checkStored());
}

/**
 * Corrects a period: the figures given are its new totals, spread over its days like an ingest; the
 * figures not given keep each day's value. Every day of the period must have been ingested.
 */
export async function correctPeriod(tx: Tx, creative: Creative, period: Period, totals: Partial<Counts>): Promise<PerformanceIngested> {
  const days = periodDays(period.from, period.to);
  const rows = await periodRows(tx, creative.id, period);
  const have = new Set(rows.map(dayOf));
  const missing = days.find((day) => !have.has(day));
  if (missing)
    throw new AppError(
      "NOT_FOUND",
      `No figures for ${creative.key} on ${missing} to correct (inside ${period.from} to ${period.to}): ingest the period with POST first`,
    );
  refuseImpossibleFigures({ ...sumCounts(rows.map(countsOf)), ...totals });
  const shares = splitOverDays(totals, days);
  for (const row of rows) {
    await tx.performanceMetric.update({ where: { id: row.id }, data: rowData(shares.get(dayOf(row))!) });
  }
  return periodIngested(creative, period, await periodRows(tx, creative.id, period));
}
