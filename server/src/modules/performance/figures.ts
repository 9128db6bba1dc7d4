// The computed figures of a creative: CTR, CPC, CPA and ROAS from its counts and money. Money is kept in
// cents (integers) and only turned into amounts here, so sums never drift. A ratio whose denominator is
// zero has no value: it is null, never 0 or Infinity (no impressions: no CTR; no clicks: no CPC; no
// conversions: no CPA; no spend: no ROAS).
import { impossibleFigures, type PerformanceFigures } from "@adgen/schema";
import { AppError } from "../../errors.ts";

export interface Counts {
  impressions: number;
  clicks: number;
  conversions: number;
  spendCents: number;
  revenueCents: number;
}

export const ZERO_COUNTS: Counts = { impressions: 0, clicks: 0, conversions: 0, spendCents: 0, revenueCents: 0 };

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    conversions: a.conversions + b.conversions,
    spendCents: a.spendCents + b.spendCents,
    revenueCents: a.revenueCents + b.revenueCents,
  };
}

export const sumCounts = (list: readonly Counts[]): Counts => list.reduce(addCounts, ZERO_COUNTS);

/** numerator / denominator, or null when the denominator is 0. Rounded to 6 decimals for stable answers. */
export function ratio(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.round((numerator / denominator) * 1e6) / 1e6;
}

export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;

export function figuresOf(counts: Counts): PerformanceFigures {
  return {
    impressions: counts.impressions,
    clicks: counts.clicks,
    conversions: counts.conversions,
    spend: fromCents(counts.spendCents),
    revenue: fromCents(counts.revenueCents),
    ctr: ratio(counts.clicks, counts.impressions),
    cpc: ratio(counts.spendCents / 100, counts.clicks),
    cpa: ratio(counts.spendCents / 100, counts.conversions),
    roas: ratio(counts.revenueCents, counts.spendCents),
  };
}

/** Refuses counts no platform reports (a correction is judged on the figures it leaves, not only those it sends). */
export function refuseImpossibleFigures(counts: Pick<Counts, "impressions" | "clicks" | "conversions">): void {
  const problem = impossibleFigures(counts);
  if (problem) throw new AppError("BAD_REQUEST", problem.message, { fields: [problem] });
}
