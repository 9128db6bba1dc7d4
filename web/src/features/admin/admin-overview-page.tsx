// Admin overview: the period's accounts, jobs and credits (with credits used per day), revenue by provider,
// plan and pack (with a series by day, week or month), and the signup funnel.
import { REVENUE_INTERVALS } from "@adgen/schema";
import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AdminNav } from "./admin-nav.tsx";
import { BarChart, Breakdown, dayLabel } from "./bar-chart.tsx";
import { FunnelChart } from "./funnel-chart.tsx";
import { type PeriodDays, PeriodPicker, periodInput } from "./period-picker.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { formatMoney, formatNumber, planName } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { AdminFigures } from "./admin-figures.tsx";
import "./admin.css";
import "./admin-console.css";
import { PageHeader } from "../../ui/page-header.tsx";
import { Card } from "../../ui/card.tsx";

const entries = (counts: Record<string, number>, label: (key: string) => string = (k) => k) =>
  Object.entries(counts)
    .filter(([, value]) => value > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([key, value]) => ({ key, label: label(key), value }));

export function AdminOverviewPage() {
  useTitle("Overview · Admin");
  const trpc = useTRPC();
  const [days, setDays] = useState<PeriodDays>(30);
  const [interval, setRevenueInterval] = useState<(typeof REVENUE_INTERVALS)[number]>("day");
  const period = periodInput(days);
  const options = { placeholderData: keepPreviousData };
  const stats = useQuery(trpc.admin.stats.queryOptions(period, options));
  const revenue = useQuery(trpc.admin.revenue.queryOptions({ ...period, interval }, options));
  const funnel = useQuery(trpc.admin.funnel.queryOptions(period, options));
  const money = (cents: number) => formatMoney(cents / 100, (revenue.data?.currency ?? "usd").toUpperCase());

  return (
    <div className="page" data-testid="admin-overview">
      <PageHeader title="Admin" subtitle="How the service is used and paid for, over the period you pick." />
      <AdminNav />
      <div className="admin-toolbar">
        <PeriodPicker value={days} onChange={setDays} />
        {stats.isFetching || revenue.isFetching || funnel.isFetching ? <Spinner size="sm" /> : null}
      </div>

      <div className="admin-grid">
        <UsageCard stats={stats} />
        <BreakdownsCard stats={stats.data} />
      </div>

      <div className="admin-grid">
        <RevenueCard revenue={revenue} interval={interval} setRevenueInterval={setRevenueInterval} money={money} />
        <section className="card" aria-labelledby="funnel-title">
          <h2 id="funnel-title" className="card-title">
            Signup funnel
          </h2>
          <p className="muted admin-empty">Accounts that signed up in the period, and how far each went.</p>
          {funnel.isError ? <InlineError error={funnel.error} onRetry={() => void funnel.refetch()} /> : null}
          {funnel.data ? <FunnelChart funnel={funnel.data} /> : funnel.isPending ? <Skeleton height="12rem" /> : null}
        </section>
      </div>
    </div>
  );
}

/** Accounts and usage in the period: the figures and the credits used per day. */
function UsageCard({ stats }: { stats: UseQueryResult<RouterOutputs["admin"]["stats"], unknown> }) {
  return (
    <section className="card" aria-labelledby="stats-users" data-testid="admin-stats">
      <h2 id="stats-users" className="card-title">
        Accounts and usage
      </h2>
      {stats.isError ? <InlineError error={stats.error} onRetry={() => void stats.refetch()} /> : null}
      {stats.data ? (
        <>
          <AdminFigures
            figures={[
              { label: "Accounts", value: formatNumber(stats.data.users.total), testId: "stats-users-total" },
              { label: "New in period", value: formatNumber(stats.data.users.newInPeriod) },
              { label: "Jobs launched", value: formatNumber(stats.data.jobs.total), testId: "stats-jobs-total" },
              { label: "Credits granted", value: formatNumber(stats.data.credits.granted) },
              { label: "Credits used", value: formatNumber(stats.data.credits.used), testId: "stats-credits-used" },
              { label: "Refunded", value: formatNumber(stats.data.credits.refunded) },
            ]}
          />
          <h3 className="stat-label">Credits used per day</h3>
          <BarChart
            caption="Credits used per day"
            bars={stats.data.daily.map((d) => ({ key: d.day, label: dayLabel(d.day), value: d.creditsUsed }))}
            testId="stats-daily-chart"
          />
        </>
      ) : stats.isPending ? (
        <Skeleton height="12rem" />
      ) : null}
    </section>
  );
}

