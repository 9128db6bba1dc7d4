// GET /admin/revenue: paid orders (the payment providers' and the sandbox's) in a period, by provider, by
// plan and by pack, and as a series by day, week or month (UTC; weeks start on Monday); and the credits
// sold against what the period's jobs cost at the generation providers.
import { type AdminRevenue, AdminRevenueQuery } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { parseInput } from "../../errors.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { periodView, resolvePeriod } from "./period.ts";

/** An order that was paid: `paid`, or `refunded` after it was paid. */
const PAID = ["paid", "refunded"];

interface Row {
  provider: string;
  kind: string;
  packId: string | null;
  planId: string | null;
  interval: string | null;
  /** 64-bit in the database; summed as bigint so many large orders add up exactly. */
  amountCents: bigint;
  currency: string;
  status: string;
  paidAt: Date | null;
  credits: number;
}

type Money = AdminRevenue["byProvider"][number];

/** A sum of cents as the API states it (a number: exact up to Number.MAX_SAFE_INTEGER, about 9·10^15). */
const centsOf = (sum: bigint) => Number(sum);

function sumBy(rows: Row[], keyOf: (row: Row) => string | null): Money[] {
  const sums = new Map<string, { key: string; cents: bigint; orders: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const entry = sums.get(key) ?? { key, cents: 0n, orders: 0 };
    entry.cents += row.amountCents;
    entry.orders += 1;
    sums.set(key, entry);
  }
  return [...sums.values()]
    .sort((a, b) => (a.cents === b.cents ? a.key.localeCompare(b.key) : b.cents > a.cents ? 1 : -1))
    .map(({ key, cents, orders }) => ({ key, amountCents: centsOf(cents), orders }));
}

/** The start of the bucket holding `at`, as YYYY-MM-DD (UTC). */
export function bucketOf(at: Date, interval: AdminRevenue["interval"]): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (interval === "month") day.setUTCDate(1);
  if (interval === "week") day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/** Every bucket of the period, so a chart shows the quiet days too. */
function bucketsOf(from: Date, to: Date, interval: AdminRevenue["interval"]): string[] {
  const buckets: string[] = [];
  let cursor = new Date(`${bucketOf(from, interval)}T00:00:00Z`);
  while (cursor < to) {
    buckets.push(cursor.toISOString().slice(0, 10));
    if (interval === "day") cursor.setUTCDate(cursor.getUTCDate() + 1);
    else if (interval === "week") cursor.setUTCDate(cursor.getUTCDate() + 7);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
    cursor = new Date(cursor);
  }
  return buckets;
}

export async function adminRevenue(
  services: Services,
  source: AuditSource,
  input: z.input<typeof AdminRevenueQuery>,
): Promise<AdminRevenue> {
  const query = parseInput(AdminRevenueQuery, input);
  const period = resolvePeriod(query);
  const rows: Row[] = await services.prisma.order.findMany({
    where: { status: { in: PAID }, paidAt: { gte: period.from, lt: period.to } },
    select: {
      provider: true,
      kind: true,
      packId: true,
      planId: true,
      interval: true,
      amountCents: true,
      currency: true,
      status: true,
      paidAt: true,
      credits: true,
    },
  });
  const generated = await services.prisma.job.aggregate({
    where: { createdAt: { gte: period.from, lt: period.to }, providerCostCents: { gt: 0 } },
    _sum: { providerCostCents: true },
    _count: true,
  });
  const byCurrency = sumBy(rows, (row) => row.currency.toLowerCase());
  const series = new Map(bucketsOf(period.from, period.to, query.interval).map((bucket) => [bucket, { bucket, cents: 0n, orders: 0 }]));
  for (const row of rows) {
    const entry = series.get(bucketOf(row.paidAt!, query.interval));
    if (!entry) continue;
    entry.cents += row.amountCents;
    entry.orders += 1;
  }
  const total = (of: Row[]) => centsOf(of.reduce((sum, row) => sum + row.amountCents, 0n));
  await auditAdminRead(services, source, "admin.revenue_viewed", { ...periodView(period), interval: query.interval });
  return {
    period: periodView(period),
    interval: query.interval,
    currency: byCurrency[0]?.key ?? "usd",
    totalCents: total(rows),
    orders: rows.length,
    refundedCents: total(rows.filter((row) => row.status === "refunded")),
    byCurrency,
    byProvider: sumBy(rows, (row) => row.provider),
    byPlan: sumBy(rows, (row) => (row.kind === "plan" && row.planId ? `${row.planId}${row.interval ? ` (${row.interval})` : ""}` : null)),
    byPack: sumBy(rows, (row) => (row.kind === "pack" && row.packId ? row.packId : null)),
    series: [...series.values()].map(({ bucket, cents, orders }) => ({ bucket, amountCents: centsOf(cents), orders })),
    providerCost: {
      creditsSold: rows.reduce((sum, row) => sum + row.credits, 0),
      costCents: Math.round((generated._sum.providerCostCents ?? 0) * 100) / 100,
      jobs: generated._count,
    },
  };
}
