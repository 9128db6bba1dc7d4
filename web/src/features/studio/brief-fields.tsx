// The brief by part, beside the concept: what the ad says (hook, benefits, proof, offer, call to action)
// kept apart from what the crew does (direction notes), so a camera note never becomes a headline.
import type { StructuredBrief } from "@adgen/schema";

/** The form's copy of the brief: plain text per field, benefits one per line. */
export interface BriefState {
  hook: string;
  benefits: string;
  proof: string;
  offer: string;
  cta: string;
  direction: string;
}

export const EMPTY_BRIEF: BriefState = { hook: "", benefits: "", proof: "", offer: "", cta: "", direction: "" };

/** The request's `brief`: only the fields given, or nothing when every field is empty. */
export function briefOf(state: BriefState): StructuredBrief | undefined {
  const benefits = state.benefits
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const brief: StructuredBrief = {
    ...(state.hook.trim() ? { hook: state.hook.trim() } : {}),
    ...(benefits.length ? { benefits } : {}),
    ...(state.proof.trim() ? { proof: state.proof.trim() } : {}),
    ...(state.offer.trim() ? { offer: state.offer.trim() } : {}),
    ...(state.cta.trim() ? { cta: state.cta.trim() } : {}),
    ...(state.direction.trim() ? { direction: state.direction.trim() } : {}),
  };
  return Object.keys(brief).length ? brief : undefined;
}

/** A stored request's brief back in the form (a run tried again). */
export function briefStateOf(value: unknown): BriefState {
  if (!value || typeof value !== "object") return EMPTY_BRIEF;
  const brief = value as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const benefits = Array.isArray(brief.benefits) ? brief.benefits.filter((b): b is string => typeof b === "string").join("\n") : "";
  return {
    hook: text(brief.hook),
    benefits,
    proof: text(brief.proof),
    offer: text(brief.offer),
    cta: text(brief.cta),
    direction: text(brief.direction),
  };
}

const FIELDS: { key: keyof BriefState; label: string; placeholder: string; hint?: string; lines?: number; max: number }[] = [
  { key: "hook", label: "Hook", placeholder: "e.g. Lukewarm water by noon again?", hint: "The opening line.", max: 200 },
  {
    key: "benefits",
    label: "Key benefits",
    placeholder: "e.g. Ice-cold for 24 hours\nFits every cup holder",
    hint: "One per line.",
    lines: 3,
    max: 1600,
  },
  { key: "proof", label: "Proof", placeholder: "e.g. 4.8 stars from 2,314 reviews", max: 300 },
  { key: "offer", label: "Offer", placeholder: "e.g. Free shipping this week", max: 200 },
  { key: "cta", label: "Call to action", placeholder: "e.g. Get yours", hint: "Said word for word.", max: 60 },
  {
    key: "direction",
    label: "Direction notes",
    placeholder: "e.g. Slow push-in on the bottle, then the view from the summit.",
    hint: "For the camera and the pacing: never shown or spoken.",
    lines: 2,
    max: 1000,
  },
];

export function BriefFields({ id, value, onChange }: { id: string; value: BriefState; onChange: (value: BriefState) => void }) {
  const filled = FIELDS.filter((f) => value[f.key].trim()).length;
  return (
    <details className="field brief-fields" open={filled > 0} data-testid="brief-fields">
      <summary className="field-label">
        Brief by part <span className="muted field-optional">optional{filled ? ` · ${filled} filled` : ""}</span>
      </summary>
      {FIELDS.map((field) => {
        const inputId = `${id}-${field.key}`;
        const common = {
          id: inputId,
          className: `input${field.lines ? " textarea" : ""}`,
          name: `brief.${field.key}`,
          placeholder: field.placeholder,
          maxLength: field.max,
          value: value[field.key],
          "aria-describedby": field.hint ? `${inputId}-hint` : undefined,
          "data-testid": `field-brief-${field.key}`,
        };
        return (
          <div className="field" key={field.key}>
            <label htmlFor={inputId} className="field-label">
              {field.label}
            </label>
            {field.lines ? (
              <textarea {...common} rows={field.lines} onChange={(e) => onChange({ ...value, [field.key]: e.target.value })} />
            ) : (
              <input {...common} type="text" onChange={(e) => onChange({ ...value, [field.key]: e.target.value })} />
            )}
            {field.hint ? (
              <p id={`${inputId}-hint`} className="field-hint">
                {field.hint}
              </p>
            ) : null}
          </div>
        );
      })}
    </details>
  );
}
