// An on/off switch with its label and, where it needs one, a hint that describes it.
import type { ReactNode } from "react";

interface ToggleProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId: string;
}

export function Toggle({ id, label, hint, checked, onChange, disabled, testId }: ToggleProps) {
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  return (
    <label className="toggle" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        className="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
        aria-describedby={hintId}
      />
      <span className="toggle-text">
        <span className="toggle-label">{label}</span>
        {hint === undefined ? null : (
          <span id={hintId} className="field-hint">
            {hint}
          </span>
        )}
      </span>
    </label>
  );
}
