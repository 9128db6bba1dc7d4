// The analytics key, under the API key: a read-only key for an analytics partner. It reads the account's
// results (GraphQL's analytics graph, and every other read) and can never launch, spend or change anything
// (every mutation answers 403 on every transport). Shown once, like the full key; a new one replaces the old.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { FormAlert } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { FreshKey } from "./fresh-key.tsx";

export function AnalyticsKeyRow({ hasKey, onChanged }: { hasKey: boolean; onChanged: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const generate = useMutation(trpc.user.generateApiKey.mutationOptions());
  const [freshKey, setFreshKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  async function create() {
    const { apiKey } = await generate.mutateAsync({ scope: "analytics" });
    setFreshKey(apiKey);
    setConfirming(false);
    await onChanged();
  }

  return (
    <div className="analytics-key" data-testid="analytics-key">
      <h3 className="webhook-subtitle">Analytics key (read-only)</h3>
      <p className="muted">
        For an analytics partner: it reads your results, through GraphQL or the API, and cannot launch ads, spend credits or change
        anything. {hasKey ? "Your analytics key is active." : "You have no analytics key yet."}
      </p>
      {freshKey ? (
        <FreshKey
          title="Copy your analytics key now: it is shown only once"
          value={freshKey}
          testId="analytics-key-fresh"
          valueTestId="analytics-key-value"
        />
      ) : null}
      {generate.isError && !confirming ? <FormAlert>{errorMessage(generate.error)}</FormAlert> : null}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-ghost"
          disabled={generate.isPending}
          onClick={() => (hasKey ? setConfirming(true) : void create().catch(() => undefined))}
        >
          {generate.isPending && !confirming ? (
            <>
              <Spinner size="sm" /> Generating…
            </>
          ) : hasKey ? (
            "Replace analytics key"
          ) : (
            "Generate analytics key"
          )}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Replace your analytics key?"
        confirmLabel="Replace analytics key"
        pendingLabel="Generating…"
        {...mutationState(generate)}
        onConfirm={() => void create().catch(() => undefined)}
        onClose={() => setConfirming(false)}
        testId="analytics-key-confirm"
      >
        <p>The partner using the current analytics key loses access at once; the new key is shown once.</p>
      </ConfirmDialog>
    </div>
  );
}
