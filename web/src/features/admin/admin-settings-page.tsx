// System settings: signup credits, trial days, maintenance mode and its message, feature flags. Each
// change is validated (here with the server's schema, then by the server) and audited.
import { SystemSettings, type SystemSettingsView } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { AdminNav } from "./admin-nav.tsx";
import { Field, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import "./admin.css";
import "./admin-console.css";
import { PageHeader } from "../../ui/page-header.tsx";

type Settings = SystemSettingsView["settings"];

/** The settings as the form edits them: numbers as typed, flags flat. */
function draftOf(view: SystemSettingsView) {
  return {
    signupCredits: String(view.settings.signupCredits),
    trialDays: String(view.settings.trialDays),
    maintenanceMode: view.settings.maintenanceMode,
    maintenanceMessage: view.settings.maintenanceMessage,
    signups: view.settings.featureFlags.signups,
    marketing: view.settings.featureFlags.marketing,
  };
}

type Draft = ReturnType<typeof draftOf>;

function SettingsForm({ view, onSaved }: { view: SystemSettingsView; onSaved(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(view));
  const [errors, setErrors] = useState<Partial<Record<keyof Settings, string>>>({});
  const save = useMutation(trpc.admin.updateSettings.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.reset();
    const candidate = {
      signupCredits: draft.signupCredits.trim() === "" ? Number.NaN : Number(draft.signupCredits),
      trialDays: draft.trialDays.trim() === "" ? Number.NaN : Number(draft.trialDays),
      maintenanceMode: draft.maintenanceMode,
      maintenanceMessage: draft.maintenanceMessage,
      featureFlags: { signups: draft.signups, marketing: draft.marketing },
    };
    const parsed = SystemSettings.safeParse(candidate);
    if (!parsed.success) {
      const next: Partial<Record<keyof Settings, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Settings] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(parsed.data);
      onSaved();
      queryClient.setQueryData(trpc.admin.settings.queryKey(), answer);
    } catch {
      // Shown above the form.
    }
  }

  const source = (key: keyof Settings) =>
    view.sources[key] === "admin" ? `Changed here (default ${JSON.stringify(view.defaults[key])})` : "Default from the environment";

  return (
    <form className="form" noValidate onSubmit={submit} aria-busy={save.isPending} data-testid="settings-form">
      {save.isError ? <FormAlert testId="settings-error">{errorMessage(save.error)}</FormAlert> : null}
      <div className="admin-form-row">
        {(
          [
            {
              key: "signupCredits",
              label: "Signup credits",
              max: 10000,
              hint: "Credits a new account starts with.",
              testId: "settings-signup-credits",
              errorTestId: "settings-credits-error",
            },
            {
              key: "trialDays",
              label: "Trial days",
              max: 365,
              hint: "How long a new account's trial lasts.",
              testId: "settings-trial-days",
              errorTestId: "field-error-settings-trial-days",
            },
          ] as const
        ).map((f) => (
          <Field
            key={f.key}
            label={f.label}
            type="number"
            inputMode="numeric"
            min={0}
            max={f.max}
            value={draft[f.key]}
            onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            error={errors[f.key]}
            errorTestId={f.errorTestId}
            hint={`${f.hint} ${source(f.key)}.`}
            testId={f.testId}
          />
        ))}
      </div>
      <fieldset className="field">
        <legend className="field-label">Maintenance</legend>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={draft.maintenanceMode}
            onChange={(e) => setDraft({ ...draft, maintenanceMode: e.target.checked })}
            data-testid="settings-maintenance"
          />
          <span>Maintenance mode: the service is read-only for everyone but admins (changes answer 503 with the message below).</span>
        </label>
      </fieldset>
      <Field
        label="Maintenance message"
        value={draft.maintenanceMessage}
        maxLength={300}
        onChange={(e) => setDraft({ ...draft, maintenanceMessage: e.target.value })}
        error={errors.maintenanceMessage}
      />
      <FeatureFlags draft={draft} setDraft={setDraft} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="settings-save">
          {save.isPending ? <Spinner size="sm" /> : null} Save settings
        </button>
      </div>
    </form>
  );
}

export function AdminSettingsPage() {
  useTitle("Settings · Admin");
  const trpc = useTRPC();
  const settings = useQuery(trpc.admin.settings.queryOptions());
  const [saved, setSaved] = useState(false);
  return (
    <div className="page" data-testid="admin-settings">
      <PageHeader
        title="System settings"
        subtitle="What the service reads at run time. Every change is recorded in the activity log with the values before and after."
      />
      <AdminNav />
      <section className="card settings-card">
        {saved ? <FormSuccess testId="settings-saved">Settings saved. They apply from the next request.</FormSuccess> : null}
        {settings.isError ? <InlineError error={settings.error} onRetry={() => void settings.refetch()} /> : null}
        {settings.data ? (
          <SettingsForm key={settings.dataUpdatedAt} view={settings.data} onSaved={() => setSaved(true)} />
        ) : settings.isPending ? (
          <Skeleton height="20rem" />
        ) : null}
      </section>
    </div>
  );
}

/** Whether signups are open and marketing workflows may run. */
function FeatureFlags({ draft, setDraft }: { draft: Draft; setDraft: (draft: Draft) => void }) {
  return (
    <fieldset className="field">
      <legend className="field-label">Feature flags</legend>
      <label className="admin-check">
        <input
          type="checkbox"
          checked={draft.signups}
          onChange={(e) => setDraft({ ...draft, signups: e.target.checked })}
          data-testid="settings-flag-signups"
        />
        <span>Signups open: new accounts may sign up.</span>
      </label>
      <label className="admin-check">
        <input type="checkbox" checked={draft.marketing} onChange={(e) => setDraft({ ...draft, marketing: e.target.checked })} />
        <span>Marketing workflows may run.</span>
      </label>
    </fieldset>
  );
}
