// Suspend (ends the account's sessions at once) or reactivate an account. Suspending asks first.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { type AdminUser, useRefreshAdminUser } from "./use-admin-user.ts";
import { Email } from "../../ui/email.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";

export function StatusControl({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefreshAdminUser(user.id);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const setStatus = useMutation(trpc.admin.setUserStatus.mutationOptions());
  const suspended = user.status === "suspended";

  async function change(status: "active" | "suspended") {
    setDone(null);
    try {
      const updated = await setStatus.mutateAsync({ id: user.id, status });
      setConfirming(false);
      setDone(status === "suspended" ? "Account suspended. Its sessions have ended." : "Account reactivated. It can sign in again.");
      refresh(updated);
    } catch {
      // Shown in place below.
    }
  }

  return (
    <SettingsCard
      title="Access"
      testId="admin-status"
      intro={
        suspended
          ? "This account is suspended: it cannot sign in or use the API."
          : "Suspending signs the account out everywhere and refuses its sign-ins and API keys until reactivated."
      }
    >
      <div className="form admin-status-body">
        {done ? <FormSuccess testId="status-done">{done}</FormSuccess> : null}
        {setStatus.isError && !confirming ? <FormAlert testId="status-error">{errorMessage(setStatus.error)}</FormAlert> : null}
        <div className="form-actions">
          {suspended ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={setStatus.isPending}
              onClick={() => void change("active")}
              data-testid="reactivate"
            >
              {setStatus.isPending ? "Reactivating…" : "Reactivate account"}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-danger"
              disabled={setStatus.isPending || isSelf}
              title={isSelf ? "You cannot suspend your own account" : undefined}
              onClick={() => {
                setDone(null);
                setStatus.reset();
                setConfirming(true);
              }}
              data-testid="suspend"
            >
              Suspend account
            </button>
          )}
        </div>
        {isSelf && !suspended ? <p className="field-hint">This is your own account; another administrator can suspend it.</p> : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Suspend this account?"
        confirmLabel="Suspend account"
        pendingLabel="Suspending…"
        {...mutationState(setStatus)}
        onConfirm={() => void change("suspended")}
        onClose={() => setConfirming(false)}
      >
        <p>
          <Email address={user.email} /> is signed out at once and cannot sign in or use the API until you reactivate the account.
        </p>
      </ConfirmDialog>
    </SettingsCard>
  );
}
