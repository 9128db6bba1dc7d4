// Creative performance: ingested daily figures, single events, the computed figures and decay detection.
// Counts are non-negative integers, money is a non-negative amount with at most two decimals (cents).
import { z } from "zod";

const count = (what: string) =>
  z
    .number({ error: `${what} must be a whole number of 0 or more` })
    .int({ error: `${what} must be a whole number of 0 or more` })
    .min(0, { error: `${what} must be a whole number of 0 or more` })
    .max(1_000_000_000_000, { error: `${what} is too large` });

const money = (what: string) =>
  z
    .number({ error: `${what} must be an amount of 0 or more` })
    .min(0, { error: `${what} must be an amount of 0 or more` })
    .max(1_000_000_000_000, { error: `${what} is too large` })
    .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, { error: `${what} must have at most two decimals` });

/** A UTC calendar day, YYYY-MM-DD, that exists. */
export const CalendarDay = z
  .string({ error: "Give the date as YYYY-MM-DD" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Give the date as YYYY-MM-DD" })
  .refine(
    (value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    },
    { error: "That date does not exist; give a real day as YYYY-MM-DD" },
  );

const creativeKey = z
  .string({ error: "Name the creative: one of your project ids or your own ad id" })
  .trim()
  .min(1, { error: "Name the creative: one of your project ids or your own ad id" })
  .max(200, { error: "The creative id must be at most 200 characters" });

const brandRef = z.string({ error: "Name the brand by its id (see your brands)" }).trim().min(1).max(100);

/** The longest period one ingest or correction may cover; longer ranges are sent in parts. */
export const PERFORMANCE_PERIOD_MAX_DAYS = 92;

const DAY_MS = 86_400_000;

/**
 * The last UTC day that has begun somewhere on Earth (the earliest time zone is UTC+14): figures for a
 * later day cannot exist yet, while an advertiser east of UTC may already send "today".
 */
export const latestStartedDay = (now = Date.now()) => new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);

/** Days from `from` to `to`, both included (1 for a single day). */
export const daysInPeriod = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * The day or period an ingest or correction is for: `date` (one day) or `from` and `to` (a period, both
 * days included), never both; not in the future; at most PERFORMANCE_PERIOD_MAX_DAYS days.
 */
function checkDayOrPeriod(
  body: { date?: string | undefined; from?: string | undefined; to?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const issue = (field: "date" | "from" | "to", message: string) => ctx.addIssue({ code: "custom", path: [field], message });
  if (body.date !== undefined && (body.from !== undefined || body.to !== undefined)) {
    issue("date", "Give either date (one day) or from and to (a period), not both");
    return;
  }
  if ((body.from === undefined) !== (body.to === undefined)) {
    issue(body.from === undefined ? "from" : "to", "A period needs both from and to (YYYY-MM-DD, both days included)");
    return;
  }
  const latest = latestStartedDay();
  for (const field of ["date", "from", "to"] as const) {
    const day = body[field];
    if (day !== undefined && day > latest)
      issue(field, `${field} (${day}) is in the future: figures can only be sent for days that have begun`);
  }
  if (body.from === undefined || body.to === undefined) return;
  if (body.to < body.from) issue("to", `The period ends before it starts: to (${body.to}) must be on or after from (${body.from})`);
  else if (daysInPeriod(body.from, body.to) > PERFORMANCE_PERIOD_MAX_DAYS)
    issue(
      "to",
      `A period can cover at most ${PERFORMANCE_PERIOD_MAX_DAYS} days; ${body.from} to ${body.to} is ${daysInPeriod(body.from, body.to)}. Send it in parts`,
    );
}

/**
 * Figures no ad platform can report: more clicks than impressions, more conversions than clicks. Said in
 * words, so a typo (5,000 clicks on 1,000 impressions) is caught before it shows as a 500 % CTR.
 */
export function impossibleFigures(figures: {
  impressions?: number | undefined;
  clicks?: number | undefined;
  conversions?: number | undefined;
}): { field: "clicks" | "conversions"; message: string } | null {
  const { impressions, clicks, conversions } = figures;
  if (impressions !== undefined && clicks !== undefined && clicks > impressions)
    return {
      field: "clicks",
      message: `clicks (${clicks}) cannot be more than impressions (${impressions}): every click is on an ad that was shown`,
    };
  if (clicks !== undefined && conversions !== undefined && conversions > clicks)
    return {
      field: "conversions",
      message: `conversions (${conversions}) cannot be more than clicks (${clicks}): check the two figures`,
    };
  return null;
}

function checkPossibleFigures(body: Parameters<typeof impossibleFigures>[0], ctx: z.RefinementCtx): void {
  const problem = impossibleFigures(body);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

export const PerformanceIngestInput = z
  .object({
    creativeId: creativeKey,
    /** The day the figures are for (UTC); today when neither date nor a period is given. */
    date: CalendarDay.optional(),
    /** A period's first day (with `to`, instead of `date`): the figures are the period's totals. */
    from: CalendarDay.optional(),
    /** A period's last day, included; at most 92 days after `from`. */
    to: CalendarDay.optional(),
    impressions: count("impressions"),
    clicks: count("clicks"),
    conversions: count("conversions"),
    spend: money("spend"),
    revenue: money("revenue"),
    /** For an external id: the brand it advertises (a project's brand comes from its launch). */
    brandId: brandRef.optional(),
  })
  .superRefine(checkDayOrPeriod)
  .superRefine(checkPossibleFigures)
  .meta({ title: "PerformanceIngestInput" });
export type PerformanceIngestInput = z.input<typeof PerformanceIngestInput>;

export const PerformanceCorrectInput = z
  .object({
    creativeId: creativeKey,
    /** The day of the ingest to correct; today when neither date nor a period is given. */
    date: CalendarDay.optional(),
    /** A period to correct (with `to`): the figures given are the period's new totals. */
    from: CalendarDay.optional(),
    to: CalendarDay.optional(),
    impressions: count("impressions").optional(),
    clicks: count("clicks").optional(),
    conversions: count("conversions").optional(),
    spend: money("spend").optional(),
    revenue: money("revenue").optional(),
  })
  .superRefine(checkDayOrPeriod)
  .meta({ title: "PerformanceCorrectInput" });
export type PerformanceCorrectInput = z.input<typeof PerformanceCorrectInput>;

/** One day's entered figures to remove, e.g. a row typed for the wrong creative. */
export const PerformanceRemoveInput = z
  .object({
    creativeId: creativeKey,
    /** The day whose entered figures are removed (recorded pixel events stay). */
    date: CalendarDay,
  })
  .meta({ title: "PerformanceRemoveInput" });
export type PerformanceRemoveInput = z.input<typeof PerformanceRemoveInput>;

export const PerformanceRemoved = z
  .object({ creativeId: z.string(), date: z.string(), removed: z.literal(true) })
  .meta({ title: "PerformanceRemoved" });
export type PerformanceRemoved = z.infer<typeof PerformanceRemoved>;

export const PERFORMANCE_EVENT_KINDS = ["impression", "click", "conversion"] as const;

export const PerformanceEventInput = z
  .object({
    /** Your id for the event; sending it again records nothing new. */
    eventId: z
      .string({ error: "Give the event an eventId, so a repeat is recorded once" })
      .trim()
      .min(1, { error: "Give the event an eventId, so a repeat is recorded once" })
      .max(200, { error: "The eventId must be at most 200 characters" }),
    creativeId: creativeKey,
    type: z.enum(PERFORMANCE_EVENT_KINDS, { error: "The event type must be impression, click or conversion" }),
    /** A conversion's value (revenue). */
    value: money("value").optional(),
    /** When it happened (ISO date-time); now when left out. */
    occurredAt: z.iso.datetime({ offset: true, error: "occurredAt must be an ISO 8601 date-time" }).optional(),
    brandId: brandRef.optional(),
  })
  .meta({ title: "PerformanceEventInput" });
export type PerformanceEventInput = z.input<typeof PerformanceEventInput>;

export const PerformanceEventReceipt = z
  .object({
    eventId: z.string(),
    creativeId: z.string(),
    /** False when this event id was already recorded (nothing changed). */
    recorded: z.boolean(),
  })
  .meta({ title: "PerformanceEventReceipt" });

export const PerformanceQuery = z.object({
  /** First day included (YYYY-MM-DD). */
  from: CalendarDay.optional(),
  /** Last day included (YYYY-MM-DD). */
  to: CalendarDay.optional(),
  brandId: brandRef.optional(),
  creativeId: creativeKey.optional(),
});
export type PerformanceQuery = z.input<typeof PerformanceQuery>;

/** Figures and the ratios computed from them; a ratio with a zero denominator is null. */
export const PerformanceFigures = z
  .object({
    impressions: z.number().int(),
    clicks: z.number().int(),
    conversions: z.number().int(),
    spend: z.number(),
    revenue: z.number(),
    /** clicks / impressions; null with no impressions. */
    ctr: z.number().nullable(),
    /** spend / clicks; null with no clicks. */
    cpc: z.number().nullable(),
    /** spend / conversions; null with no conversions. */
    cpa: z.number().nullable(),
    /** revenue / spend; null with no spend. */
    roas: z.number().nullable(),
  })
  .meta({ title: "PerformanceFigures" });
export type PerformanceFigures = z.infer<typeof PerformanceFigures>;

export const PerformanceDay = PerformanceFigures.extend({ date: z.string() }).meta({ title: "PerformanceDay" });
export type PerformanceDay = z.infer<typeof PerformanceDay>;

export const DecayTest = z
  .object({
    /** The figure in the baseline (the first days) and in the recent window (the last days). */
    baseline: z.number().nullable(),
    recent: z.number().nullable(),
    /** (recent − baseline) / baseline; −0.2 is a 20 % fall. */
    relativeChange: z.number().nullable(),
    /** One-sided p-value of the fall (null when the volume is too low to test). */
    pValue: z.number().nullable(),
    falling: z.boolean(),
  })
  .meta({ title: "DecayTest" });

export const DecayVerdict = z
  .object({
    decaying: z.boolean(),
    /** In plain words: why it is, or is not, decaying. */
    reason: z.string(),
    /** False when there is too little data or volume to judge (then never decaying). */
    enoughVolume: z.boolean(),
    baselineDays: z.array(z.string()),
    recentDays: z.array(z.string()),
    ctr: DecayTest,
    roas: DecayTest,
  })
  .meta({ title: "DecayVerdict" });
export type DecayVerdict = z.infer<typeof DecayVerdict>;

export const CreativePerformance = z
  .object({
    creativeId: z.string(),
    /** The project (job id) when the creative is one of your projects. */
    projectId: z.string().nullable(),
    name: z.string().nullable(),
    brandId: z.string().nullable(),
    stopped: z.boolean(),
    stoppedAt: z.string().nullable(),
    totals: PerformanceFigures,
    series: z.array(PerformanceDay),
    decay: DecayVerdict,
  })
  .meta({ title: "CreativePerformance" });
export type CreativePerformance = z.infer<typeof CreativePerformance>;

export const PerformanceReport = z
  .object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    totals: PerformanceFigures,
    creatives: z.array(CreativePerformance),
  })
  .meta({ title: "PerformanceReport" });
export type PerformanceReport = z.infer<typeof PerformanceReport>;

export const PerformanceIngested = z
  .object({
    creativeId: z.string(),
    projectId: z.string().nullable(),
    brandId: z.string().nullable(),
    /** The day (YYYY-MM-DD), or for a period its ISO 8601 interval (`2026-03-01/2026-03-07`). */
    date: z.string(),
    /** A period's first and last day and its number of days (present only for a period). */
    from: z.string().optional(),
    to: z.string().optional(),
    days: z.number().int().optional(),
    /** The figures ingested: the day's, or the period's totals (the sum of its days, exactly). */
    figures: PerformanceFigures,
  })
  .meta({ title: "PerformanceIngested" });
export type PerformanceIngested = z.infer<typeof PerformanceIngested>;
