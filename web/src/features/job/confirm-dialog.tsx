// An in-app confirmation: a modal <dialog> opened with showModal(), so the browser makes the rest of the
// page inert (focus stays inside), Escape closes it, and it is labelled by its title and described by
// its text. Focus starts on the safe choice and returns to the button that opened it.
import { type ReactNode, useEffect, useId, useRef } from "react";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The confirming action is destructive: its button is styled as a warning. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger,
  busy,
  onConfirm,
  onClose,
  testId,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const uid = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      keepRef.current?.focus();
      return () => opener?.focus();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${uid}-title`}
      aria-describedby={`${uid}-body`}
      data-testid={testId}
      // Escape fires `cancel`, then `close`; both end here, so the parent's state follows the browser.
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <div className="confirm-dialog-content">
          <h2 id={`${uid}-title`} className="confirm-dialog-title">
            {title}
          </h2>
          <div id={`${uid}-body`} className="confirm-dialog-body">
            {children}
          </div>
          <div className="confirm-dialog-actions">
            <button ref={keepRef} type="button" className="btn btn-ghost" onClick={onClose} data-testid="confirm-dialog-keep">
              {cancelLabel}
            </button>
            <button
              type="button"
              className={danger ? "btn btn-danger" : "btn btn-primary"}
              onClick={onConfirm}
              disabled={busy}
              data-testid="confirm-dialog-confirm"
            >
              {confirmLabel}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
