// One scene of the storyboard under review: its preview, where it plays, its tools and its texts.
import { formatNumber } from "../../lib/format.ts";
import { cssAspect, mediaSrc } from "../../lib/workflow.ts";
import { type Draft, isFieldEdited, type Scene, TEXT_FIELDS, type TextField } from "./drafts.ts";
import { SceneTextField } from "./scene-text-field.tsx";
import { SceneTools } from "./scene-tools.tsx";

interface SceneCardProps {
  uid: string;
  scene: Scene;
  draft: Draft;
  index: number;
  count: number;
  format: string;
  errors: Partial<Record<TextField, string>>;
  lastKept: boolean;
  disabled: boolean;
  onChange: (patch: Partial<Draft>) => void;
  onMove: (dir: "up" | "down") => void;
  onToggleDrop: () => void;
}

export function SceneCard({
  uid,
  scene,
  draft,
  index,
  count,
  format,
  errors,
  lastKept,
  disabled,
  onChange,
  onMove,
  onToggleDrop,
}: SceneCardProps) {
  const base = `${uid}-${draft.id}`;
  const edited = TEXT_FIELDS.some((f) => isFieldEdited(draft, scene, f));
  const position = index + 1;
  return (
    <li
      className={`review-scene${draft.dropped ? " is-dropped" : ""}`}
      data-testid="review-scene"
      data-scene-id={draft.id}
      data-dropped={draft.dropped ? "true" : undefined}
      aria-label={`Scene ${position} of ${count}${draft.dropped ? ", dropped" : ""}`}
    >
      <div className="review-scene-preview" style={{ aspectRatio: cssAspect(format), background: scene.background, color: scene.accent }}>
        {scene.preview ? (
          <img src={mediaSrc(scene.preview)} alt={`Scene ${position} preview: ${scene.headline}`} loading="lazy" />
        ) : (
          <span className="review-scene-preview-text">{draft.headline}</span>
        )}
        {edited && scene.preview ? <span className="review-scene-stale">Preview shows the original text</span> : null}
      </div>

      <div className="review-scene-head">
        <p className="review-scene-index">
          Scene {position}
          <span className="review-scene-meta">
            {" "}
            · {formatNumber(scene.durationSec)} s{scene.transition !== "none" ? ` · ${scene.transition}` : ""}
          </span>
        </p>
        <div className="review-scene-flags">
          {draft.dropped ? <span className="badge review-badge-dropped">Dropped: will not render</span> : null}
          {edited && !draft.dropped ? <span className="badge review-badge-edited">Edited</span> : null}
        </div>
        <SceneTools
          base={base}
          draft={draft}
          index={index}
          count={count}
          lastKept={lastKept}
          disabled={disabled}
          onMove={onMove}
          onToggleDrop={onToggleDrop}
        />
      </div>

      <div className="review-scene-fields">
        {TEXT_FIELDS.map((field) => (
          <SceneTextField
            key={field}
            base={base}
            field={field}
            value={draft[field]}
            error={errors[field]}
            disabled={disabled || draft.dropped}
            onChange={onChange}
          />
        ))}
      </div>
    </li>
  );
}
