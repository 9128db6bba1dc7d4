// A review's draft of the storyboard: each scene's text as the reviewer edits it, what is wrong with it
// before it is sent, and what the decision carries (only the text that changed).
import { TRPCClientError } from "@trpc/client";
import { formatNumber } from "../../lib/format.ts";
import type { RouterInputs, RouterOutputs } from "../../trpc.ts";

export type ReviewState = RouterOutputs["workflow"]["hitl"];
export type Storyboard = NonNullable<ReviewState["storyboard"]>;
export type Scene = Storyboard["scenes"][number];
export type Decision = RouterInputs["workflow"]["hitlDecide"];
export type ReviewedScene = NonNullable<Decision["scenes"]>[number];
export type Action = Decision["action"];

/** The server's limits on a scene's text (HitlDecision's ReviewedScene). */
export const REVIEW_LIMITS = { headline: 120, body: 200, cta: 60 } as const;
export type TextField = keyof typeof REVIEW_LIMITS;
export const TEXT_FIELDS: readonly TextField[] = ["headline", "body", "cta"];
export const FEEDBACK_LIMIT = 2000;

export const FIELD_LABELS: Record<TextField, string> = { headline: "Headline", body: "Body", cta: "Call to action" };

export interface Draft {
  id: string;
  headline: string;
  body: string;
  cta: string;
  dropped: boolean;
}

export type FieldErrors = Record<string, Partial<Record<TextField, string>>>;

export function draftsOf(scenes: readonly Scene[]): Draft[] {
  return scenes.map((s) => ({ id: s.id, headline: s.headline, body: s.body ?? "", cta: s.cta ?? "", dropped: false }));
}

export function originalText(scene: Scene, field: TextField): string {
  return (field === "headline" ? scene.headline : (scene[field] ?? "")).trim();
}

export function isFieldEdited(draft: Draft, scene: Scene, field: TextField): boolean {
  return draft[field].trim() !== originalText(scene, field);
}

/** A kept scene as the decision sends it: its id and only the text that changed. */
export function reviewedScene(draft: Draft, scene: Scene): ReviewedScene {
  const out: ReviewedScene = { id: draft.id };
  if (isFieldEdited(draft, scene, "headline")) out.headline = draft.headline.trim();
  if (isFieldEdited(draft, scene, "body")) out.body = draft.body.trim() || null;
  if (isFieldEdited(draft, scene, "cta")) out.cta = draft.cta.trim() || null;
  return out;
}

/** What is wrong with a kept scene's text before it is sent (unchanged text is never sent, so never wrong). */
export function localErrors(draft: Draft, scene: Scene): Partial<Record<TextField, string>> {
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
export function serverFieldErrors(error: unknown, sent: readonly ReviewedScene[] | undefined): FieldErrors {
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

export function sentence(text: string): string {
  const t = text.trim();
  return t ? `${t[0]?.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}` : t;
}

export function credits(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? "credit" : "credits"}`;
}

export function formatLeft(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}