/** Accounts by plan and status, jobs by type and status. */
function BreakdownsCard({ stats }: { stats: RouterOutputs["admin"]["stats"] | undefined }) {
  return (
    <section className="card" aria-labelledby="stats-breakdowns">
      <h2 id="stats-breakdowns" className="card-title">
        Breakdowns
      </h2>
      {stats ? (
        <>
          <h3 className="stat-label">Accounts by plan</h3>
          <Breakdown rows={entries(stats.users.byPlan, planName)} format={formatNumber} testId="stats-by-plan" />
          <h3 className="stat-label">Accounts by status</h3>
          <Breakdown rows={entries(stats.users.byStatus)} format={formatNumber} />
          <h3 className="stat-label">Jobs by type</h3>
          <Breakdown rows={entries(stats.jobs.byType)} format={formatNumber} testId="stats-by-type" />
          <h3 className="stat-label">Jobs by status</h3>
          <Breakdown rows={entries(stats.jobs.byStatus, (k) => k.replace("_", " "))} format={formatNumber} />
        </>
      ) : (
        <Skeleton height="12rem" />
      )}
    </section>
  );
}

/** What was paid in the period, per day, week or month, and by provider, plan and pack. */
function RevenueCard({
  revenue,
  interval,
  setRevenueInterval,
  money,
}: {
  revenue: UseQueryResult<RouterOutputs["admin"]["revenue"], unknown>;
  interval: (typeof REVENUE_INTERVALS)[number];
  setRevenueInterval: (interval: (typeof REVENUE_INTERVALS)[number]) => void;
  money: (cents: number) => string;
}) {
  return (
    <Card
      title="Revenue"
      titleId="revenue-title"
      testId="admin-revenue"
      aside={
        <fieldset className="admin-segmented">
          <legend className="visually-hidden">Revenue per</legend>
          {REVENUE_INTERVALS.map((value) => (
            <button
              key={value}
              type="button"
              className={value === interval ? "btn btn-small btn-primary" : "btn btn-small btn-ghost"}
              aria-pressed={value === interval}
              onClick={() => setRevenueInterval(value)}
            >
              per {value}
            </button>
          ))}
        </fieldset>
      }
    >
      {revenue.isError ? <InlineError error={revenue.error} onRetry={() => void revenue.refetch()} /> : null}
      {revenue.data ? (
        <>
          <AdminFigures
            figures={[
              { label: "Paid", value: money(revenue.data.totalCents), testId: "revenue-total" },
              { label: "Orders", value: formatNumber(revenue.data.orders) },
              { label: "Refunded since", value: money(revenue.data.refundedCents) },
              { label: "Credits sold", value: formatNumber(revenue.data.providerCost.creditsSold), testId: "revenue-credits-sold" },
              {
                label: "Generation cost",
                value: `${formatMoney(revenue.data.providerCost.costCents / 100, "USD")} (${formatNumber(revenue.data.providerCost.jobs)} jobs)`,
                testId: "revenue-provider-cost",
              },
            ]}
          />
          <BarChart
            caption={`Revenue per ${interval}`}
            bars={revenue.data.series.map((s) => ({ key: s.bucket, label: dayLabel(s.bucket), value: s.amountCents }))}
            format={money}
            testId="revenue-chart"
          />
          <h3 className="stat-label">By provider</h3>
          <Breakdown rows={revenue.data.byProvider.map((m) => ({ key: m.key, label: m.key, value: m.amountCents }))} format={money} />
          <h3 className="stat-label">By plan</h3>
          <Breakdown rows={revenue.data.byPlan.map((m) => ({ key: m.key, label: m.key, value: m.amountCents }))} format={money} />
          <h3 className="stat-label">By pack</h3>
          <Breakdown rows={revenue.data.byPack.map((m) => ({ key: m.key, label: planName(m.key), value: m.amountCents }))} format={money} />
        </>
      ) : revenue.isPending ? (
        <Skeleton height="12rem" />
      ) : null}
    </Card>
  );
}
