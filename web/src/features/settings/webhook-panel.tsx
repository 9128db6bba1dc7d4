// The account's outbound webhook: where job events go, the signing secret (shown in full only right
// after it is issued, so it is copied once and not left on screen), a test delivery, and the recent
// deliveries.
import { WebhookSettingsInput } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { WebAddressField } from "../../ui/web-address-field.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { WebhookDeliveries } from "./webhook-deliveries.tsx";
import "./settings.css";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

type Settings = RouterOutputs["webhook"]["get"];
type Delivery = RouterOutputs["webhook"]["sendTest"];

function masked(secret: string): string {
  return `whsec_••••••••${secret.slice(-4)}`;
}

export function WebhookPanel() {
  const webhook = useWebhookSettings();
  const data = webhook.settings.data;
  const dirty = data ? (webhook.url ?? "").trim() !== (data.url ?? "") : false;

  return (
    <SettingsCard
      title="Webhook"
      testId="webhook-panel"
      intro="Each event of your jobs (progress, review, completed, failed) is sent as a signed POST to this URL. Failed deliveries are retried."
    >
      {webhook.settings.isError ? (
        <InlineError error={webhook.settings.error} onRetry={() => void webhook.settings.refetch()} />
      ) : !data ? (
        <Skeleton width="100%" height="8rem" />
      ) : (
        <div className="webhook-body">
          <UrlForm webhook={webhook} data={data} dirty={dirty} handleSave={(event) => void webhook.handleSave(event)} />
          <SigningSecret
            freshSecret={webhook.freshSecret}
            secret={data.secret}
            onRotate={() => {
              webhook.save.reset();
              webhook.setConfirmRotate(true);
            }}
          />
          <TestDelivery savedUrl={data.url} dirty={dirty} />
          <div className="webhook-recent">
            <h3 className="webhook-subtitle">Recent deliveries</h3>
            <WebhookDeliveries deliveries={data.recentDeliveries} />
          </div>
        </div>
      )}
      <ConfirmDialog
        open={webhook.confirmRotate}
        title="Issue a new signing secret?"
        confirmLabel="Issue new secret"
        pendingLabel="Issuing…"
        {...mutationState(webhook.save)}
        onConfirm={() => void webhook.rotate()}
        onClose={() => webhook.setConfirmRotate(false)}
        testId="rotate-dialog"
      >
        <p>The current secret stops working at once: your receiver rejects deliveries until you give it the new one.</p>
      </ConfirmDialog>
    </SettingsCard>
  );
}

/** The signing secret: in full just after it is issued, else masked, with the way to issue a new one. */
function SigningSecret({ freshSecret, secret, onRotate }: { freshSecret: string | null; secret: string; onRotate: () => void }) {
  return (
    <div className="webhook-secret" data-testid="webhook-secret">
      <h3 className="webhook-subtitle">Signing secret</h3>
      {freshSecret ? (
        <div className="alert alert-warning" role="status">
          <div>
            <p className="alert-title">Copy this secret now. It is not shown again.</p>
            <code className="secret-value" data-testid="webhook-secret-value">
              {freshSecret}
            </code>
            <p className="alert-hint">Verify each delivery's webhook-signature header with it (Standard Webhooks, HMAC-SHA256).</p>
          </div>
        </div>
      ) : (
        <p className="muted">
          <code className="mono" data-testid="webhook-secret-masked">
            {masked(secret)}
          </code>{" "}
          · lost it? Issue a new one; the old one stops working at once.
        </p>
      )}
      <button type="button" className="btn btn-ghost btn-small" onClick={onRotate} data-testid="webhook-rotate">
        Issue a new secret
      </button>
    </div>
  );
}

