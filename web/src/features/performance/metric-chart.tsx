// One figure of one creative over time (CTR or ROAS), as a small SVG line: no chart library, like the
// dashboard's usage chart. Days without the figure (a zero denominator) leave a gap. The same figures
// are in a table for screen readers.
export interface ChartPoint {
  date: string;
  value: number | null;
}

const WIDTH = 320;
const HEIGHT = 96;
const PAD = 6;

function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}

/** Line segments through the points with a value; a null breaks the line. */
function paths(points: ChartPoint[], peak: number): string[] {
  const step = points.length > 1 ? (WIDTH - 2 * PAD) / (points.length - 1) : 0;
  const segments: string[] = [];
  let current = "";
  points.forEach((p, i) => {
    if (p.value === null) {
      if (current) segments.push(current);
      current = "";
      return;
    }
    const x = PAD + i * step;
    const y = HEIGHT - PAD - (p.value / peak) * (HEIGHT - 2 * PAD);
    current += `${current ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)} `;
  });
  if (current) segments.push(current);
  return segments;
}

export function MetricChart({
  title,
  points,
  format,
  testId,
}: {
  title: string;
  points: ChartPoint[];
  format(value: number): string;
  testId: string;
}) {
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  const peak = Math.max(...values, 0) || 1;
  const last = values.at(-1);
  return (
    <figure className="metric-chart" data-testid={testId}>
      <figcaption className="metric-chart-head">
        <span>{title}</span>
        <span className="muted">{last === undefined ? "no data" : `latest ${format(last)}`}</span>
      </figcaption>
      {values.length === 0 ? (
        <p className="muted metric-chart-empty">
          No {title} yet: it needs {title === "CTR" ? "impressions" : "spend"}.
        </p>
      ) : (
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="metric-chart-svg" aria-hidden="true">
          <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} className="metric-chart-axis" />
          {paths(points, peak).map((d) => (
            <path key={d} d={d} className="metric-chart-line" />
          ))}
        </svg>
      )}
      {points.length > 0 ? (
        <div className="metric-chart-axis-labels muted" aria-hidden="true">
          <span>{dayLabel(points[0]!.date)}</span>
          <span>{dayLabel(points.at(-1)!.date)}</span>
        </div>
      ) : null}
      <table className="visually-hidden">
        <caption>{title} per day</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.date}>
              <th scope="row">{dayLabel(p.date)}</th>
              <td>{p.value === null ? "none" : format(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
