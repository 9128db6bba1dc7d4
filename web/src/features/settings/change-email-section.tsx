// Change the sign-in e-mail address, confirmed with the current password.
import { ChangeEmailInput } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorCode, errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { SESSION_KEY_PREFIX, useTRPC } from "../../trpc.ts";
import { Field, FormAlert, FormSuccess } from "../../ui/form.tsx";

const FIELDS = ["email", "password"] as const;
type EmailField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<EmailField> = { fields: {}, form: null };

export function ChangeEmailSection({ currentEmail }: { currentEmail: string }) {
  const uid = useId();
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

  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`}>
      <div className="settings-card-intro">
        <h2 id={`${uid}-title`} className="card-title">
          E-mail address
        </h2>
        <p className="muted">
          You sign in with <strong className="settings-email">{currentEmail}</strong>. To change it, enter the new address and your
          password.
        </p>
      </div>
      <form className="form" noValidate onSubmit={handleSubmit} data-testid="change-email-form" aria-busy={change.isPending}>
        {changedTo ? <FormSuccess testId="email-changed">Done. You now sign in with {changedTo}.</FormSuccess> : null}
        {errors.form ? <FormAlert testId="email-form-error">{errors.form}</FormAlert> : null}
        <Field
          id={`${uid}-email`}
          label="New e-mail address"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            clear("email");
          }}
          error={errors.fields.email}
          errorTestId="field-error-new-email"
          data-testid="new-email"
        />
        <Field
          id={`${uid}-password`}
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            clear("password");
          }}
          error={errors.fields.password}
          errorTestId="field-error-email-password"
          data-testid="email-password"
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={change.isPending} data-testid="change-email-submit">
            {change.isPending ? "Changing e-mail…" : "Change e-mail"}
          </button>
        </div>
      </form>
    </section>
  );
}
