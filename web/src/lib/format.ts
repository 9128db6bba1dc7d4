// Display helpers: plan names, money, dates and the trial countdown.
import { CREDIT_PACKS, PLANS, type PlanId } from "@adgen/schema";

const PACK_NAMES: Record<string, string> = Object.fromEntries(CREDIT_PACKS.map((p) => [p.id, `${p.credits}-credit pack`]));
const PLAN_NAMES: Record<string, string> = Object.fromEntries(PLANS.map((p) => [p.id, p.name]));

export function planName(id: PlanId | string): string {
  return PLAN_NAMES[id] ?? PACK_NAMES[id] ?? id;
}

export function formatMoney(amount: number, currency = "USD"): string {
  return new Intl.NumberFormat(undefined, {
    style: "currency",
    currency,
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

export function formatNumber(n: number): string {
  return new Intl.NumberFormat().format(n);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateTime.format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateOnly.format(d);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export type TrialState = "none" | "active" | "ending" | "ended";

export interface TrialCountdown {
  state: TrialState;
  /** e.g. "13 days 4 hours left", "Trial ended", "No trial" */
  label: string;
  days: number;
  hours: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Days and hours until the trial ends, from `trial_ends_at`. */
export function trialCountdown(endsAt: string | null | undefined, now: number): TrialCountdown {
  if (!endsAt) return { state: "none", label: "No trial", days: 0, hours: 0 };
  const end = new Date(endsAt).getTime();
  if (Number.isNaN(end)) return { state: "none", label: "No trial", days: 0, hours: 0 };
  const left = end - now;
  if (left <= 0) return { state: "ended", label: "Trial ended", days: 0, hours: 0 };
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  let label: string;
  if (days === 0 && hours === 0) label = "Less than an hour left";
  else if (days === 0) label = `${plural(hours, "hour", "hours")} left`;
  else label = `${plural(days, "day", "days")} ${plural(hours, "hour", "hours")} left`;
  return { state: days < 2 ? "ending" : "active", label, days, hours };
}

export function signed(n: number): string {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}
