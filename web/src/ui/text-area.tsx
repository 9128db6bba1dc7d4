// A labelled <textarea> with, as the form needs, its length against the limit beside the label and its
// error or hint beneath, like `Field` for inputs.
import type { ReactNode, TextareaHTMLAttributes } from "react";
import { formatNumber } from "../lib/format.ts";
import { FieldError } from "./form.tsx";

interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "value" | "onChange" | "className"> {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  error?: string | undefined;
  errorTestId?: string;
  hint?: ReactNode;
  /** Shows the length against this limit beside the label (the limit itself is not enforced). */
  counter?: { max: number; testId?: string };
}

export function TextArea({ id, label, value, onChange, testId, error, errorTestId, hint, counter, ...textarea }: TextAreaProps) {
  const describedBy =
    [counter ? `${id}-count` : null, error ? `${id}-error` : null, hint && !error ? `${id}-hint` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {counter ? <LengthCount id={`${id}-count`} length={value.length} max={counter.max} testId={counter.testId} /> : null}
      </div>
      <textarea
        id={id}
        className="input textarea"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
        {...textarea}
      />
      <FieldError id={`${id}-error`} error={error} testId={errorTestId} />
      {hint && !error ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function LengthCount({ id, length, max, testId }: { id: string; length: number; max: number; testId: string | undefined }) {
  return (
    <span
      id={id}
      className={`char-count${length > max ? " is-over" : length > max * 0.9 ? " is-near" : ""}`}
      aria-live="polite"
      data-testid={testId}
    >
      {formatNumber(length)} / {formatNumber(max)}
    </span>
  );
}
