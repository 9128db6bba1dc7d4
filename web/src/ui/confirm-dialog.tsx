// An in-app confirmation for a destructive action: a modal <dialog> that says what will happen, shows
// progress while the action runs and keeps its error in place, so the person can retry or back out.
import { type ReactNode, useEffect, useId, useRef } from "react";
import { FormAlert } from "./form.tsx";
import { Spinner } from "./status.tsx";
import "../features/admin/admin.css";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The label while the action runs, e.g. "Suspending…". */
  pendingLabel: string;
  pending: boolean;
  error: string | null;
  destructive?: boolean;
  onConfirm(): void;
  onClose(): void;
  testId?: string;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  destructive = true,
  onConfirm,
  onClose,
  testId = "confirm-dialog",
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        // Escape closes, except while the action runs (its answer would land in a closed dialog).
        event.preventDefault();
        if (!pending) onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog-title">
        {title}
      </h2>
      <div className="confirm-dialog-body">{children}</div>
      {error ? <FormAlert testId="confirm-error">{error}</FormAlert> : null}
      <div className="confirm-dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={pending} data-testid="confirm-cancel">
          Keep as it is
        </button>
        <button
          type="button"
          className={destructive ? "btn btn-danger" : "btn btn-primary"}
          onClick={onConfirm}
          disabled={pending}
          aria-busy={pending}
          data-testid="confirm-ok"
        >
          {pending ? (
            <>
              <Spinner size="sm" /> {pendingLabel}
            </>
          ) : (
            confirmLabel
          )}
        </button>
      </div>
    </dialog>
  );
}
