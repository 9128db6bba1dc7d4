// How a period's totals become days. A period (from..to, both included) is stored as one row per day,
// like a day's ingest, so the daily series, the date filters and decay detection read it unchanged:
// each total is spread evenly over the period's days, in whole units (impressions, clicks, conversions,
// cents), and what does not divide evenly goes one unit each to the LAST days. The days therefore add up
// to exactly the totals that were sent, and a period's days show its average rate, never a made-up trend.
import type { Counts } from "./figures.ts";

const DAY_MS = 86_400_000;

/** Every day from `from` to `to`, both included, as YYYY-MM-DD. */
export function periodDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** `total` in `parts` whole shares: equal, with the remainder one each on the last shares. */
export function spreadEvenly(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const remainder = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i >= parts - remainder ? 1 : 0));
}

const FIELDS = ["impressions", "clicks", "conversions", "spendCents", "revenueCents"] as const;

/** The period's totals as one row of counts per day (only the given fields; others are left out). */
export function splitOverDays(totals: Partial<Counts>, days: readonly string[]): Map<string, Partial<Counts>> {
  const byDay = new Map<string, Partial<Counts>>(days.map((day) => [day, {}]));
  for (const field of FIELDS) {
    const total = totals[field];
    if (total === undefined) continue;
    const shares = spreadEvenly(total, days.length);
    days.forEach((day, i) => {
      byDay.get(day)![field] = shares[i]!;
    });
  }
  return byDay;
}
