// The models that make the ad, one choice per kind the type uses (schema's `modelKindsFor`): stills
// always, video unless the ad is images only, a voice for narrated types. Only models that render the
// chosen quality are offered.
import { type ModelKind, type QualityTier, videoModelFits } from "@adgen/schema";
import type { FormErrors, FormState, StudioConfig } from "./form-state.ts";
import { MODEL_KIND_LABELS } from "./labels.ts";
import { Select } from "../../ui/select.tsx";

interface ModelFieldsProps {
  uid: string;
  /** The workflow type: some models suit only some types (a talking presenter needs a narrated type). */
  type: string;
  kinds: readonly ModelKind[];
  models: StudioConfig["models"];
  quality: QualityTier;
  value: FormState["models"];
  onChange: (kind: ModelKind, id: string) => void;
  errors: FormErrors["fields"];
}

export function ModelFields({ uid, type, kinds, models, quality, value, onChange, errors }: ModelFieldsProps) {
  if (kinds.length === 0) return null;
  return (
    <fieldset className="field fieldset studio-models" data-testid="field-models">
      <legend className="field-label">Models</legend>
      <div className="field-pair">
        {kinds.map((kind) => {
          const offered = models[kind].filter((m) => m.tiers.includes(quality) && (kind !== "video" || videoModelFits(m.id, type)));
          const fallback = models[kind].find((m) => m.default);
          const error = errors[`models.${kind}`];
          if (offered.length === 0) {
            return (
              <p key={kind} className="field-hint" data-testid={`field-model-${kind}`}>
                {MODEL_KIND_LABELS[kind]}: none on this instance for {quality} quality.
              </p>
            );
          }
          return (
            <Select
              key={kind}
              id={`${uid}-model-${kind}`}
              label={MODEL_KIND_LABELS[kind]}
              value={value[kind]}
              onChange={(id) => onChange(kind, id)}
              error={error}
              errorTestId={`field-error-model-${kind}`}
              testId={`field-model-${kind}`}
            >
              <option value="">{fallback ? `${fallback.name} (default)` : "Default"}</option>
              {offered
                .filter((m) => m.id !== fallback?.id)
                .map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
            </Select>
          );
        })}
      </div>
    </fieldset>
  );
}
