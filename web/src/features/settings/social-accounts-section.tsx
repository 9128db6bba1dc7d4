// The social accounts a finished ad can be published to (launch with "publish"): connect a Facebook Page
// with its id and a Page access token (the server checks both with Facebook before keeping them), see the
// connected Pages, disconnect one. Refusals are shown on the field they are about.
import { SocialAccountInput } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { Field, FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

const FIELDS = ["pageId", "accessToken"] as const;
type SocialField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<SocialField> = { fields: {}, form: null };

export function SocialAccountsSection() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.social.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.social.list.queryKey() });
  const connect = useMutation(trpc.social.connect.mutationOptions({ onSuccess: refresh }));
  const disconnect = useMutation(trpc.social.disconnect.mutationOptions({ onSuccess: refresh }));
  const [pageId, setPageId] = useState("");
  const [accessToken, setAccessToken] = useState("");
  const [errors, setErrors] = useState<SplitErrors<SocialField>>(NO_ERRORS);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (connect.isPending) return;
    const parsed = SocialAccountInput.safeParse({ pageId, accessToken });
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      return;
    }
    setErrors(NO_ERRORS);
    try {
      await connect.mutateAsync(parsed.data);
      setPageId("");
      setAccessToken("");
    } catch (error) {
      setErrors(splitServerError(error, FIELDS));
    }
  }

  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`} data-testid="social-accounts">
      <div className="settings-card-intro">
        <h2 id={`${uid}-title`} className="card-title">
          Publishing
        </h2>
        <p className="muted">
          Connect a Facebook Page, then turn on "Publish when finished" in the studio: the finished video is posted at the next time your
          publishing schedule names (at once without one), and the project shows the post.
        </p>
      </div>
      <div>
        {accounts.isError ? (
          <InlineError error={accounts.error} onRetry={() => void accounts.refetch()} />
        ) : accounts.isPending ? (
          <Skeleton height="48px" />
        ) : accounts.data.length === 0 ? (
          <p className="muted" data-testid="social-empty">
            No Page is connected yet.
          </p>
        ) : (
          <ul className="settings-list" data-testid="social-list">
            {accounts.data.map((account) => (
              <li key={account.id} className="settings-list-row">
                <span>
                  <strong>{account.pageName}</strong> <span className="muted">· Facebook Page {account.pageId}</span>
                </span>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={disconnect.isPending}
                  onClick={() => disconnect.mutate({ id: account.id })}
                  data-testid="social-disconnect"
                >
                  Disconnect
                </button>
              </li>
            ))}
          </ul>
        )}
        {disconnect.error ? <FormAlert testId="social-disconnect-error">{errorMessage(disconnect.error)}</FormAlert> : null}
        <form className="form" noValidate onSubmit={handleSubmit} data-testid="social-connect-form" aria-busy={connect.isPending}>
          {errors.form ? <FormAlert testId="social-form-error">{errors.form}</FormAlert> : null}
          {(
            [
              {
                key: "pageId",
                label: "Facebook Page id",
                value: pageId,
                setValue: setPageId,
                input: { inputMode: "numeric" },
                testId: "social-page-id",
                errorTestId: "field-error-page-id",
              },
              {
                key: "accessToken",
                label: "Page access token",
                value: accessToken,
                setValue: setAccessToken,
                input: { type: "password", autoComplete: "off" },
                testId: "social-token",
                errorTestId: "field-error-access-token",
              },
            ] as const
          ).map((f) => (
            <Field
              key={f.key}
              label={f.label}
              {...f.input}
              value={f.value}
              onValue={f.setValue}
              error={errors.fields[f.key]}
              errorTestId={f.errorTestId}
              testId={f.testId}
            />
          ))}
          <FormActions label="Connect Page" busyLabel="Checking with Facebook…" busy={connect.isPending} testId="social-connect" />
        </form>
      </div>
    </section>
  );
}
