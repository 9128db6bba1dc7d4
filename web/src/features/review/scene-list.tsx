// The storyboard's scenes as editable cards, in the order they play, with how many are kept.
import { type FieldErrors, localErrors, type Storyboard } from "./drafts.ts";
import { SceneCard } from "./scene-card.tsx";
import type { ReviewDrafts } from "./use-review-drafts.ts";

interface SceneListProps {
  uid: string;
  board: Storyboard;
  review: ReviewDrafts;
  serverErrors: FieldErrors;
  pending: boolean;
}

export function SceneList({ uid, board, review, serverErrors, pending }: SceneListProps) {
  const { drafts, byId, counts } = review;
  const format = board.formats[0] ?? "9:16";
  const tall = format === "9:16" || format === "4:5";
  return (
    <>
      {board.title ? <p className="review-title">“{board.title}”</p> : null}
      <div className="review-scenes-head">
        <h3 className="review-scenes-title">
          Scenes{" "}
          <span className="muted review-scenes-count">
            {counts.kept === drafts.length
              ? `${drafts.length} ${drafts.length === 1 ? "scene" : "scenes"}`
              : `${counts.kept} of ${drafts.length} kept`}
          </span>
        </h3>
        {counts.changed ? (
          <button type="button" className="btn btn-ghost btn-small" onClick={review.reset} disabled={pending} data-testid="review-reset">
            Undo all changes
          </button>
        ) : null}
      </div>
      <ol className={`review-scenes${tall ? " review-scenes-tall" : ""}`} aria-label="Scenes, in the order they play">
        {drafts.map((draft, i) => {
          const scene = byId.get(draft.id);
          if (!scene) return null;
          return (
            <SceneCard
              key={draft.id}
              uid={uid}
              scene={scene}
              draft={draft}
              index={i}
              count={drafts.length}
              format={format}
              errors={{ ...localErrors(draft, scene), ...serverErrors[draft.id] }}
              lastKept={!draft.dropped && counts.kept <= 1}
              disabled={pending}
              onChange={(patch) => review.update(draft.id, patch)}
              onMove={(dir) => review.move(i, dir)}
              onToggleDrop={() => review.toggleDrop(draft.id)}
            />
          );
        })}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {review.announcement}
      </p>
    </>
  );
}
