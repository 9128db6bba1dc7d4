// Set a new password for an account (its sessions end). Asks first, since the person is signed out.
import { AdminResetPassword, PASSWORD_MIN } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "../../trpc.ts";
import { Field, FormSuccess } from "../../ui/form.tsx";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import type { AdminUser } from "./use-admin-user.ts";
import { Email } from "../../ui/email.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

export function ResetPasswordForm({ user }: { user: AdminUser }) {
  const trpc = useTRPC();
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const reset = useMutation(trpc.admin.resetPassword.mutationOptions());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    reset.reset();
    const parsed = AdminResetPassword.safeParse({ userId: user.id, newPassword: password });
    if (!parsed.success) {
      setFieldError(`The new password must be at least ${PASSWORD_MIN} characters.`);
      return;
    }
    setFieldError(null);
    setConfirming(true);
  }

  async function run() {
    try {
      await reset.mutateAsync({ userId: user.id, newPassword: password });
      setPassword("");
      setConfirming(false);
      setDone(true);
    } catch {
      // Shown in the dialog.
    }
  }

  return (
    <SettingsCard
      title="Password"
      testId="admin-reset-password"
      intro="Set a new password when the person is locked out. Tell them the new password through a safe channel."
    >
      <form className="form" noValidate onSubmit={handleSubmit}>
        {done ? (
          <FormSuccess testId="reset-done">
            Password reset. <Email address={user.email} /> has been signed out everywhere.
          </FormSuccess>
        ) : null}
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setFieldError(null);
            setDone(false);
          }}
          error={fieldError ?? undefined}
          hint={`At least ${PASSWORD_MIN} characters.`}
          testId="reset-password"
        />
        <FormActions label="Reset password" busy={reset.isPending} testId="reset-submit" />
      </form>
      <ConfirmDialog
        open={confirming}
        title="Reset this password?"
        confirmLabel="Reset password"
        pendingLabel="Resetting…"
        {...mutationState(reset)}
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      >
        <p>
          <Email address={user.email} /> is signed out on every device and can sign in only with the new password.
        </p>
      </ConfirmDialog>
    </SettingsCard>
  );
}
