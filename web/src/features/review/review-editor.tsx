// The review panel of a job waiting for a decision: the storyboard's creative score, each scene as an
// editable card (headline, body and CTA; move up and down; drop), feedback, and approve or reject.
// Approve renders what is shown: the scenes go with the decision only when something was changed.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { type FormEvent, useEffect, useId, useMemo, useState } from "react";
import { errorCode, errorMessage } from "../../lib/errors.ts";
import { formatNumber } from "../../lib/format.ts";
import { useNow } from "../../lib/hooks.ts";
import { cssAspect, mediaSrc } from "../../lib/workflow.ts";
import { type RouterInputs, type RouterOutputs, useTRPC } from "../../trpc.ts";
import { CreativeScoreCard } from "../results/creative-score.tsx";
import { BriefReading } from "../results/brief-reading.tsx";
import { FieldError, FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";

type ReviewState = RouterOutputs["workflow"]["hitl"];
type Storyboard = NonNullable<ReviewState["storyboard"]>;
type Scene = Storyboard["scenes"][number];
type Decision = RouterInputs["workflow"]["hitlDecide"];
type ReviewedScene = NonNullable<Decision["scenes"]>[number];
type Action = Decision["action"];

/** The server's limits on a scene's text (HitlDecision's ReviewedScene). */
export const REVIEW_LIMITS = { headline: 120, body: 200, cta: 60 } as const;
type TextField = keyof typeof REVIEW_LIMITS;
const TEXT_FIELDS: readonly TextField[] = ["headline", "body", "cta"];
const FEEDBACK_LIMIT = 2000;

const FIELD_LABELS: Record<TextField, string> = { headline: "Headline", body: "Body", cta: "Call to action" };

interface Draft {
  id: string;
  headline: string;
  body: string;
  cta: string;
  dropped: boolean;
}

type FieldErrors = Record<string, Partial<Record<TextField, string>>>;

function draftsOf(scenes: readonly Scene[]): Draft[] {
  return scenes.map((s) => ({ id: s.id, headline: s.headline, body: s.body ?? "", cta: s.cta ?? "", dropped: false }));
}

function originalText(scene: Scene, field: TextField): string {
  return (field === "headline" ? scene.headline : (scene[field] ?? "")).trim();
}

function isFieldEdited(draft: Draft, scene: Scene, field: TextField): boolean {
  return draft[field].trim() !== originalText(scene, field);
}

/** A kept scene as the decision sends it: its id and only the text that changed. */
function reviewedScene(draft: Draft, scene: Scene): ReviewedScene {
  const out: ReviewedScene = { id: draft.id };
  if (isFieldEdited(draft, scene, "headline")) out.headline = draft.headline.trim();
  if (isFieldEdited(draft, scene, "body")) out.body = draft.body.trim() || null;
  if (isFieldEdited(draft, scene, "cta")) out.cta = draft.cta.trim() || null;
  return out;
}

/** What is wrong with a kept scene's text before it is sent (unchanged text is never sent, so never wrong). */
function localErrors(draft: Draft, scene: Scene): Partial<Record<TextField, string>> {
  const errors: Partial<Record<TextField, string>> = {};
  if (draft.dropped) return errors;
  if (!draft.headline.trim()) errors.headline = "Write a headline, or drop this scene.";
  for (const field of TEXT_FIELDS) {
    const limit = REVIEW_LIMITS[field];
    if (!errors[field] && isFieldEdited(draft, scene, field) && draft[field].trim().length > limit) {
      errors[field] = `Keep it to ${limit} characters.`;
    }
  }
  return errors;
}

/** The server's per-field messages (`data.fields`, paths like `scenes.1.headline`), by scene id. */
function serverFieldErrors(error: unknown, sent: readonly ReviewedScene[] | undefined): FieldErrors {
  const out: FieldErrors = {};
  if (!(error instanceof TRPCClientError) || !sent) return out;
  const fields = (error.data as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
  for (const { field, message } of fields) {
    const match = /^scenes\.(\d+)\.(headline|body|cta)$/.exec(field);
    const id = match ? sent[Number(match[1])]?.id : undefined;
    if (!match || !id) continue;
    const name = match[2] as TextField;
    out[id] = { ...out[id], [name]: sentence(message) };
  }
  return out;
}

function sentence(text: string): string {
  const t = text.trim();
  return t ? `${t[0]?.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}` : t;
}

function credits(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? "credit" : "credits"}`;
}

function formatLeft(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

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

function ReviewBoard({ jobId, board, creditsUsed }: { jobId: string; board: Storyboard | null; creditsUsed: number }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const scenes = board?.scenes ?? [];
  const byId = useMemo(() => new Map(scenes.map((s) => [s.id, s])), [scenes]);
  const [drafts, setDrafts] = useState<Draft[]>(() => draftsOf(scenes));
  const [feedback, setFeedback] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [focusTarget, setFocusTarget] = useState<{ id: string; dir: "up" | "down" } | null>(null);

  const decide = useMutation(
    trpc.workflow.hitlDecide.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.hitl.queryKey({ jobId }), data);
        queryClient.setQueryData(trpc.workflow.job.queryKey({ jobId }), data.job);
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      },
      onError: (error) => {
        // Decided elsewhere, cancelled or expired meanwhile: show what the job is now.
        const code = errorCode(error);
        if (code === "CONFLICT" || code === "NOT_FOUND") {
          void queryClient.invalidateQueries({ queryKey: trpc.workflow.job.queryKey({ jobId }) });
          void queryClient.invalidateQueries({ queryKey: trpc.workflow.hitl.queryKey({ jobId }) });
        }
      },
    }),
  );
  const pending = decide.isPending;

  // After a move, keep the keyboard on the moved scene's button (or its twin when it reached an end).
  useEffect(() => {
    if (!focusTarget) return;
    const own = document.getElementById(`${uid}-${focusTarget.id}-${focusTarget.dir}`) as HTMLButtonElement | null;
    const other = document.getElementById(
      `${uid}-${focusTarget.id}-${focusTarget.dir === "up" ? "down" : "up"}`,
    ) as HTMLButtonElement | null;
    (own && !own.disabled ? own : other)?.focus();
    setFocusTarget(null);
  }, [focusTarget, uid]);

  const kept = drafts.filter((d) => !d.dropped);
  const keptCount = kept.length;
  const reordered = drafts.map((d) => d.id).join("|") !== scenes.map((s) => s.id).join("|");
  const editedCount = kept.filter((d) => {
    const scene = byId.get(d.id);
    return scene ? TEXT_FIELDS.some((f) => isFieldEdited(d, scene, f)) : false;
  }).length;
  const droppedCount = drafts.length - keptCount;
  const changed = reordered || droppedCount > 0 || editedCount > 0;

  const sentScenes = decide.variables?.scenes;
  const serverErrors = decide.isError ? serverFieldErrors(decide.error, sentScenes) : {};

  function update(id: string, patch: Partial<Draft>) {
    setLocalError(null);
    setDrafts((prev) => prev.map((d) => (d.id === id ? { ...d, ...patch } : d)));
  }

  function move(index: number, dir: "up" | "down") {
    const to = dir === "up" ? index - 1 : index + 1;
    const item = drafts[index];
    if (!item || to < 0 || to >= drafts.length) return;
    const next = [...drafts];
    next.splice(index, 1);
    next.splice(to, 0, item);
    setDrafts(next);
    setFocusTarget({ id: item.id, dir });
    setAnnouncement(`Scene “${item.headline.trim() || "untitled"}” moved to position ${to + 1} of ${next.length}.`);
  }

  function toggleDrop(id: string) {
    const draft = drafts.find((d) => d.id === id);
    if (!draft) return;
    if (!draft.dropped && keptCount <= 1) return;
    update(id, { dropped: !draft.dropped });
    setAnnouncement(draft.dropped ? "Scene restored." : "Scene dropped; it will not be rendered.");
  }

  function reset() {
    setDrafts(draftsOf(scenes));
    setLocalError(null);
    setAnnouncement("Changes undone: the storyboard is as directed.");
  }

  function submit(action: Action) {
    return (event?: FormEvent) => {
      event?.preventDefault();
      if (pending) return;
      const text = feedback.trim();
      if (action === "approve" && changed) {
        const bad = kept.find((d) => {
          const scene = byId.get(d.id);
          return scene ? Object.keys(localErrors(d, scene)).length > 0 : false;
        });
        if (bad) {
          const position = drafts.findIndex((d) => d.id === bad.id) + 1;
          setLocalError(`Scene ${position} needs a fix before it can render: see the highlighted field.`);
          const scene = byId.get(bad.id);
          const field = scene ? TEXT_FIELDS.find((f) => localErrors(bad, scene)[f]) : undefined;
          document.getElementById(`${uid}-${bad.id}-${field ?? "headline"}`)?.focus();
          return;
        }
      }
      setLocalError(null);
      const scenesOut =
        action === "approve" && changed
          ? kept.flatMap((d) => {
              const scene = byId.get(d.id);
              return scene ? [reviewedScene(d, scene)] : [];
            })
          : undefined;
      decide.mutate({ jobId, action, ...(text ? { feedback: text } : {}), ...(scenesOut ? { scenes: scenesOut } : {}) });
    };
  }

  const format = board?.formats[0] ?? "9:16";
  const tall = format === "9:16" || format === "4:5";
  const approving = pending && decide.variables?.action === "approve";
  const rejecting = pending && decide.variables?.action === "reject";

  return (
    <form className="review-editor-form" onSubmit={submit("approve")} aria-busy={pending} noValidate>
      {board?.creativeScore ? (
        <CreativeScoreCard score={board.creativeScore} note="Scored as directed; your edits are scored again when you approve." />
      ) : null}
      {board?.briefReading?.length ? <BriefReading reading={board.briefReading} /> : null}

      {board ? (
        <>
          {board.title ? <p className="review-title">“{board.title}”</p> : null}
          <div className="review-scenes-head">
            <h3 className="review-scenes-title">
              Scenes{" "}
              <span className="muted review-scenes-count">
                {keptCount === drafts.length
                  ? `${drafts.length} ${drafts.length === 1 ? "scene" : "scenes"}`
                  : `${keptCount} of ${drafts.length} kept`}
              </span>
            </h3>
            {changed ? (
              <button type="button" className="btn btn-ghost btn-small" onClick={reset} disabled={pending} data-testid="review-reset">
                Undo all changes
              </button>
            ) : null}
          </div>
          <ol className={`review-scenes${tall ? " review-scenes-tall" : ""}`} aria-label="Scenes, in the order they play">
            {drafts.map((draft, i) => {
              const scene = byId.get(draft.id);
              if (!scene) return null;
              const errors = { ...localErrors(draft, scene), ...serverErrors[draft.id] };
              const lastKept = !draft.dropped && keptCount <= 1;
              return (
                <SceneCard
                  key={draft.id}
                  uid={uid}
                  scene={scene}
                  draft={draft}
                  index={i}
                  count={drafts.length}
                  format={format}
                  errors={errors}
                  lastKept={lastKept}
                  disabled={pending}
                  onChange={(patch) => update(draft.id, patch)}
                  onMove={(dir) => move(i, dir)}
                  onToggleDrop={() => toggleDrop(draft.id)}
                />
              );
            })}
          </ol>
          <p className="visually-hidden" aria-live="polite">
            {announcement}
          </p>
        </>
      ) : (
        <p className="muted">The storyboard is not available; approving renders it as directed.</p>
      )}

      <div className="field review-feedback">
        <div className="field-label-row">
          <label htmlFor={`${uid}-feedback`} className="field-label">
            Feedback <span className="muted field-optional">optional</span>
          </label>
          <Counter id={`${uid}-feedback-count`} length={feedback.length} limit={FEEDBACK_LIMIT} />
        </div>
        <textarea
          id={`${uid}-feedback`}
          className="input textarea"
          rows={2}
          maxLength={FEEDBACK_LIMIT}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          placeholder="What should change? Recorded with your decision."
          aria-describedby={`${uid}-feedback-count`}
          disabled={pending}
          data-testid="review-feedback"
        />
      </div>

      <p className="review-summary" data-testid="review-summary" aria-live="polite">
        {changed
          ? `${[
              droppedCount > 0 ? `Renders ${keptCount} of ${drafts.length} scenes` : `Renders all ${drafts.length} scenes`,
              reordered ? "in your new order" : null,
              editedCount > 0 ? `${editedCount} with edited text` : null,
            ]
              .filter(Boolean)
              .join(", ")}. The ad keeps its length, and the creative score is worked out again.`
          : "Approving renders the storyboard exactly as shown."}
      </p>

      {localError ? <FormAlert testId="review-error">{localError}</FormAlert> : null}
      {decide.isError ? (
        <FormAlert testId="review-error">
          <p className="alert-title">
            {decide.variables?.action === "reject" ? "We could not reject this storyboard" : "We could not approve this storyboard"}
          </p>
          <p>{sentence(errorMessage(decide.error))}</p>
        </FormAlert>
      ) : null}

      <div className="review-actions">
        <button
          type="button"
          className="btn btn-ghost btn-danger-text review-action"
          onClick={submit("reject")}
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
    </form>
  );
}

// ---------- Scene card ----------

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

function SceneCard({
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
  const lockedText = disabled || draft.dropped;
  const noteId = `${base}-last-note`;
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
        <div className="review-scene-tools">
          <button
            id={`${base}-up`}
            type="button"
            className="btn btn-ghost btn-small review-move"
            onClick={() => onMove("up")}
            disabled={disabled || index === 0}
            aria-label={`Move scene ${position} up`}
            data-testid="scene-move-up"
          >
            <Arrow dir="up" />
            <span className="review-tool-text">Up</span>
          </button>
          <button
            id={`${base}-down`}
            type="button"
            className="btn btn-ghost btn-small review-move"
            onClick={() => onMove("down")}
            disabled={disabled || index === count - 1}
            aria-label={`Move scene ${position} down`}
            data-testid="scene-move-down"
          >
            <Arrow dir="down" />
            <span className="review-tool-text">Down</span>
          </button>
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
      </div>

      <div className="review-scene-fields">
        {TEXT_FIELDS.map((field) => {
          const id = `${base}-${field}`;
          const countId = `${id}-count`;
          const errorId = `${id}-error`;
          const error = errors[field];
          const value = draft[field];
          const props = {
            id,
            className: `input${field === "body" ? " textarea review-textarea" : ""}`,
            value,
            maxLength: Math.max(REVIEW_LIMITS[field], value.length),
            disabled: lockedText,
            "aria-invalid": error ? true : undefined,
            "aria-describedby": [error ? errorId : null, countId].filter(Boolean).join(" "),
            "data-testid": `scene-${field}`,
          } as const;
          return (
            <div key={field} className={`field review-field review-field-${field}${error ? " has-error" : ""}`}>
              <div className="field-label-row">
                <label htmlFor={id} className="field-label">
                  {FIELD_LABELS[field]}
                  {field !== "headline" ? <span className="muted field-optional"> optional</span> : null}
                </label>
                <Counter id={countId} length={value.trim().length} limit={REVIEW_LIMITS[field]} />
              </div>
              {field === "body" ? (
                <textarea {...props} rows={2} onChange={(e) => onChange({ body: e.target.value })} />
              ) : (
                <input {...props} type="text" onChange={(e) => onChange({ [field]: e.target.value })} />
              )}
              <FieldError id={errorId} error={error} testId={`scene-${field}-error`} />
            </div>
          );
        })}
      </div>
    </li>
  );
}

function Counter({ id, length, limit }: { id: string; length: number; limit: number }) {
  const over = length > limit;
  const near = !over && length >= limit * 0.9;
  return (
    <span id={id} className={`review-count${over ? " is-over" : near ? " is-near" : ""}`}>
      <span className="visually-hidden">Characters used: </span>
      {formatNumber(length)}/{formatNumber(limit)}
    </span>
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
