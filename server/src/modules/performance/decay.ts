// Decay detection, against the creative's own baseline (see docs/domains/performance-loop.md, "Decay"):
// - baseline: the creative's first days with data (3 to 7; fewer when the history is short), recent: its
//   last 3 days; the two never overlap, so at least 6 days of data are needed;
// - volume first: at least 10,000 impressions in all, 3,000 in each window and 30 baseline clicks, else it is
//   not judged (noise is not called decay);
// - CTR decays when the recent CTR is at least 15 % below the baseline's AND a one-sided two-proportion
//   z-test on the click counts says the fall is significant (p < 0.05);
// - ROAS decays when the recent ROAS is at least 15 % below the baseline's AND conversions per unit of
//   spend fell significantly (one-sided conditional Poisson rate test, p < 0.05), with 20 baseline
//   conversions at least.
// A steady creative's windows differ only by noise, so neither test fires.
import type { DecayVerdict } from "@adgen/schema";
import { type Counts, ratio, sumCounts } from "./figures.ts";
import { proportionFallPValue, pValueText, rateFallPValue } from "./statistics.ts";

export const DECAY_RULES = {
  recentDays: 3,
  minBaselineDays: 3,
  maxBaselineDays: 7,
  minImpressions: 10_000,
  minWindowImpressions: 3_000,
  minBaselineClicks: 30,
  minBaselineConversions: 20,
  minRelativeFall: 0.15,
  alpha: 0.05,
} as const;

export interface DailyCounts extends Counts {
  date: string;
}

const noTest = { baseline: null, recent: null, relativeChange: null, pValue: null, falling: false };

const round = (value: number | null, digits = 6) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

function change(baseline: number | null, recent: number | null): number | null {
  if (baseline === null || recent === null || baseline === 0) return null;
  return round((recent - baseline) / baseline, 4);
}

const percent = (value: number) => `${Math.round(Math.abs(value) * 100)} %`;

export function detectDecay(series: readonly DailyCounts[]): DecayVerdict {
  const days = series.filter((day) => day.impressions > 0 || day.spendCents > 0);
  const R = DECAY_RULES;
  const notJudged = (reason: string, baselineDays: string[] = [], recentDays: string[] = []): DecayVerdict => ({
    decaying: false,
    reason,
    enoughVolume: false,
    baselineDays,
    recentDays,
    ctr: noTest,
    roas: noTest,
  });
  if (days.length < R.minBaselineDays + R.recentDays) {
    return notJudged(
      `Not judged yet: ${days.length} day(s) of data; decay needs ${R.minBaselineDays + R.recentDays} (a ${R.minBaselineDays}-day baseline and a ${R.recentDays}-day recent window).`,
    );
  }
  const baseline = days.slice(0, Math.min(R.maxBaselineDays, days.length - R.recentDays));
  const recent = days.slice(-R.recentDays);
  const baselineDays = baseline.map((d) => d.date);
  const recentDays = recent.map((d) => d.date);
  const before = sumCounts(baseline);
  const after = sumCounts(recent);
  const total = sumCounts(days);
  if (total.impressions < R.minImpressions || before.impressions < R.minWindowImpressions || after.impressions < R.minWindowImpressions) {
    return notJudged(
      `Not judged: ${total.impressions} impressions (${before.impressions} in the baseline, ${after.impressions} recently); decay is only called with ${R.minImpressions} in all and ${R.minWindowImpressions} in each window.`,
      baselineDays,
      recentDays,
    );
  }
  if (before.clicks < R.minBaselineClicks) {
    return notJudged(
      `Not judged: only ${before.clicks} clicks in the baseline; decay needs ${R.minBaselineClicks}.`,
      baselineDays,
      recentDays,
    );
  }

  const ctrBefore = ratio(before.clicks, before.impressions);
  const ctrAfter = ratio(after.clicks, after.impressions);
  const ctrChange = change(ctrBefore, ctrAfter);
  const ctrP = proportionFallPValue(before.clicks, before.impressions, after.clicks, after.impressions);
  const ctrFalling = ctrChange !== null && ctrChange <= -R.minRelativeFall && ctrP !== null && ctrP < R.alpha;

  const roasBefore = ratio(before.revenueCents, before.spendCents);
  const roasAfter = ratio(after.revenueCents, after.spendCents);
  const roasChange = change(roasBefore, roasAfter);
  const roasTestable = before.conversions >= R.minBaselineConversions && before.spendCents > 0 && after.spendCents > 0;
  const roasP = roasTestable ? rateFallPValue(before.conversions, before.spendCents, after.conversions, after.spendCents) : null;
  const roasFalling = roasChange !== null && roasChange <= -R.minRelativeFall && roasP !== null && roasP < R.alpha;

  const reasons: string[] = [];
  if (ctrFalling) reasons.push(`CTR fell ${percent(ctrChange ?? 0)} from its baseline (${pValueText(ctrP ?? 1)})`);
  if (roasFalling) reasons.push(`ROAS fell ${percent(roasChange ?? 0)} from its baseline (${pValueText(roasP ?? 1)})`);
  const reason = reasons.length
    ? `Decaying: ${reasons.join("; ")}.`
    : `Steady: no significant fall of at least ${Math.round(R.minRelativeFall * 100)} % in CTR or ROAS against its own baseline.`;
  return {
    decaying: ctrFalling || roasFalling,
    reason,
    enoughVolume: true,
    baselineDays,
    recentDays,
    ctr: { baseline: ctrBefore, recent: ctrAfter, relativeChange: ctrChange, pValue: round(ctrP), falling: ctrFalling },
    roas: { baseline: roasBefore, recent: roasAfter, relativeChange: roasChange, pValue: round(roasP), falling: roasFalling },
  };
}
