// Labelled inputs with their error beside them, and the form-level alert.
import type { InputHTMLAttributes, ReactNode } from "react";

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** data-testid of the error message, e.g. "field-error-email". */
  errorTestId?: string;
  labelAside?: ReactNode;
}

export function Field({ id, label, error, hint, errorTestId, labelAside, ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {labelAside}
      </div>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {error ? (
        <p id={errorId} className="field-error" role="alert" data-testid={errorTestId}>
          <ErrorIcon />
          <span>{error}</span>
        </p>
      ) : null}
      {hint && !error ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The error line under a control that is not a plain `Field` (select, textarea, checkbox group). */
export function FieldError({ id, error, testId }: { id?: string; error: string | undefined; testId?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="field-error" role="alert" data-testid={testId}>
      <ErrorIcon />
      <span>{error}</span>
    </p>
  );
}

export function FormAlert({ children, testId = "form-error" }: { children: ReactNode; testId?: string }) {
  return (
    <div className="alert alert-error" role="alert" data-testid={testId}>
      <ErrorIcon />
      <div>{children}</div>
    </div>
  );
}

export function FormSuccess({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="alert alert-success" role="status" data-testid={testId}>
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="alert-icon">
        <path
          fill="currentColor"
          d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm4.03 6.28-4.75 5.5a.75.75 0 0 1-1.1.04l-2.25-2.25a.75.75 0 1 1 1.06-1.06l1.68 1.68 4.22-4.89a.75.75 0 1 1 1.14.98Z"
        />
      </svg>
      <div>{children}</div>
    </div>
  );
}

function ErrorIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" className="alert-icon">
      <path
        fill="currentColor"
        d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm0 4a.9.9 0 0 1 .9.9v4.2a.9.9 0 1 1-1.8 0V6.4a.9.9 0 0 1 .9-.9Zm0 9.3a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z"
      />
    </svg>
  );
}
