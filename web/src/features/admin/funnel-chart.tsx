// The funnel: one bar per stage, its width the share of the signups, with the conversion from the stage before.
import type { AdminFunnel } from "@adgen/schema";
import { formatNumber } from "../../lib/format.ts";

const LABELS: Record<string, string> = {
  signup: "Signed up",
  login: "Signed in",
  studio: "Used the studio",
  generate: "Got an ad",
  purchase: "Purchased",
};

const pct = (value: number | null) => (value === null ? "–" : `${value}%`);

export function FunnelChart({ funnel }: { funnel: AdminFunnel }) {
  return (
    <ol className="admin-funnel" data-testid="admin-funnel">
      {funnel.stages.map((stage) => (
        <li key={stage.stage} className="admin-funnel-stage" data-stage={stage.stage}>
          <div className="admin-funnel-head">
            <span className="admin-funnel-label" title={stage.definition}>
              {LABELS[stage.stage] ?? stage.stage}
            </span>
            <span className="admin-funnel-count" data-testid={`funnel-${stage.stage}`}>
              {formatNumber(stage.count)}
            </span>
          </div>
          <span className="admin-funnel-track" aria-hidden="true">
            <span className="admin-funnel-fill" style={{ width: `${stage.conversionFromStart ?? 0}%` }} />
          </span>
          <span className="admin-funnel-rate muted">
            {stage.stage === "signup"
              ? "accounts created in the period"
              : stage.conversionFromPrevious === null
                ? "no one reached the stage before"
                : `${pct(stage.conversionFromPrevious)} of the stage before · ${pct(stage.conversionFromStart)} of signups`}
          </span>
        </li>
      ))}
    </ol>
  );
}
