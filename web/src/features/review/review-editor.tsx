// The review panel of a job waiting for a decision: the storyboard's creative score, each scene as an
// editable card (headline, body and CTA; move up and down; drop), feedback, and approve or reject.
// Approve renders what is shown: the scenes go with the decision only when something was changed.
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useNow } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { formatLeft } from "./drafts.ts";
import { ReviewBoard } from "./review-board.tsx";

export interface ReviewEditorProps {
  jobId: string;
  /** What the job was charged: a rejection refunds it. */
  creditsUsed: number;
}

export function ReviewEditor({ jobId, creditsUsed }: ReviewEditorProps) {
  const uid = useId();
  const trpc = useTRPC();
  const hitl = useQuery(trpc.workflow.hitl.queryOptions({ jobId }));
  const now = useNow(30_000);
  const board = hitl.data?.storyboard ?? null;
  const expiresAt = hitl.data?.review.expiresAt;
  const left = expiresAt ? new Date(expiresAt).getTime() - now : null;

  return (
    <section className="card review-panel review-editor" aria-labelledby={`${uid}-title`} data-testid="review-panel">
      <div className="card-head">
        <div>
          <h2 id={`${uid}-title`} className="card-title">
            Review the storyboard
          </h2>
          <p className="muted review-sub">
            Edit, reorder or drop scenes; nothing renders until you approve.{" "}
            {left !== null && left > 0 ? `Decide within ${formatLeft(left)}; after that the run is refunded.` : null}
          </p>
        </div>
        {board ? (
          <span className="review-meta">
            {board.framework ? <span className="badge">{String(board.framework).toUpperCase()}</span> : null}
            {board.formats.map((f) => (
              <span key={f} className="badge">
                {f}
              </span>
            ))}
          </span>
        ) : null}
      </div>
      {hitl.isError ? <InlineError error={hitl.error} onRetry={() => void hitl.refetch()} /> : null}
      {hitl.isPending ? <Skeleton width="100%" height="12rem" /> : null}
      {hitl.data ? (
        // Keyed by the storyboard's scenes: a new storyboard starts a new draft.
        <ReviewBoard key={board ? board.scenes.map((s) => s.id).join("|") : "none"} jobId={jobId} board={board} creditsUsed={creditsUsed} />
      ) : null}
    </section>
  );
}
