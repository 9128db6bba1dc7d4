// The row of buttons under a form: its submit button (disabled and relabelled while the form is sending)
// and, after it, any other buttons the form has (Cancel, Make default).
import type { ReactNode } from "react";

interface FormActionsProps {
  /** The submit button's label. */
  label: ReactNode;
  /** Shown instead of `label` while `busy`; without it the label stays. */
  busyLabel?: ReactNode;
  busy: boolean;
  /** False keeps `label` while busy (the sending is shown elsewhere, in a dialog). */
  showBusyLabel?: boolean;
  /** Disabled while busy and also when this is true (nothing to save yet). */
  disabled?: boolean;
  testId: string;
  /** Button classes; "btn btn-primary" unless told. */
  className?: string;
  /** Classes of the row beside `form-actions`. */
  rowClassName?: string;
  /** Further buttons after the submit button. */
  children?: ReactNode;
}

export function FormActions({
  label,
  busyLabel,
  busy,
  showBusyLabel = true,
  disabled,
  testId,
  className = "btn btn-primary",
  rowClassName,
  children,
}: FormActionsProps) {
  return (
    <div className={rowClassName ? `form-actions ${rowClassName}` : "form-actions"}>
      <button type="submit" className={className} disabled={busy || disabled} data-testid={testId}>
        {busy && showBusyLabel && busyLabel !== undefined ? busyLabel : label}
      </button>
      {children}
    </div>
  );
}
