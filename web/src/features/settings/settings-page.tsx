import { ChangePasswordInput, PASSWORD_MIN, PROVIDER_PREFERENCES, type ProviderPreference } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Link } from "wouter";
import { Field, fieldBinder, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { PushNotificationsSection } from "./push-toggle.tsx";
import { ApiKeyPanel } from "./api-key-panel.tsx";
import { ChangeEmailSection } from "./change-email-section.tsx";
import { SocialAccountsSection } from "./social-accounts-section.tsx";
import { WebhookPanel } from "./webhook-panel.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { Email } from "../../ui/email.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function SettingsPage({ session }: PageProps) {
  useTitle("Settings");
  return (
    <div className="page page-narrow">
      <PageHeader
        title="Settings"
        subtitle={
          <>
            Account settings for{" "}
            <strong className="settings-email">
              <Email address={session.email} />
            </strong>
          </>
        }
      />
      <ChangeEmailSection currentEmail={session.email} />
      <ChangePasswordSection />
      <ProviderPreferenceSection />
      <PushNotificationsSection />
      <SocialAccountsSection />
      <ApiKeyPanel />
      <WebhookPanel />
      <section className="card settings-card" id="brand-kit" data-testid="brand-settings-link">
        <div className="settings-card-intro">
          <h2 className="card-title">Brand</h2>
          <p className="muted">
            Your brands, their kit and photos, the publishing schedule and the knowledge base are on the{" "}
            <Link href="/brand">Brand page</Link>.
          </p>
        </div>
      </section>
    </div>
  );
}

const PASSWORD_FIELDS = ["currentPassword", "newPassword"] as const;
type PasswordField = (typeof PASSWORD_FIELDS)[number];
const NO_ERRORS: SplitErrors<PasswordField> = { fields: {}, form: null };

/** What a password change ended: the other sessions, and the API key (which the user can make again). */
function PasswordChanged({ otherSessionsEnded, apiKeyRevoked }: { otherSessionsEnded: number; apiKeyRevoked: boolean }) {
  const sessions =
    otherSessionsEnded === 0
      ? "No other session was signed in."
      : `${otherSessionsEnded} other ${otherSessionsEnded === 1 ? "session was" : "sessions were"} signed out.`;
  return (
    <FormSuccess testId="password-changed">
      Password changed. {sessions}
      {apiKeyRevoked ? (
        <>
          {" "}
          Your API key was revoked too, so a leaked key stops working: <Link href="/billing">make a new one on Billing</Link>.
        </>
      ) : null}
    </FormSuccess>
  );
}

function ChangePasswordSection() {
  const trpc = useTRPC();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [errors, setErrors] = useState<SplitErrors<PasswordField>>(NO_ERRORS);
  /** What the change ended besides the old password (null: nothing changed yet). */
  const [changed, setChanged] = useState<{ otherSessionsEnded: number; apiKeyRevoked: boolean } | null>(null);
  const change = useMutation(trpc.user.changePassword.mutationOptions());

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    setChanged(null);
    const parsed = ChangePasswordInput.safeParse({ currentPassword, newPassword });
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, PASSWORD_FIELDS));
      return;
    }
    setErrors(NO_ERRORS);
    try {
      const outcome = await change.mutateAsync(parsed.data);
      setCurrentPassword("");
      setNewPassword("");
      setChanged({ otherSessionsEnded: outcome.otherSessionsEnded, apiKeyRevoked: outcome.apiKeyRevoked });
    } catch (error) {
      setErrors(splitServerError(error, PASSWORD_FIELDS));
    }
  }

  function clear(field: PasswordField) {
    setChanged(null);
    if (errors.fields[field]) setErrors((prev) => ({ ...prev, fields: { ...prev.fields, [field]: undefined } }));
  }
  const bind = fieldBinder(errors.fields, clear);
  const passwordFields = [
    {
      name: "currentPassword",
      label: "Current password",
      autoComplete: "current-password",
      value: currentPassword,
      setValue: setCurrentPassword,
      testId: "current-password",
      hint: undefined,
    },
    {
      name: "newPassword",
      label: "New password",
      autoComplete: "new-password",
      value: newPassword,
      setValue: setNewPassword,
      testId: "new-password",
      hint: `At least ${PASSWORD_MIN} characters.`,
    },
  ] as const;

  return (
    <SettingsCard
      title="Password"
      intro="Changing your password signs out your other sessions and revokes your API key. This one stays signed in."
    >
      <form className="form" noValidate onSubmit={handleSubmit} data-testid="change-password-form" aria-busy={change.isPending}>
        {changed ? <PasswordChanged {...changed} /> : null}
        {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
        {passwordFields.map((f) => (
          <Field
            key={f.name}
            label={f.label}
            type="password"
            name={f.name}
            autoComplete={f.autoComplete}
            {...bind(f.name, f.value, f.setValue)}
            testId={f.testId}
            hint={f.hint}
          />
        ))}
        <FormActions label="Change password" busyLabel="Changing password…" busy={change.isPending} testId="submit" />
      </form>
    </SettingsCard>
  );
}

const PROVIDER_OPTIONS: Record<ProviderPreference, { label: string; help: string }> = {
  auto: { label: "Automatic (recommended)", help: "AdGen picks a provider for each job." },
  fal: { label: "fal.ai", help: "Prefer fal.ai for your video jobs." },
  replicate: { label: "Replicate", help: "Prefer Replicate for your video jobs." },
};

function ProviderPreferenceSection() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.user.providerPreference.queryOptions());
  const [choice, setChoice] = useState<ProviderPreference | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.user.setProviderPreference.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.user.providerPreference.queryKey(), data);
        void queryClient.invalidateQueries({ queryKey: trpc.user.profile.queryKey() });
        setSaved(true);
      },
    }),
  );

  useEffect(() => {
    if (current.data && choice === null) setChoice(current.data.preference);
  }, [current.data, choice]);

  const selected = choice ?? current.data?.preference ?? "auto";
  const dirty = current.data ? selected !== current.data.preference : false;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!dirty || save.isPending) return;
    setSaved(false);
    save.mutate({ preference: selected });
  }

  return (
    <SettingsCard title="Video provider" intro="Which rendering provider your jobs should prefer.">
      {current.isError ? (
        <InlineError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <form className="form" onSubmit={handleSubmit} data-testid="provider-preference-form">
          {saved && !dirty ? <FormSuccess testId="preference-saved">Preference saved.</FormSuccess> : null}
          {save.isError ? <FormAlert testId="preference-error">{errorMessage(save.error)}</FormAlert> : null}
          <div className="field">
            <label htmlFor={`${uid}-select`} className="field-label">
              Preferred provider
            </label>
            {current.isPending ? (
              <Skeleton width="100%" height="2.5rem" />
            ) : (
              <select
                id={`${uid}-select`}
                className="input select"
                value={selected}
                aria-describedby={`${uid}-help`}
                onChange={(e) => {
                  setChoice(e.target.value as ProviderPreference);
                  setSaved(false);
                }}
                data-testid="provider-preference"
              >
                {PROVIDER_PREFERENCES.map((value) => (
                  <option key={value} value={value}>
                    {PROVIDER_OPTIONS[value].label}
                  </option>
                ))}
              </select>
            )}
            <p id={`${uid}-help`} className="field-hint">
              {PROVIDER_OPTIONS[selected].help}
            </p>
          </div>
          <FormActions label="Save preference" busyLabel="Saving…" busy={save.isPending} disabled={!dirty} testId="save-preference" />
        </form>
      )}
    </SettingsCard>
  );
}
