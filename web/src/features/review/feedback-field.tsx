// The reviewer's optional feedback, recorded with the decision.
import { FEEDBACK_LIMIT } from "./drafts.ts";
import { Counter } from "./review-counter.tsx";

export function FeedbackField({
  id,
  value,
  onChange,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  return (
    <div className="field review-feedback">
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          Feedback <span className="muted field-optional">optional</span>
        </label>
        <Counter id={`${id}-count`} length={value.length} limit={FEEDBACK_LIMIT} />
      </div>
      <textarea
        id={id}
        className="input textarea"
        rows={2}
        maxLength={FEEDBACK_LIMIT}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="What should change? Recorded with your decision."
        aria-describedby={`${id}-count`}
        disabled={disabled}
        data-testid="review-feedback"
      />
    </div>
  );
}
