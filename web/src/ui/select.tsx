// A labelled <select> with its error or hint beneath, like `Field` for inputs.
import type { ReactNode } from "react";
import { FieldError } from "./form.tsx";

interface SelectProps {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  error?: string | undefined;
  errorTestId?: string;
  hint?: ReactNode;
  disabled?: boolean;
  children: ReactNode;
}

export function Select({ id, label, value, onChange, testId, error, errorTestId, hint, disabled, children }: SelectProps) {
  const describedBy = [error ? `${id}-error` : null, hint && !error ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="input select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      >
        {children}
      </select>
      <FieldError id={`${id}-error`} error={error} testId={errorTestId} />
      {hint && !error ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
