// The one in-app confirmation: a modal <dialog> opened with showModal(), so the browser makes the rest of
// the page inert (focus stays inside), Escape closes it, and it is labelled by its title and described by
// its text. Focus starts on the safe choice and returns to the button that opened it. While the action
// runs it shows progress (and cannot be dismissed, or the answer would land in a closed dialog); an
// error stays in place so the person can retry or back out.
import { type ReactNode, useEffect, useId, useRef } from "react";
import { errorMessage } from "../lib/errors.ts";
import { FormAlert } from "./form.tsx";
import { Spinner } from "./status.tsx";
import "./confirm-dialog.css";

/** The test ids of the dialog's parts; areas written at different times name them differently. */
export interface ConfirmDialogTestIds {
  cancel: string;
  confirm: string;
  error: string;
}

const DEFAULT_TEST_IDS: ConfirmDialogTestIds = { cancel: "confirm-cancel", confirm: "confirm-ok", error: "confirm-error" };
/** The ids of the project, job and spending dialogs. */
export const KEEP_CONFIRM_TEST_IDS: ConfirmDialogTestIds = {
  cancel: "confirm-dialog-keep",
  confirm: "confirm-dialog-confirm",
  error: "confirm-error",
};

/** The `pending` and `error` of a dialog whose action is one mutation: spread it into the `ConfirmDialog`. */
export function mutationState(mutation: { isPending: boolean; isError: boolean; error: unknown }) {
  return { pending: mutation.isPending, error: mutation.isError ? errorMessage(mutation.error) : null };
}

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** The label while the action runs, e.g. "Suspending…" (shown with a spinner). */
  pendingLabel?: string;
  pending?: boolean;
  error?: string | null;
  /** The confirming action destroys something: its button is styled as a warning. */
  destructive?: boolean;
  onConfirm(): void;
  onClose(): void;
  testId?: string;
  testIds?: ConfirmDialogTestIds;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "Keep as it is",
  pendingLabel,
  pending = false,
  error = null,
  destructive = true,
  onConfirm,
  onClose,
  testId = "confirm-dialog",
  testIds = DEFAULT_TEST_IDS,
}: ConfirmDialogProps) {
  const ref = useModal(open, onClose);
  const keepRef = useRef<HTMLButtonElement>(null);
  const uid = useId();
  useEffect(() => {
    if (open) keepRef.current?.focus();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${uid}-title`}
      aria-describedby={`${uid}-body`}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onClose();
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
          {error ? <FormAlert testId={testIds.error}>{error}</FormAlert> : null}
          <div className="confirm-dialog-actions">
            <button ref={keepRef} type="button" className="btn btn-ghost" onClick={onClose} disabled={pending} data-testid={testIds.cancel}>
              {cancelLabel}
            </button>
            <button
              type="button"
              className={destructive ? "btn btn-danger" : "btn btn-primary"}
              onClick={onConfirm}
              disabled={pending}
              aria-busy={pending}
              data-testid={testIds.confirm}
            >
              {pending && pendingLabel ? (
                <>
                  <Spinner size="sm" /> {pendingLabel}
                </>
              ) : (
                confirmLabel
              )}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

/** Opens and closes the <dialog> with `open`, returns focus to its opener, and tells the parent when the
 * browser closed it on its own (a close the parent did not ask for). */
function useModal(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const state = useRef({ open, onClose });
  state.current = { open, onClose };
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      return () => opener?.focus();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    const closed = () => {
      if (state.current.open) state.current.onClose();
    };
    dialog?.addEventListener("close", closed);
    return () => dialog?.removeEventListener("close", closed);
  }, []);
  return ref;
}
