// Admin overview: the period's accounts, jobs and credits (with credits used per day), revenue by provider,
// plan and pack (with a series by day, week or month), and the signup funnel.
import { REVENUE_INTERVALS } from "@adgen/schema";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AdminNav } from "./admin-nav.tsx";
import { BarChart, Breakdown, dayLabel } from "./bar-chart.tsx";
import { FunnelChart } from "./funnel-chart.tsx";
import { type PeriodDays, PeriodPicker, periodInput } from "./period-picker.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { formatMoney, formatNumber, planName } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import "./admin.css";
import "./admin-console.css";

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
      <header className="page-header">
        <div>
          <h1 className="page-title">Admin</h1>
          <p className="page-subtitle muted">How the service is used and paid for, over the period you pick.</p>
        </div>
      </header>
      <AdminNav />
      <div className="admin-toolbar">
        <PeriodPicker value={days} onChange={setDays} />
        {stats.isFetching || revenue.isFetching || funnel.isFetching ? <Spinner size="sm" /> : null}
      </div>

      <div className="admin-grid">
        <section className="card" aria-labelledby="stats-users" data-testid="admin-stats">
          <h2 id="stats-users" className="card-title">
            Accounts and usage
          </h2>
          {stats.isError ? <InlineError error={stats.error} onRetry={() => void stats.refetch()} /> : null}
          {stats.data ? (
            <>
              <dl className="admin-figures">
                <div className="admin-figure">
                  <dt>Accounts</dt>
                  <dd data-testid="stats-users-total">{formatNumber(stats.data.users.total)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>New in period</dt>
                  <dd>{formatNumber(stats.data.users.newInPeriod)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Jobs launched</dt>
                  <dd data-testid="stats-jobs-total">{formatNumber(stats.data.jobs.total)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Credits granted</dt>
                  <dd>{formatNumber(stats.data.credits.granted)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Credits used</dt>
                  <dd data-testid="stats-credits-used">{formatNumber(stats.data.credits.used)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Refunded</dt>
                  <dd>{formatNumber(stats.data.credits.refunded)}</dd>
                </div>
              </dl>
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

        <section className="card" aria-labelledby="stats-breakdowns">
          <h2 id="stats-breakdowns" className="card-title">
            Breakdowns
          </h2>
          {stats.data ? (
            <>
              <h3 className="stat-label">Accounts by plan</h3>
              <Breakdown rows={entries(stats.data.users.byPlan, planName)} format={formatNumber} testId="stats-by-plan" />
              <h3 className="stat-label">Accounts by status</h3>
              <Breakdown rows={entries(stats.data.users.byStatus)} format={formatNumber} />
              <h3 className="stat-label">Jobs by type</h3>
              <Breakdown rows={entries(stats.data.jobs.byType)} format={formatNumber} testId="stats-by-type" />
              <h3 className="stat-label">Jobs by status</h3>
              <Breakdown rows={entries(stats.data.jobs.byStatus, (k) => k.replace("_", " "))} format={formatNumber} />
            </>
          ) : (
            <Skeleton height="12rem" />
          )}
        </section>
      </div>

      <div className="admin-grid">
        <section className="card" aria-labelledby="revenue-title" data-testid="admin-revenue">
          <div className="card-head">
            <h2 id="revenue-title" className="card-title">
              Revenue
            </h2>
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
          </div>
          {revenue.isError ? <InlineError error={revenue.error} onRetry={() => void revenue.refetch()} /> : null}
          {revenue.data ? (
            <>
              <dl className="admin-figures">
                <div className="admin-figure">
                  <dt>Paid</dt>
                  <dd data-testid="revenue-total">{money(revenue.data.totalCents)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Orders</dt>
                  <dd>{formatNumber(revenue.data.orders)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Refunded since</dt>
                  <dd>{money(revenue.data.refundedCents)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Credits sold</dt>
                  <dd data-testid="revenue-credits-sold">{formatNumber(revenue.data.providerCost.creditsSold)}</dd>
                </div>
                <div className="admin-figure">
                  <dt>Generation cost</dt>
                  <dd data-testid="revenue-provider-cost">
                    {formatMoney(revenue.data.providerCost.costCents / 100, "USD")} ({formatNumber(revenue.data.providerCost.jobs)} jobs)
                  </dd>
                </div>
              </dl>
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
              <Breakdown
                rows={revenue.data.byPack.map((m) => ({ key: m.key, label: planName(m.key), value: m.amountCents }))}
                format={money}
              />
            </>
          ) : revenue.isPending ? (
            <Skeleton height="12rem" />
          ) : null}
        </section>

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
