// Which builder the prompt is for (an image, a cinematic clip, a UGC clip), as cards to pick from.
import { FieldError } from "../../ui/form.tsx";
import type { FormField, FormState, PromptSchema, SetField } from "./prompt-form.ts";

interface BuilderChoiceProps {
  uid: string;
  schema: PromptSchema;
  form: FormState;
  set: SetField;
  errorFor: (field: FormField) => string | undefined;
}

export function BuilderChoice({ uid, schema, form, set, errorFor }: BuilderChoiceProps) {
  return (
    <div className="field">
      <span className="field-label" id={`${uid}-builder`}>
        Builder
      </span>
      <div className="type-grid" role="radiogroup" aria-labelledby={`${uid}-builder`}>
        {schema.builders.map((id) => {
          const b = schema.schemas[id as keyof PromptSchema["schemas"]];
          if (!b) return null;
          const checked = form.builder === id;
          return (
            <label key={id} className={`type-card${checked ? " is-selected" : ""}`} data-testid={`builder-${id}`}>
              <input
                type="radio"
                name={`${uid}-builder`}
                value={id}
                checked={checked}
                onChange={() => set("builder", id)}
                className="visually-hidden"
              />
              <span className="type-card-head">
                <span className="type-card-name">{b.name}</span>
              </span>
              <span className="type-card-desc">{b.description}</span>
            </label>
          );
        })}
      </div>
      <FieldError error={errorFor("builder")} />
    </div>
  );
}
