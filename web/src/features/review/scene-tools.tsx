// A scene card's tools: move it up or down, drop or restore it (the last kept scene cannot go).
import type { Draft } from "./drafts.ts";

interface SceneToolsProps {
  base: string;
  draft: Draft;
  index: number;
  count: number;
  lastKept: boolean;
  disabled: boolean;
  onMove: (dir: "up" | "down") => void;
  onToggleDrop: () => void;
}

export function SceneTools({ base, draft, index, count, lastKept, disabled, onMove, onToggleDrop }: SceneToolsProps) {
  const position = index + 1;
  const noteId = `${base}-last-note`;
  return (
    <>
      <div className="review-scene-tools">
        {(
          [
            { dir: "up", text: "Up", atEdge: index === 0 },
            { dir: "down", text: "Down", atEdge: index === count - 1 },
          ] as const
        ).map((move) => (
          <button
            key={move.dir}
            id={`${base}-${move.dir}`}
            type="button"
            className="btn btn-ghost btn-small review-move"
            onClick={() => onMove(move.dir)}
            disabled={disabled || move.atEdge}
            aria-label={`Move scene ${position} ${move.dir}`}
            data-testid={`scene-move-${move.dir}`}
          >
            <Arrow dir={move.dir} />
            <span className="review-tool-text">{move.text}</span>
          </button>
        ))}
        <button
          type="button"
          className={`btn btn-small review-drop${draft.dropped ? " btn-ghost" : " btn-ghost btn-danger-text"}`}
          onClick={onToggleDrop}
          disabled={disabled || lastKept}
          aria-describedby={lastKept ? noteId : undefined}
          data-testid="scene-drop"
        >
          {draft.dropped ? "Restore" : "Drop"}
        </button>
      </div>
      {lastKept ? (
        <p id={noteId} className="review-last-note" data-testid="scene-last-note">
          The only scene left can't be dropped: an ad needs at least one scene.
        </p>
      ) : null}
    </>
  );
}

function Arrow({ dir }: { dir: "up" | "down" }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" className="icon">
      <path
        d={dir === "up" ? "M8 13V3m0 0L3.5 7.5M8 3l4.5 4.5" : "M8 3v10m0 0l-4.5-4.5M8 13l4.5-4.5"}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
