// The launch card: what the run costs, what stands in its way, the Launch button that says what it
// spends, and saving the settings as defaults.
import type { UseMutationResult } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors.ts";
import type { LaunchProblem } from "../../lib/workflow.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { CostEstimate, type CostEstimateState } from "./cost-estimate.tsx";
import { ProblemAlert } from "./problem-alert.tsx";
import type { LaunchBlock } from "./use-launch-gate.ts";

interface LaunchSummaryProps {
  uid: string;
  typeName: string;
  estimate: CostEstimateState;
  /** The price list's cost for this type and quality, while the estimate is not there. */
  listCost: number | null;
  gate: { blockedBy: LaunchBlock; nothingToImprove: boolean; launchNote: string | null };
  problem: LaunchProblem | null;
  launching: boolean;
  prefsSaved: boolean;
  savePrefs: Pick<UseMutationResult<unknown, unknown, never>, "isError" | "error" | "isPending">;
  onSaveDefaults(): void;
}

export function LaunchSummary(props: LaunchSummaryProps) {
  const { uid, typeName, estimate, listCost, gate, problem, launching, prefsSaved, savePrefs, onSaveDefaults } = props;
  const { blockedBy, nothingToImprove, launchNote } = gate;
  // The button says what it spends, so the click that charges is the one that agreed to the price.
  const launchCost = estimate.data?.cost ?? listCost;
  return (
    <section className="card studio-summary" aria-label="Cost and launch">
      {nothingToImprove ? (
        // The server's estimate would only repeat its refusal; the note under Launch says what to do.
        <p className="cost-estimate" data-testid="cost-estimate" data-state="no-project">
          This will use <strong>{launchCost === null ? "credits" : `${launchCost} ${launchCost === 1 ? "credit" : "credits"}`}</strong> once
          you have a finished ad to improve.
        </p>
      ) : (
        <CostEstimate
          estimate={estimate}
          fallbackCost={listCost}
          hideProblem={problem !== null && problem.kind !== "other" && !(blockedBy && problem.kind === blockedBy)}
        />
      )}
      {problem && !(blockedBy && problem.kind === blockedBy) ? <ProblemAlert problem={problem} /> : null}
      {prefsSaved ? <FormSuccess testId="prefs-saved">Saved as your Studio defaults.</FormSuccess> : null}
      {savePrefs.isError ? <FormAlert testId="prefs-error">{errorMessage(savePrefs.error)}</FormAlert> : null}
      <button
        type="submit"
        className="btn btn-primary btn-large btn-block"
        disabled={launching || blockedBy !== null}
        aria-describedby={launchNote ? `${uid}-launch-note` : undefined}
        data-testid="launch"
      >
        {launching ? (
          <>
            <Spinner size="sm" /> Launching…
          </>
        ) : launchCost === null ? (
          `Launch ${typeName}`
        ) : (
          `Launch ${typeName} for ${launchCost} ${launchCost === 1 ? "credit" : "credits"}`
        )}
      </button>
      {launchNote ? (
        <p id={`${uid}-launch-note`} className="launch-note" data-testid="launch-disabled-reason">
          {launchNote}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-link btn-small studio-save-defaults"
        onClick={onSaveDefaults}
        disabled={savePrefs.isPending}
        data-testid="save-defaults"
      >
        {savePrefs.isPending ? "Saving…" : "Save these settings as my defaults"}
      </button>
    </section>
  );
}
