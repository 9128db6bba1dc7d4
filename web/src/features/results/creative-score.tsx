// A storyboard's creative score (0–100) with the checks behind it: shown in review before rendering and
// with the finished ad. On a phone the checks start folded.
import type { CreativeScore } from "@adgen/schema";
import { useId, useState } from "react";

function scoreTone(score: number, max: number): "good" | "fair" | "weak" {
  const ratio = max > 0 ? score / max : 0;
  return ratio >= 0.75 ? "good" : ratio >= 0.5 ? "fair" : "weak";
}

const TONE_LABELS = { good: "Strong", fair: "Fair", weak: "Needs work" } as const;

function usePhone(): boolean {
  const query = "(max-width: 640px)";
  const [phone] = useState(() => typeof window !== "undefined" && window.matchMedia?.(query).matches === true);
  return phone;
}

interface CreativeScoreCardProps {
  score: CreativeScore;
  note?: string;
  /** Start with the checks folded (they start open on wider screens otherwise). */
  folded?: boolean;
}

export function CreativeScoreCard({ score, note, folded = false }: CreativeScoreCardProps) {
  const uid = useId();
  const phone = usePhone();
  const [open, setOpen] = useState(!phone && !folded);
  const tone = scoreTone(score.score, score.max);
  const value = Math.max(0, Math.min(score.max, score.score));
  return (
    <section className={`review-score review-tone-${tone}`} aria-labelledby={`${uid}-score`} data-testid="creative-score">
      <div className="review-score-head">
        <p className="review-score-number" id={`${uid}-score`}>
          <span className="visually-hidden">Creative score: </span>
          <strong data-testid="creative-score-value">{score.score}</strong>
          <span className="review-score-max">/{score.max}</span>
        </p>
        <div className="review-score-meter-wrap">
          <p className="review-score-label">
            Creative score · <span className="review-score-tone">{TONE_LABELS[tone]}</span>
          </p>
          <meter
            className="review-meter"
            min={0}
            max={score.max}
            low={score.max * 0.5}
            high={score.max * 0.75}
            optimum={score.max}
            value={value}
            aria-label="Creative score"
            aria-valuetext={`${score.score} out of ${score.max}, ${TONE_LABELS[tone].toLowerCase()}`}
          >
            {score.score}/{score.max}
          </meter>
          {note ? <p className="review-score-note muted">{note}</p> : null}
        </div>
      </div>
      {score.checks.length > 0 ? (
        <details className="review-checks" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary className="review-checks-summary">
            {open ? "Hide" : "Show"} the {score.checks.length} checks behind the score
          </summary>
          <ul className="review-check-list">
            {score.checks.map((check) => {
              const checkTone = scoreTone(check.points, check.max);
              return (
                <li key={check.id} className={`review-check review-tone-${checkTone}`} data-testid={`creative-check-${check.id}`}>
                  <div className="review-check-head">
                    <span className="review-check-label">{check.label}</span>
                    <span className="review-check-points mono">
                      {check.points}/{check.max}
                    </span>
                  </div>
                  <span className="review-check-bar" aria-hidden="true">
                    <span style={{ width: `${check.max > 0 ? (Math.max(0, check.points) / check.max) * 100 : 0}%` }} />
                  </span>
                  <p className="review-check-reason">{check.reason}</p>
                </li>
              );
            })}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
