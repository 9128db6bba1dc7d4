// A labelled <textarea> with, as the form needs, its length against the limit beside the label and its
// error or hint beneath, like `Field` for inputs.
import { type ReactNode, type TextareaHTMLAttributes, useId } from "react";
import { formatNumber } from "../lib/format.ts";
import { FieldShell } from "./form.tsx";

interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "value" | "onChange" | "className"> {
  /** The textarea's id; one is made when nothing else refers to it. */
  id?: string;
  label: ReactNode;
  value: string;
  /** Called with the new text on every change (`onValue` is the same, as `fieldBinder` gives it). */
  onChange?: (value: string) => void;
  onValue?: (value: string) => void;
  testId: string;
  error?: string | undefined;
  errorTestId?: string;
  hint?: ReactNode;
  /** Shows the length against this limit beside the label (the limit itself is not enforced). */
  counter?: { max: number; testId?: string };
}

export function TextArea({
  id: givenId,
  label,
  value,
  onChange,
  onValue,
  testId,
  error,
  errorTestId,
  hint,
  counter,
  ...textarea
}: TextAreaProps) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const countId = counter ? `${id}-count` : undefined;
  return (
    <FieldShell
      id={id}
      label={label}
      error={error}
      errorTestId={errorTestId}
      hint={hint}
      describedBy={countId}
      labelAside={counter ? <LengthCount id={`${id}-count`} length={value.length} max={counter.max} testId={counter.testId} /> : null}
    >
      {(describedBy) => (
        <textarea
          id={id}
          className="input textarea"
          value={value}
          onChange={(e) => {
            onChange?.(e.target.value);
            onValue?.(e.target.value);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-testid={testId}
          {...textarea}
        />
      )}
    </FieldShell>
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
