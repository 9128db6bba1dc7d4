// One of a scene's texts (headline, body or call to action) with its count and error.
import { FieldError } from "../../ui/form.tsx";
import { type Draft, FIELD_LABELS, REVIEW_LIMITS, type TextField } from "./drafts.ts";
import { Counter } from "./review-counter.tsx";

interface SceneTextFieldProps {
  base: string;
  field: TextField;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (patch: Partial<Draft>) => void;
}

export function SceneTextField({ base, field, value, error, disabled, onChange }: SceneTextFieldProps) {
  const id = `${base}-${field}`;
  const countId = `${id}-count`;
  const errorId = `${id}-error`;
  const props = {
    id,
    className: `input${field === "body" ? " textarea review-textarea" : ""}`,
    value,
    maxLength: Math.max(REVIEW_LIMITS[field], value.length),
    disabled,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [error ? errorId : null, countId].filter(Boolean).join(" "),
    "data-testid": `scene-${field}`,
  } as const;
  return (
    <div className={`field review-field review-field-${field}${error ? " has-error" : ""}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {FIELD_LABELS[field]}
          {field !== "headline" ? <span className="muted field-optional"> optional</span> : null}
        </label>
        <Counter id={countId} length={value.trim().length} limit={REVIEW_LIMITS[field]} />
      </div>
      {field === "body" ? (
        <textarea {...props} rows={2} onChange={(e) => onChange({ body: e.target.value })} />
      ) : (
        <input {...props} type="text" onChange={(e) => onChange({ [field]: e.target.value })} />
      )}
      <FieldError id={errorId} error={error} testId={`scene-${field}-error`} />
    </div>
  );
}
