// Grant or remove credits, with a reason kept in the ledger. Removing asks first (it cannot go below zero).
import { AdminCreditGrant } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { formatNumber } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { Field, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { type AdminUser, useRefreshAdminUser } from "./use-admin-user.ts";
import { Email } from "../../ui/email.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

type Direction = "grant" | "remove";

export function CreditsForm({ user }: { user: AdminUser }) {
  const uid = useId();
  const change = useCreditChange(user);
  const n = Number(change.amount);
  return (
    <SettingsCard
      title="Credits"
      testId="admin-credits"
      intro={
        <>
          Balance: <strong data-testid="admin-user-balance">{formatNumber(user.credits_balance)}</strong> credits. Every change is a ledger
          entry with its reason.
        </>
      }
    >
      <form className="form" noValidate onSubmit={change.handleSubmit} aria-busy={change.grant.isPending}>
        {change.done ? <FormSuccess testId="credits-done">{change.done}</FormSuccess> : null}
        {change.grant.isError && !change.confirming ? (
          <FormAlert testId="credits-error">{errorMessage(change.grant.error)}</FormAlert>
        ) : null}
        <DirectionChoice uid={uid} direction={change.direction} setDirection={change.setDirection} />
        <Field
          label="Credits"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={change.amount}
          onChange={(e) => {
            change.setAmount(e.target.value);
            change.setFieldError(null);
          }}
          error={change.fieldError ?? undefined}
          errorTestId="field-error-amount"
          testId="credits-amount"
        />
        <Field
          label="Reason"
          value={change.reason}
          maxLength={500}
          placeholder="e.g. Refund for a failed render"
          onChange={(e) => change.setReason(e.target.value)}
          hint="Kept in the ledger and the audit log."
          testId="credits-reason"
        />
        <FormActions
          label={change.direction === "grant" ? "Grant credits" : "Remove credits"}
          busyLabel="Saving…"
          busy={change.grant.isPending}
          showBusyLabel={!change.confirming}
          testId="credits-submit"
        />
      </form>
      <ConfirmDialog
        open={change.confirming}
        title={`Remove ${Number.isFinite(n) ? formatNumber(Math.abs(n)) : ""} credits?`}
        confirmLabel="Remove credits"
        pendingLabel="Removing…"
        {...mutationState(change.grant)}
        onConfirm={() => void change.run()}
        onClose={() => {
          change.setConfirming(false);
          change.grant.reset();
        }}
      >
        <p>
          <Email address={user.email} /> has {formatNumber(user.credits_balance)} credits. The balance never goes below zero; the removal is
          recorded with your reason.
        </p>
      </ConfirmDialog>
    </SettingsCard>
  );
}

/** Grant or remove, as two segments. */
function DirectionChoice({
  uid,
  direction,
  setDirection,
}: {
  uid: string;
  direction: Direction;
  setDirection: (direction: Direction) => void;
}) {
  return (
    <fieldset className="segmented credits-direction">
      <legend className="visually-hidden">Grant or remove credits</legend>
      {(["grant", "remove"] as const).map((value) => (
        <label
          key={value}
          className={direction === value ? "segmented-option is-selected" : "segmented-option"}
          data-testid={`credits-${value}`}
        >
          <input type="radio" name={`${uid}-direction`} value={value} checked={direction === value} onChange={() => setDirection(value)} />
          {value === "grant" ? "Grant" : "Remove"}
        </label>
      ))}
    </fieldset>
  );
}

/** A grant or removal being written: checked with the shared schema, sent at once when granting and
 * after a confirmation when removing, and the balance it leaves. */
function useCreditChange(user: AdminUser) {
  const trpc = useTRPC();
  const refresh = useRefreshAdminUser(user.id);
  const [direction, setDirection] = useState<Direction>("grant");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const grant = useMutation(trpc.admin.grantCredits.mutationOptions());

  function parsed() {
    const n = Number(amount);
    const signedAmount = direction === "remove" ? -n : n;
    return AdminCreditGrant.safeParse({ amount: amount.trim() === "" ? Number.NaN : signedAmount, reason: reason.trim() || undefined });
  }

  async function run() {
    const result = parsed();
    if (!result.success) return;
    try {
      const answer = await grant.mutateAsync({ id: user.id, ...result.data });
      const n = Math.abs(result.data.amount);
      setDone(`${direction === "grant" ? "Granted" : "Removed"} ${formatNumber(n)} credits. Balance: ${formatNumber(answer.balance)}.`);
      setAmount("");
      setReason("");
      setConfirming(false);
      refresh();
    } catch {
      // The error shows in place (in the dialog when removing, under the form when granting).
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    grant.reset();
    const result = parsed();
    if (!result.success) {
      setFieldError(
        amount.trim() === "" || Number.isNaN(Number(amount))
          ? "Enter a whole number of credits, e.g. 50."
          : (result.error.issues[0]?.message ?? "Check the amount."),
      );
      return;
    }
    setFieldError(null);
    if (direction === "remove") setConfirming(true);
    else void run();
  }

  return {
    direction,
    setDirection,
    amount,
    setAmount,
    reason,
    setReason,
    fieldError,
    setFieldError,
    confirming,
    setConfirming,
    done,
    grant,
    run,
    handleSubmit,
  };
}
