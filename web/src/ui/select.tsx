// A labelled <select> with its error or hint beneath, like `Field` for inputs.
import type { ReactNode } from "react";
import { FieldShell } from "./form.tsx";

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
  return (
    <FieldShell id={id} label={label} error={error} errorTestId={errorTestId} hint={hint} bareLabel>
      {(describedBy) => (
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
      )}
    </FieldShell>
  );
}
