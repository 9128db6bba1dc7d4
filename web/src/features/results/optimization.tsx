// An optimizer's changes: the project it improved, its creative score before and the new one, the
// performance it had, and each change (before → after) with why.
import type { Optimization as OptimizationData } from "@adgen/schema";
import { Link } from "wouter";

export function Optimization({ optimization }: { optimization: OptimizationData }) {
  const { performance } = optimization;
  const rated = performance.ratingsUp + performance.ratingsDown > 0;
  return (
    <section className="result-section" aria-labelledby="optimization-title" data-testid="optimization">
      <h3 id="optimization-title" className="result-section-title">
        What changed, and why
      </h3>
      <p className="optimization-summary">
        From <Link href={`/studio/jobs/${encodeURIComponent(optimization.sourceProjectId)}`}>the original ad</Link>: creative score{" "}
        <strong data-testid="optimization-score">
          {optimization.scoreBefore ?? "–"} → {optimization.scoreAfter}
        </strong>
        {optimization.scoreBefore !== null ? <ScoreDelta before={optimization.scoreBefore} after={optimization.scoreAfter} /> : null}
      </p>
      <p className="muted">
        {rated
          ? `The original was rated ${performance.ratingsUp} up and ${performance.ratingsDown} down.`
          : "The original had no ratings yet, so the changes come from its creative score."}
      </p>
      {performance.feedback.length ? (
        <ul className="optimization-feedback">
          {performance.feedback.map((f) => (
            <li key={f}>“{f}”</li>
          ))}
        </ul>
      ) : null}
      <ol className="change-list">
        {optimization.changes.map((change) => (
          <li key={`${change.area}-${change.after}`} className="change" data-testid="optimization-change">
            <span className="badge">{change.area}</span>
            <p className="change-diff">
              {change.before !== null ? (
                <>
                  <del className="change-before">{change.before}</del>
                  <span aria-hidden="true"> → </span>
                  <span className="visually-hidden"> became </span>
                </>
              ) : (
                <span className="muted">Added: </span>
              )}
              <ins className="change-after">{change.after}</ins>
            </p>
            <p className="change-why muted">{change.why}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ScoreDelta({ before, after }: { before: number; after: number }) {
  const delta = after - before;
  if (delta === 0) return <span className="muted"> (unchanged)</span>;
  return <span className={delta > 0 ? "delta-up" : "delta-down"}> ({delta > 0 ? `+${delta}` : delta})</span>;
}
