// Prompts for the generation models themselves (a launch's `prompts`): a picture prompt where the ad's
// stills are generated pictures, a clip prompt where its scenes are generated clips. Offered only where
// that model is chosen (or is the default), which only a provider key on the instance makes possible; the
// rule (which model each prompt feeds) and the length come from @adgen/schema, as the server checks them.
import { LAUNCH_PROMPT_MODEL, LAUNCH_TEXT_MAX, type LaunchPromptKind, type ModelKind } from "@adgen/schema";
import type { FormState, StudioConfig } from "./form-state.ts";

const LABELS: Record<LaunchPromptKind, { label: string; hint: string }> = {
  picture: {
    label: "Picture prompt",
    hint: "Each generated picture is drawn from this prompt, with its scene's moment. Leave it empty to draw each scene from its words.",
  },
  clip: {
    label: "Clip prompt",
    hint: "Each generated clip's motion follows this prompt, with its scene's moment. Leave it empty to direct each scene from its shot.",
  },
};

/** The model a kind will use: the one chosen, else the instance's default. */
export function effectiveModel(models: StudioConfig["models"], chosen: FormState["models"], kind: ModelKind): string | undefined {
  return chosen[kind] || models[kind].find((m) => m.default)?.id;
}

/** The prompts this form may send: each one whose model the launch will use (and the type shows). */
export function promptKindsFor(
  models: StudioConfig["models"],
  chosen: FormState["models"],
  shownKinds: readonly ModelKind[],
): LaunchPromptKind[] {
  return (Object.keys(LAUNCH_PROMPT_MODEL) as LaunchPromptKind[]).filter((prompt) => {
    const { kind, model } = LAUNCH_PROMPT_MODEL[prompt];
    return shownKinds.includes(kind) && effectiveModel(models, chosen, kind) === model;
  });
}

interface PromptFieldsProps {
  uid: string;
  kinds: readonly LaunchPromptKind[];
  value: FormState["prompts"];
  onChange: (value: FormState["prompts"]) => void;
}

/** A refused prompt's message shows in the form's alert, which names the field. */
export function PromptFields({ uid, kinds, value, onChange }: PromptFieldsProps) {
  if (kinds.length === 0) return null;
  return (
    <fieldset className="field fieldset" data-testid="field-prompts">
      <legend className="field-label">Prompts for the models</legend>
      {kinds.map((kind) => (
        <div className="field" key={kind}>
          <label className="field-label" htmlFor={`${uid}-prompt-${kind}`}>
            {LABELS[kind].label}
          </label>
          <textarea
            id={`${uid}-prompt-${kind}`}
            className="input textarea"
            rows={3}
            maxLength={LAUNCH_TEXT_MAX.prompt}
            value={value[kind]}
            onChange={(e) => onChange({ ...value, [kind]: e.target.value })}
            data-testid={`field-prompt-${kind}`}
          />
          <p className="field-hint">{LABELS[kind].hint}</p>
        </div>
      ))}
    </fieldset>
  );
}
