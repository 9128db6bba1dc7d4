// How strong the prompt is: its score and grade, the points by criterion, and what would improve it.
import { Spinner } from "../../ui/status.tsx";
import type { BuiltPrompt } from "./prompt-form.ts";

export function ScoreCard({ result, fetching }: { result: BuiltPrompt; fetching: boolean }) {
  const pct = Math.max(0, Math.min(100, result.score));
  return (
    <section className="card studio-summary" aria-label="Score" data-testid="pb-score-card">
      <div style={{ display: "flex", alignItems: "baseline", justifyContent: "space-between", gap: 8 }}>
        <h2 className="studio-step-title">Score</h2>
        <span>
          <strong style={{ fontSize: 28 }} data-testid="pb-score">
            {result.score}
          </strong>
          <span className="muted">/100</span>{" "}
          <span
            className={`badge ${result.grade === "excellent" || result.grade === "good" ? "badge-success" : result.grade === "fair" ? "badge-warning" : "badge-danger"}`}
          >
            {result.grade}
          </span>
          {fetching ? (
            <>
              {" "}
              <Spinner size="sm" />
            </>
          ) : null}
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={result.score}
        aria-label="Prompt score"
      >
        <span className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <ul style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: 6 }} data-testid="pb-breakdown">
        {result.breakdown.map((b) => (
          <li key={b.criterion} style={{ display: "grid", gap: 2 }}>
            <span style={{ display: "flex", justifyContent: "space-between", gap: 8 }}>
              <span>{b.label}</span>
              <span className="muted" style={{ fontVariantNumeric: "tabular-nums" }}>
                {b.points}/{b.max}
              </span>
            </span>
            <span className="field-hint" style={{ margin: 0 }}>
              {b.note}
            </span>
          </li>
        ))}
      </ul>
      {result.suggestions.length ? (
        <div>
          <h3 className="field-label">Suggestions</h3>
          <ul style={{ paddingLeft: 18, margin: "6px 0 0", display: "grid", gap: 4 }} data-testid="pb-suggestions">
            {result.suggestions.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">Nothing to add: this prompt covers every criterion.</p>
      )}
    </section>
  );
}
