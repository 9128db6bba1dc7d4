// Plan, role and trial end of an account. Changing the role asks first (admin rights are broad).
import { PACK_IDS, PLAN_IDS, type PlanId, ROLES, type Role } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { planName } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { type AdminUser, useRefreshAdminUser } from "./use-admin-user.ts";
import { Select } from "../../ui/select.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

/** `yyyy-mm-dd` of an ISO date-time in the browser's zone, for a date input. */
function toDateInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of the chosen day in the browser's zone, as an ISO date-time; null for no trial end. */
function fromDateInput(value: string): string | null {
  if (!value) return null;
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y!, m! - 1, d!, 23, 59, 59).toISOString();
}

export function AccountFieldsForm({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const uid = useId();
  const trpc = useTRPC();
  const refresh = useRefreshAdminUser(user.id);
  const [plan, setPlan] = useState<PlanId>(user.current_plan_id);
  const [role, setRole] = useState<Role>(user.role);
  const [trialEnd, setTrialEnd] = useState(toDateInput(user.trial_ends_at));
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const update = useMutation(trpc.admin.updateUser.mutationOptions());

  // A fresh copy of the account (after another action) resets the form to what is stored.
  useEffect(() => {
    setPlan(user.current_plan_id);
    setRole(user.role);
    setTrialEnd(toDateInput(user.trial_ends_at));
  }, [user.current_plan_id, user.role, user.trial_ends_at]);

  const patch = {
    ...(plan !== user.current_plan_id ? { current_plan_id: plan } : {}),
    ...(role !== user.role ? { role } : {}),
    ...(trialEnd !== toDateInput(user.trial_ends_at) ? { trial_ends_at: fromDateInput(trialEnd) } : {}),
  };
  const dirty = Object.keys(patch).length > 0;

  async function run() {
    try {
      const updated = await update.mutateAsync({ id: user.id, ...patch });
      setConfirming(false);
      setDone(true);
      refresh(updated);
    } catch {
      // Shown in place (dialog or form).
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!dirty || update.isPending) return;
    setDone(false);
    update.reset();
    if ("role" in patch) setConfirming(true);
    else void run();
  }

  return (
    <SettingsCard
      title="Plan and role"
      testId="admin-account-fields"
      intro="The plan decides monthly credits and which workflows are open; the trial end applies to trial plans."
    >
      <form className="form" onSubmit={handleSubmit} aria-busy={update.isPending}>
        {done && !dirty ? <FormSuccess testId="fields-done">Saved.</FormSuccess> : null}
        {update.isError && !confirming ? <FormAlert testId="fields-error">{errorMessage(update.error)}</FormAlert> : null}
        <Select
          id={`${uid}-plan`}
          label="Plan"
          value={plan}
          onChange={(value) => {
            setPlan(value as PlanId);
            setDone(false);
          }}
          testId="admin-plan"
        >
          {/* Credit packs are bought, not plans: offered only as the account's current value, said as such. */}
          {PLAN_IDS.filter((id) => id === plan || !(PACK_IDS as readonly string[]).includes(id)).map((id) => (
            <option key={id} value={id}>
              {(PACK_IDS as readonly string[]).includes(id) ? `${planName(id)} (a credit pack, not a plan)` : planName(id)}
            </option>
          ))}
        </Select>
        <Select
          id={`${uid}-role`}
          label="Role"
          value={role}
          disabled={isSelf}
          onChange={(value) => {
            setRole(value as Role);
            setDone(false);
          }}
          hint={isSelf ? "You cannot change your own role." : undefined}
          testId="admin-role"
        >
          {ROLES.map((value) => (
            <option key={value} value={value}>
              {value === "admin" ? "Administrator" : "User"}
            </option>
          ))}
        </Select>
        <TrialEndField uid={uid} trialEnd={trialEnd} setTrialEnd={setTrialEnd} setDone={setDone} />
        <FormActions
          label="Save changes"
          busyLabel="Saving…"
          busy={update.isPending}
          showBusyLabel={!confirming}
          disabled={!dirty}
          testId="fields-submit"
        />
      </form>
      <ConfirmDialog
        open={confirming}
        title={role === "admin" ? "Make this account an administrator?" : "Remove administrator rights?"}
        confirmLabel={role === "admin" ? "Make administrator" : "Remove rights"}
        pendingLabel="Saving…"
        {...mutationState(update)}
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      >
        <p>
          {role === "admin"
            ? `${user.email} will see every account and can change credits, plans and passwords.`
            : `${user.email} will no longer reach the admin pages.`}
        </p>
      </ConfirmDialog>
    </SettingsCard>
  );
}

/** The day the trial ends (its end, in the browser's zone), or no end. */
function TrialEndField({
  uid,
  trialEnd,
  setTrialEnd,
  setDone,
}: {
  uid: string;
  trialEnd: string;
  setTrialEnd: (value: string) => void;
  setDone: (done: boolean) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={`${uid}-trial`} className="field-label">
        Trial ends
      </label>
      <div className="input-with-action">
        <input
          id={`${uid}-trial`}
          className="input"
          type="date"
          value={trialEnd}
          onChange={(e) => {
            setTrialEnd(e.target.value);
            setDone(false);
          }}
          data-testid="admin-trial-end"
        />
        {trialEnd ? (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setTrialEnd("")} data-testid="admin-trial-clear">
            No end
          </button>
        ) : null}
      </div>
      <p className="field-hint">The trial ends at the end of this day, your time.</p>
    </div>
  );
}
