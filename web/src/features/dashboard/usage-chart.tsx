// Credits used per day over the last 14 days, as bars (from `user.analytics`: a day's credits are what
// its runs kept, refunds taken off), with the same figures as a table for screen readers.
import { useQuery } from "@tanstack/react-query";
import { formatNumber } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { Card } from "../../ui/card.tsx";
import { TableHead } from "../../ui/table-head.tsx";

const DAYS = 14;

function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}

export function UsageChart() {
  const trpc = useTRPC();
  const analytics = useQuery(trpc.user.analytics.queryOptions({ period: "30d" }));
  const days = analytics.data?.trends.slice(-DAYS) ?? [];
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const runs = days.reduce((sum, d) => sum + d.projects, 0);
  const peak = Math.max(1, ...days.map((d) => d.credits));
  return (
    <Card
      title={<>Credits used, last {DAYS} days</>}
      titleId="usage-title"
      testId="usage-chart"
      aside={
        analytics.data ? (
          <span className="muted usage-total" data-testid="usage-total">
            {formatNumber(total)} {total === 1 ? "credit" : "credits"} · {formatNumber(runs)} {runs === 1 ? "run" : "runs"}
          </span>
        ) : null
      }
    >
      {analytics.isError ? <InlineError error={analytics.error} onRetry={() => void analytics.refetch()} /> : null}
      {analytics.isPending ? (
        <Skeleton width="100%" height="7rem" />
      ) : analytics.data ? (
        <>
          <div className="usage-bars" aria-hidden="true">
            {days.map((d) => (
              <div key={d.date} className="usage-day" title={`${dayLabel(d.date)}: ${d.credits} credits, ${d.projects} runs`}>
                <span className="usage-bar" style={{ height: `${(d.credits / peak) * 100}%` }} data-credits={d.credits} />
              </div>
            ))}
          </div>
          <div className="usage-axis muted" aria-hidden="true">
            <span>{days[0] ? dayLabel(days[0].date) : ""}</span>
            <span>Today</span>
          </div>
          <table className="visually-hidden">
            <caption>Credits used and runs per day</caption>
            <TableHead columns={["Day", "Credits", "Runs"]} />
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{dayLabel(d.date)}</th>
                  <td>{d.credits}</td>
                  <td>{d.projects}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {total === 0 ? <p className="muted usage-empty">No credits used in the last {DAYS} days.</p> : null}
        </>
      ) : null}
    </Card>
  );
}
