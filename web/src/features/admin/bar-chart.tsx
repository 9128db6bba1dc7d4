// Bars for a series (credits per day, revenue per week…), drawn with CSS like the dashboard's usage chart,
// with the same figures as a table for screen readers. No chart library.
export interface Bar {
  key: string;
  label: string;
  value: number;
}

export function BarChart({
  bars,
  caption,
  format = String,
  testId,
}: {
  bars: Bar[];
  caption: string;
  format?: (n: number) => string;
  testId?: string;
}) {
  const peak = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <div className="admin-chart" data-testid={testId}>
      <div className="admin-bars" style={{ gridTemplateColumns: `repeat(${Math.max(1, bars.length)}, minmax(0, 1fr))` }} aria-hidden="true">
        {bars.map((bar) => (
          <div key={bar.key} className="admin-bar-slot" title={`${bar.label}: ${format(bar.value)}`}>
            <span className="admin-bar" style={{ height: `${(bar.value / peak) * 100}%` }} data-value={bar.value} />
          </div>
        ))}
      </div>
      <div className="admin-chart-axis muted" aria-hidden="true">
        <span>{bars[0]?.label ?? ""}</span>
        <span>{bars.at(-1)?.label ?? ""}</span>
      </div>
      <table className="visually-hidden">
        <caption>{caption}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.key}>
              <th scope="row">{bar.label}</th>
              <td>{format(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Horizontal bars for a breakdown (jobs by type, revenue by provider). */
export function Breakdown({
  rows,
  format = String,
  testId,
}: {
  rows: { key: string; label: string; value: number }[];
  format?: (n: number) => string;
  testId?: string;
}) {
  const peak = Math.max(1, ...rows.map((row) => row.value));
  if (rows.length === 0) return <p className="muted admin-empty">Nothing in this period.</p>;
  return (
    <ul className="admin-breakdown" data-testid={testId}>
      {rows.map((row) => (
        <li key={row.key}>
          <span className="admin-breakdown-label">{row.label}</span>
          <span className="admin-breakdown-track" aria-hidden="true">
            <span className="admin-breakdown-fill" style={{ width: `${(row.value / peak) * 100}%` }} />
          </span>
          <span className="admin-breakdown-value">{format(row.value)}</span>
        </li>
      ))}
    </ul>
  );
}

export const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
