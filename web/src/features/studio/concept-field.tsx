// What the ad should say: the concept, with its length against the limit as the user types.
import type { FieldNeed, WorkflowType } from "@adgen/schema";
import { formatNumber } from "../../lib/format.ts";
import { FieldError } from "../../ui/form.tsx";
import { CONCEPT_PLACEHOLDER } from "./labels.ts";

interface ConceptFieldProps {
  id: string;
  type: WorkflowType;
  need: FieldNeed;
  max: number;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

export function ConceptField({ id, type, need, max, value, onChange, error }: ConceptFieldProps) {
  const length = value.length;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          Concept <span className="muted field-optional">{need}</span>
        </label>
        <span
          id={`${id}-count`}
          className={`char-count${length > max ? " is-over" : length > max * 0.9 ? " is-near" : ""}`}
          aria-live="polite"
          data-testid="concept-count"
        >
          {formatNumber(length)} / {formatNumber(max)}
        </span>
      </div>
      <textarea
        id={id}
        className="input textarea"
        name="concept"
        rows={5}
        placeholder={CONCEPT_PLACEHOLDER[type] ?? "What should the ad say and show?"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}
        data-testid="field-concept"
      />
      <FieldError id={`${id}-error`} error={error} testId="field-error-concept" />
    </div>
  );
}
