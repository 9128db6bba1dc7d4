// The reviewer's edits to the storyboard: each scene's text, its place and whether it is dropped, what
// the edits add up to, and a spoken note after each move (keyboard focus follows the moved scene).
import { useEffect, useMemo, useState } from "react";
import { type Draft, draftsOf, isFieldEdited, type Scene, TEXT_FIELDS } from "./drafts.ts";

/** `onEdit` runs on every edit (an error about the earlier text no longer holds). */
export function useReviewDrafts(uid: string, scenes: readonly Scene[], onEdit: () => void) {
  const byId = useMemo(() => new Map(scenes.map((s) => [s.id, s])), [scenes]);
  const [drafts, setDrafts] = useState<Draft[]>(() => draftsOf(scenes));
  const [announcement, setAnnouncement] = useState("");
  const [focusTarget, setFocusTarget] = useState<{ id: string; dir: "up" | "down" } | null>(null);

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

  function update(id: string, patch: Partial<Draft>) {
    onEdit();
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
    onEdit();
    setAnnouncement("Changes undone: the storyboard is as directed.");
  }

  return {
    byId,
    drafts,
    kept,
    announcement,
    counts: { kept: keptCount, dropped: droppedCount, edited: editedCount, reordered, changed },
    update,
    move,
    toggleDrop,
    reset,
  };
}

export type ReviewDrafts = ReturnType<typeof useReviewDrafts>;
