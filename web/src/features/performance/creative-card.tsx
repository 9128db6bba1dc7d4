// One creative on the Performance page: its totals, CTR and ROAS over time, and its decay verdict (or
// that the loop stopped it).
import type { RouterOutputs } from "../../trpc.ts";
import { formatNumber } from "../../lib/format.ts";
import { EnteredDays } from "./entered-days.tsx";
import { MetricChart } from "./metric-chart.tsx";

type Creative = RouterOutputs["performance"]["report"]["creatives"][number];

export const percent = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(2)} %`);
export const times = (value: number | null) => (value === null ? "—" : `${value.toFixed(2)}×`);
const money = (value: number | null) => (value === null ? "—" : value.toFixed(2));

export function CreativeCard({ creative }: { creative: Creative }) {
  const { totals, decay } = creative;
  return (
    <article className="card creative-card" data-testid="creative-card" data-creative={creative.creativeId}>
      <header className="creative-card-head">
        <div className="creative-card-name">
          <h3 className="card-title">{creative.name || creative.creativeId}</h3>
          {creative.projectId ? (
            <a href={`/studio/jobs/${creative.projectId}`} className="muted">
              Project
            </a>
          ) : (
            <span className="muted">External ad</span>
          )}
        </div>
        {creative.stopped ? (
          <span className="badge badge-muted" data-testid="creative-stopped">
            Stopped
          </span>
        ) : decay.decaying ? (
          <span className="badge badge-danger" data-testid="decay-flag">
            Decaying
          </span>
        ) : decay.enoughVolume ? (
          <span className="badge badge-success">Steady</span>
        ) : (
          <span className="badge badge-muted">Too little data</span>
        )}
      </header>
      <dl className="creative-figures">
        <div>
          <dt>Impressions</dt>
          <dd>{formatNumber(totals.impressions)}</dd>
        </div>
        <div>
          <dt>CTR</dt>
          <dd>{percent(totals.ctr)}</dd>
        </div>
        <div>
          <dt>CPC</dt>
          <dd>{money(totals.cpc)}</dd>
        </div>
        <div>
          <dt>CPA</dt>
          <dd>{money(totals.cpa)}</dd>
        </div>
        <div>
          <dt>ROAS</dt>
          <dd>{times(totals.roas)}</dd>
        </div>
      </dl>
      <div className="creative-charts">
        <MetricChart
          title="CTR"
          testId="ctr-chart"
          points={creative.series.map((d) => ({ date: d.date, value: d.ctr }))}
          format={percent}
        />
        <MetricChart
          title="ROAS"
          testId="roas-chart"
          points={creative.series.map((d) => ({ date: d.date, value: d.roas }))}
          format={times}
        />
      </div>
      <p className={decay.decaying ? "creative-decay decaying" : "creative-decay muted"} data-testid="decay-reason">
        {decay.reason}
      </p>
      <EnteredDays creativeId={creative.creativeId} days={creative.series} />
    </article>
  );
}
