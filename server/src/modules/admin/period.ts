// The period of a report: `from`/`to` as days (YYYY-MM-DD, `to` inclusive) or instants; the last 30 days by default.
import { AdminPeriodQuery } from "@adgen/schema";
import type { z } from "zod";
import { AppError, parseInput } from "../../errors.ts";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

export interface Period {
  from: Date;
  /** Exclusive end. */
  to: Date;
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** `to` as a day includes that whole day (UTC). */
export function resolvePeriod(input: { from?: string | undefined; to?: string | undefined }, now = new Date(), maxDays = MAX_DAYS): Period {
  const to = input.to ? (isDay(input.to) ? new Date(Date.parse(`${input.to}T00:00:00Z`) + DAY_MS) : new Date(input.to)) : now;
  const from = input.from ? new Date(isDay(input.from) ? `${input.from}T00:00:00Z` : input.from) : new Date(to.getTime() - 30 * DAY_MS);
  if (from >= to) throw new AppError("BAD_REQUEST", "from must be before to");
  if (to.getTime() - from.getTime() > maxDays * DAY_MS) throw new AppError("BAD_REQUEST", `the period must be at most ${maxDays} days`);
  return { from, to };
}

export function parsePeriod(input: z.input<typeof AdminPeriodQuery>): Period {
  return resolvePeriod(parseInput(AdminPeriodQuery, input));
}

export const periodView = (period: Period) => ({ from: period.from.toISOString(), to: period.to.toISOString() });

/** The UTC days of a period, as YYYY-MM-DD. */
export function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let t = Date.parse(period.from.toISOString().slice(0, 10)); t < period.to.getTime(); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
