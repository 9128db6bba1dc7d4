// A labelled <select> with its error or hint beneath, like `Field` for inputs.
import type { ReactNode } from "react";
import { FieldError } from "../../ui/form.tsx";

interface SelectFieldProps {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  errorTestId: string;
  testId: string;
  hint?: ReactNode;
  children: ReactNode;
}

export function SelectField({ id, label, value, onChange, error, errorTestId, testId, hint, children }: SelectFieldProps) {
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
