// Labelled inputs with their error beside them, and the form-level alert.
import { type InputHTMLAttributes, type ReactNode, useId } from "react";

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  /** data-testid of the error message, e.g. "field-error-email". */
  errorTestId?: string | undefined;
  hint?: ReactNode;
  /** Beside the label (a counter, a link); the label then stands in a `field-label-row`. */
  labelAside?: ReactNode;
  /** The label alone, without its `field-label-row` (a select has nothing beside its label). */
  bareLabel?: boolean;
  /** Ids that also describe the control, before its error and hint (a length counter). */
  describedBy?: string | undefined;
  /** The control, given the `aria-describedby` it must carry. */
  children: (describedBy: string | undefined) => ReactNode;
}

/** What every labelled control shares: the label, then the control, then its error or (without one) its hint. */
export function FieldShell({ id, label, error, errorTestId, hint, labelAside, bareLabel, describedBy, children }: FieldShellProps) {
  const showHint = Boolean(hint) && !error;
  const ids = [describedBy, error ? `${id}-error` : null, showHint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  const labelEl = (
    <label htmlFor={id} className="field-label">
      {label}
    </label>
  );
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      {bareLabel ? (
        labelEl
      ) : (
        <div className="field-label-row">
          {labelEl}
          {labelAside}
        </div>
      )}
      {children(ids)}
      <FieldError id={`${id}-error`} error={error} testId={errorTestId} />
      {showHint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  /** The input's id; one is made when nothing else refers to it. */
  id?: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** data-testid of the input; its error is then "field-error-<testId>" unless `errorTestId` says otherwise. */
  testId?: string;
  /** data-testid of the error message, e.g. "field-error-email". */
  errorTestId?: string;
  labelAside?: ReactNode;
  /** Called with the new text on every change (beside, or instead of, `onChange`). */
  onValue?: (value: string) => void;
}

export function Field({ id, label, error, hint, testId, errorTestId, labelAside, onValue, onChange, ...input }: FieldProps) {
  const madeId = useId();
  const inputId = id ?? madeId;
  return (
    <FieldShell
      id={inputId}
      label={label}
      error={error}
      errorTestId={errorTestId ?? (testId ? `field-error-${testId}` : undefined)}
      hint={hint}
      labelAside={labelAside}
    >
      {(describedBy) => (
        <input
          id={inputId}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-testid={testId}
          onChange={(e) => {
            onChange?.(e);
            onValue?.(e.target.value);
          }}
          {...input}
        />
      )}
    </FieldShell>
  );
}

/**
 * Ties a `Field` to one value of a form whose errors are kept by field: its value, its error, and what typing
 * does (sets the value, then `clear`s that field's error). Spread the result into the `Field`.
 */
export function fieldBinder<F extends string>(errors: Partial<Record<F, string>>, clear: (field: F) => void) {
  return (field: F, value: string, setValue: (value: string) => void) => ({
    value,
    error: errors[field],
    onValue: (next: string) => {
      setValue(next);
      clear(field);
    },
  });
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
