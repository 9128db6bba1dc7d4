// Change the sign-in e-mail address, confirmed with the current password.
import { ChangeEmailInput } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorCode, errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { SESSION_KEY_PREFIX, useTRPC } from "../../trpc.ts";
import { Field, fieldBinder, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

const FIELDS = ["email", "password"] as const;
type EmailField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<EmailField> = { fields: {}, form: null };

export function ChangeEmailSection({ currentEmail }: { currentEmail: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<SplitErrors<EmailField>>(NO_ERRORS);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const change = useMutation(trpc.user.changeEmail.mutationOptions());

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    setChangedTo(null);
    const parsed = ChangeEmailInput.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      return;
    }
    setErrors(NO_ERRORS);
    try {
      const answer = await change.mutateAsync(parsed.data);
      setEmail("");
      setPassword("");
      setChangedTo(answer.email);
      // The header, this page's subtitle and the profile all show the address.
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY_PREFIX });
      void queryClient.invalidateQueries({ queryKey: trpc.user.profile.queryKey() });
    } catch (error) {
      // A taken address is about the address; a wrong password is a sentence for the whole form.
      if (errorCode(error) === "CONFLICT") setErrors({ fields: { email: errorMessage(error) }, form: null });
      else setErrors(splitServerError(error, FIELDS));
    }
  }

  function clear(field: EmailField) {
    setChangedTo(null);
    if (errors.fields[field] || errors.form) setErrors((prev) => ({ form: null, fields: { ...prev.fields, [field]: undefined } }));
  }
  const bind = fieldBinder(errors.fields, clear);

  return (
    <SettingsCard
      title="E-mail address"
      intro={
        <>
          You sign in with <strong className="settings-email">{currentEmail}</strong>. To change it, enter the new address and your
          password.
        </>
      }
    >
      <form className="form" noValidate onSubmit={handleSubmit} data-testid="change-email-form" aria-busy={change.isPending}>
        {changedTo ? <FormSuccess testId="email-changed">Done. You now sign in with {changedTo}.</FormSuccess> : null}
        {errors.form ? <FormAlert testId="email-form-error">{errors.form}</FormAlert> : null}
        <Field label="New e-mail address" type="email" autoComplete="email" {...bind("email", email, setEmail)} testId="new-email" />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...bind("password", password, setPassword)}
          testId="email-password"
        />
        <FormActions label="Change e-mail" busyLabel="Changing e-mail…" busy={change.isPending} testId="change-email-submit" />
      </form>
    </SettingsCard>
  );
}