/** Sends a signed test event to the saved URL and shows what the endpoint answered. */
function TestDelivery({ savedUrl, dirty }: { savedUrl: string | null; dirty: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [testResult, setTestResult] = useState<Delivery | null>(null);
  const sendTest = useMutation(trpc.webhook.sendTest.mutationOptions());

  async function test() {
    setTestResult(null);
    try {
      setTestResult(await sendTest.mutateAsync());
    } catch {
      // Shown in place below.
    }
    void queryClient.invalidateQueries({ queryKey: trpc.webhook.get.queryKey() });
  }

  return (
    <div className="webhook-test">
      <h3 className="webhook-subtitle">Test delivery</h3>
      <p className="muted">Sends a signed webhook.test event to the saved URL now and shows what it answered.</p>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-ghost"
          disabled={!savedUrl || dirty || sendTest.isPending}
          title={!savedUrl ? "Save a URL first" : dirty ? "Save the URL first" : undefined}
          onClick={() => void test()}
          data-testid="webhook-test"
        >
          {sendTest.isPending ? (
            <>
              <Spinner size="sm" /> Sending…
            </>
          ) : (
            "Send a test event"
          )}
        </button>
      </div>
      {sendTest.isError ? <FormAlert testId="webhook-test-error">{errorMessage(sendTest.error)}</FormAlert> : null}
      {testResult ? (
        testResult.status === "delivered" ? (
          <FormSuccess testId="webhook-test-result">Delivered: your endpoint answered {testResult.lastStatus}.</FormSuccess>
        ) : (
          <FormAlert testId="webhook-test-result">
            Not delivered: {testResult.lastError ?? "no answer"}. Check that the URL is reachable from the internet and answers 2xx.
          </FormAlert>
        )
      ) : null}
    </div>
  );
}

/** The endpoint URL: saving it, or saving it empty to stop the events. */
function UrlForm({
  webhook,
  data,
  dirty,
  handleSave,
}: {
  webhook: ReturnType<typeof useWebhookSettings>;
  data: Settings;
  dirty: boolean;
  handleSave: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { url, setUrl, urlError, setUrlError, saved, setSaved } = webhook;
  const pending = webhook.save.isPending;
  return (
    <form className="form" noValidate onSubmit={handleSave} data-testid="webhook-form" aria-busy={pending}>
      {saved && !dirty ? (
        <FormSuccess testId="webhook-saved">{data.url ? "Webhook URL saved." : "Webhook removed: no events are sent."}</FormSuccess>
      ) : null}
      <WebAddressField
        label="Endpoint URL"
        placeholder="https://example.com/hooks/adgen"
        value={url ?? ""}
        onChange={(e) => {
          setUrl(e.target.value);
          setUrlError(null);
          setSaved(false);
        }}
        error={urlError}
        hint="Leave empty and save to stop sending events."
        testId="webhook-url"
      />
      <FormActions
        label="Save URL"
        busyLabel="Saving…"
        busy={pending}
        showBusyLabel={!webhook.confirmRotate}
        disabled={!dirty}
        testId="webhook-save"
      />
    </form>
  );
}

/** The webhook's settings being edited: the URL (checked here first), the secret issued with the first
 * URL or on request (kept in full until the page is left), and the request to issue a new one. */
function useWebhookSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.webhook.get.queryOptions());
  const [url, setUrl] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  /** The secret just issued (first URL saved, or rotated): shown in full until the page is left. */
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);

  const save = useMutation(trpc.webhook.save.mutationOptions());

  useEffect(() => {
    if (settings.data && url === null) setUrl(settings.data.url ?? "");
  }, [settings.data, url]);

  function store(data: Settings) {
    queryClient.setQueryData(trpc.webhook.get.queryKey(), data);
  }

  async function handleSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending || !settings.data) return;
    setSaved(false);
    const value = (url ?? "").trim();
    const parsed = WebhookSettingsInput.safeParse({ url: value || null });
    if (!parsed.success) {
      setUrlError(parsed.error.issues[0]?.message ?? "Check the URL.");
      return;
    }
    if (value && !/^https?:\/\//i.test(value)) {
      setUrlError("Enter a full URL starting with https://, e.g. https://example.com/hooks/adgen");
      return;
    }
    setUrlError(null);
    const firstEndpoint = !settings.data.url && Boolean(value);
    try {
      const data = await save.mutateAsync({ url: value || null });
      store(data);
      setUrl(data.url ?? "");
      setSaved(true);
      // Setting up the endpoint is when the receiver needs the secret: show it this once.
      if (firstEndpoint) setFreshSecret(data.secret);
    } catch (error) {
      setUrlError(errorMessage(error));
    }
  }

  async function rotate() {
    try {
      const data = await save.mutateAsync({ rotateSecret: true });
      store(data);
      setFreshSecret(data.secret);
      setConfirmRotate(false);
    } catch {
      // Shown in the dialog.
    }
  }

  return {
    settings,
    url,
    setUrl,
    urlError,
    setUrlError,
    saved,
    setSaved,
    freshSecret,
    confirmRotate,
    setConfirmRotate,
    save,
    handleSave,
    rotate,
  };
}
