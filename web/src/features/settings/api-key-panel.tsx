// The API key, in Settings beside the webhooks (both are for programs calling the service): whether this
// plan allows one (Agency and Enterprise), generating it (shown once, in full, until the page is left),
// and revoking it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { planName } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { AnalyticsKeyRow } from "./analytics-key-row.tsx";
import { FreshKey } from "./fresh-key.tsx";
import "./settings.css";

export function ApiKeyPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.user.apiKey.queryOptions());
  const generate = useMutation(trpc.user.generateApiKey.mutationOptions());
  const revoke = useMutation(trpc.user.revokeApiKey.mutationOptions());
  const [freshKey, setFreshKey] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<"replace" | "revoke" | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.user.apiKey.queryKey() });

  async function create() {
    const { apiKey } = await generate.mutateAsync();
    setFreshKey(apiKey);
    setConfirm(null);
    await refresh();
  }

  async function remove() {
    await revoke.mutateAsync();
    setFreshKey(null);
    setConfirm(null);
    await refresh();
  }

  const data = status.data;
  return (
    <section className="card settings-card" id="api-key" aria-labelledby="api-key-title" data-testid="api-key-panel">
      <h2 id="api-key-title" className="card-title">
        API key
      </h2>
      {status.isError ? <InlineError error={status.error} onRetry={() => void status.refetch()} /> : null}
      {!data && status.isPending ? <Skeleton height="2.5rem" /> : null}
      {data && !data.eligible ? (
        <p className="muted" data-testid="api-key-ineligible">
          API keys come with the {data.eligiblePlans.map(planName).join(" and ")} plans; you are on {planName(data.currentPlan)}.{" "}
          <Link href="/billing#plans">Compare plans on Billing</Link>
        </p>
      ) : null}
      {data?.eligible ? (
        <>
          <p className="muted">
            Call the API with <code>Authorization: Bearer ca_…</code>. {data.hasFullKey ? "Your key is active." : "You have no key yet."}
          </p>
          {freshKey ? (
            <FreshKey
              title="Copy your key now: it is shown only once"
              value={freshKey}
              testId="api-key-fresh"
              valueTestId="api-key-value"
            />
          ) : null}
          {generate.isError && !confirm ? <FormAlert>{errorMessage(generate.error)}</FormAlert> : null}
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={generate.isPending}
              onClick={() => (data.hasFullKey ? setConfirm("replace") : void create().catch(() => undefined))}
            >
              {generate.isPending && !confirm ? (
                <>
                  <Spinner size="sm" /> Generating…
                </>
              ) : data.hasFullKey ? (
                "Replace key"
              ) : (
                "Generate key"
              )}
            </button>
            {data.hasApiKey ? (
              <button type="button" className="btn btn-ghost btn-danger-text" onClick={() => setConfirm("revoke")}>
                Revoke key
              </button>
            ) : null}
          </div>
          <AnalyticsKeyRow hasKey={data.hasAnalyticsKey} onChanged={refresh} />
        </>
      ) : null}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === "revoke" ? "Revoke your API key?" : "Replace your API key?"}
        confirmLabel={confirm === "revoke" ? "Revoke key" : "Replace key"}
        pendingLabel={confirm === "revoke" ? "Revoking…" : "Generating…"}
        pending={confirm === "revoke" ? revoke.isPending : generate.isPending}
        error={
          confirm === "revoke" ? (revoke.error ? errorMessage(revoke.error) : null) : generate.error ? errorMessage(generate.error) : null
        }
        onConfirm={() => void (confirm === "revoke" ? remove() : create()).catch(() => undefined)}
        onClose={() => setConfirm(null)}
        testId="api-key-confirm"
      >
        <p>
          {confirm === "revoke" && data?.hasAnalyticsKey
            ? "Programs using your key, and the partner using your analytics key, stop working at once."
            : `Programs using the current key stop working at once${confirm === "replace" ? "; the new key is shown once" : ""}.`}
        </p>
      </ConfirmDialog>
    </section>
  );
}
