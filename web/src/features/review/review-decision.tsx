// The foot of the review: what approving will render, what went wrong, and the two decisions.
import { errorMessage } from "../../lib/errors.ts";
import { FormAlert } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { type Action, credits, sentence } from "./drafts.ts";
import type { ReviewDrafts } from "./use-review-drafts.ts";

export function ReviewSummary({ counts, total }: { counts: ReviewDrafts["counts"]; total: number }) {
  return (
    <p className="review-summary" data-testid="review-summary" aria-live="polite">
      {counts.changed
        ? `${[
            counts.dropped > 0 ? `Renders ${counts.kept} of ${total} scenes` : `Renders all ${total} scenes`,
            counts.reordered ? "in your new order" : null,
            counts.edited > 0 ? `${counts.edited} with edited text` : null,
          ]
            .filter(Boolean)
            .join(", ")}. The ad keeps its length, and the creative score is worked out again.`
        : "Approving renders the storyboard exactly as shown."}
    </p>
  );
}

interface ReviewActionsProps {
  localError: string | null;
  /** The decision that failed, and why. */
  failure: { action: Action | undefined; error: unknown } | null;
  pending: boolean;
  /** The decision sent last (the one on its way while pending). */
  sent: Action | undefined;
  creditsUsed: number;
  onReject: () => void;
}

export function ReviewActions({ localError, failure, pending, sent, creditsUsed, onReject }: ReviewActionsProps) {
  const approving = pending && sent === "approve";
  const rejecting = pending && sent === "reject";
  return (
    <>
      {localError ? <FormAlert testId="review-error">{localError}</FormAlert> : null}
      {failure ? (
        <FormAlert testId="review-error">
          <p className="alert-title">
            {failure.action === "reject" ? "We could not reject this storyboard" : "We could not approve this storyboard"}
          </p>
          <p>{sentence(errorMessage(failure.error))}</p>
        </FormAlert>
      ) : null}

      <div className="review-actions">
        <button
          type="button"
          className="btn btn-ghost btn-danger-text review-action"
          onClick={onReject}
          disabled={pending}
          data-testid="reject"
        >
          {rejecting ? <Spinner size="sm" /> : null}
          {rejecting ? "Rejecting…" : creditsUsed > 0 ? `Reject and refund ${credits(creditsUsed)}` : "Reject"}
        </button>
        <button type="submit" className="btn btn-primary review-action" disabled={pending} data-testid="approve">
          {approving ? <Spinner size="sm" /> : null}
          {approving ? "Approving…" : "Approve and render"}
        </button>
      </div>
    </>
  );
}
