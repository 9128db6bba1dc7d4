// A clone's reading of its reference ad: hook, beats in order, pacing, on-screen text and call to
// action, which the new ad follows.
import type { ReferenceAnalysis as Analysis } from "@adgen/schema";
import { formatNumber } from "../../lib/format.ts";

const PACING_LABELS = { fast: "Fast", medium: "Medium", slow: "Slow" } as const;

export function ReferenceAnalysis({ analysis }: { analysis: Analysis }) {
  return (
    <section className="result-section" aria-labelledby="analysis-title" data-testid="reference-analysis">
      <h3 id="analysis-title" className="result-section-title">
        What the reference does
      </h3>
      <p className="muted analysis-url">
        <a href={analysis.url} target="_blank" rel="noreferrer noopener">
          {analysis.url}
        </a>
      </p>
      {!analysis.readable ? (
        <p className="alert alert-warning" role="status">
          The reference could not be read, so the new ad follows a standard structure instead.
        </p>
      ) : null}
      <dl className="analysis-facts">
        <div>
          <dt>Hook</dt>
          <dd>{analysis.hook ?? <span className="muted">None found</span>}</dd>
        </div>
        <div>
          <dt>Pacing</dt>
          <dd>
            {PACING_LABELS[analysis.pacing.label]} · about {formatNumber(Math.round(analysis.pacing.secondsPerBeat * 10) / 10)} s per beat
          </dd>
        </div>
        <div>
          <dt>Call to action</dt>
          <dd>{analysis.callToAction ?? <span className="muted">None found</span>}</dd>
        </div>
      </dl>
      {analysis.beats.length ? (
        <>
          <h4 className="result-subtitle">Beats</h4>
          <ol className="analysis-beats">
            {analysis.beats.map((beat, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: beats may repeat a role and text; their place in the fixed list is their identity
              <li key={i}>
                <span className="badge">{beat.role}</span> {beat.text}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {analysis.onScreenText.length ? (
        <>
          <h4 className="result-subtitle">On-screen text</h4>
          <ul className="chip-list">
            {analysis.onScreenText.map((line) => (
              <li key={line} className="chip">
                {line}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
