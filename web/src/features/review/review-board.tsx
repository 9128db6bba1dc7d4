// The storyboard under review as a form: the score, the scenes to edit, feedback, and the decision.
// Approving sends the scenes only when something changed, after checking their text here first.
import { type FormEvent, useId, useState } from "react";
import { BriefReading } from "../results/brief-reading.tsx";
import { CreativeScoreCard } from "../results/creative-score.tsx";
import { type Action, localErrors, reviewedScene, serverFieldErrors, type Storyboard, TEXT_FIELDS } from "./drafts.ts";
import { FeedbackField } from "./feedback-field.tsx";
import { ReviewActions, ReviewSummary } from "./review-decision.tsx";
import { SceneList } from "./scene-list.tsx";
import { useDecide } from "./use-decide.ts";
import { type ReviewDrafts, useReviewDrafts } from "./use-review-drafts.ts";

export function ReviewBoard({ jobId, board, creditsUsed }: { jobId: string; board: Storyboard | null; creditsUsed: number }) {
  const uid = useId();
  const [feedback, setFeedback] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const review = useReviewDrafts(uid, board?.scenes ?? [], () => setLocalError(null));
  const decide = useDecide(jobId);
  const pending = decide.isPending;
  const serverErrors = decide.isError ? serverFieldErrors(decide.error, decide.variables?.scenes) : {};

  function submit(action: Action) {
    return (event?: FormEvent) => {
      event?.preventDefault();
      if (pending) return;
      const text = feedback.trim();
      const approvingChanges = action === "approve" && review.counts.changed;
      if (approvingChanges) {
        const problem = firstProblem(uid, review);
        if (problem) {
          setLocalError(problem.message);
          document.getElementById(problem.fieldId)?.focus();
          return;
        }
      }
      setLocalError(null);
      const scenesOut = approvingChanges
        ? review.kept.flatMap((d) => {
            const scene = review.byId.get(d.id);
            return scene ? [reviewedScene(d, scene)] : [];
          })
        : undefined;
      decide.mutate({ jobId, action, ...(text ? { feedback: text } : {}), ...(scenesOut ? { scenes: scenesOut } : {}) });
    };
  }

  return (
    <form className="review-editor-form" onSubmit={submit("approve")} aria-busy={pending} noValidate>
      {board?.creativeScore ? (
        <CreativeScoreCard score={board.creativeScore} note="Scored as directed; your edits are scored again when you approve." />
      ) : null}
      {board?.briefReading?.length ? <BriefReading reading={board.briefReading} /> : null}

      {board ? (
        <SceneList uid={uid} board={board} review={review} serverErrors={serverErrors} pending={pending} />
      ) : (
        <p className="muted">The storyboard is not available; approving renders it as directed.</p>
      )}

      <FeedbackField id={`${uid}-feedback`} value={feedback} onChange={setFeedback} disabled={pending} />
      <ReviewSummary counts={review.counts} total={review.drafts.length} />
      <ReviewActions
        localError={localError}
        failure={decide.isError ? { action: decide.variables?.action, error: decide.error } : null}
        pending={pending}
        sent={decide.variables?.action}
        creditsUsed={creditsUsed}
        onReject={submit("reject")}
      />
    </form>
  );
}

/** The first kept scene whose text cannot render yet: what to say, and the field to focus. */
function firstProblem(uid: string, review: ReviewDrafts): { message: string; fieldId: string } | null {
  const bad = review.kept.find((d) => {
    const scene = review.byId.get(d.id);
    return scene ? Object.keys(localErrors(d, scene)).length > 0 : false;
  });
  if (!bad) return null;
  const position = review.drafts.findIndex((d) => d.id === bad.id) + 1;
  const scene = review.byId.get(bad.id);
  const field = scene ? TEXT_FIELDS.find((f) => localErrors(bad, scene)[f]) : undefined;
  return {
    message: `Scene ${position} needs a fix before it can render: see the highlighted field.`,
    fieldId: `${uid}-${bad.id}-${field ?? "headline"}`,
  };
}
