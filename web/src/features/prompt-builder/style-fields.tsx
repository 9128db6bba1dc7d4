// The prompt's style: one of the published cinematography styles, or the user's own words.
import { Field } from "../../ui/form.tsx";
import { Select } from "../../ui/select.tsx";
import type { FieldGroupProps, PromptSchema } from "./prompt-form.ts";
import { StyleNote } from "./style-note.tsx";

export function StyleFields({ uid, schema, spec, form, set, errorFor }: FieldGroupProps) {
  const styles = Object.values(schema.cinematographyStyles);
  return (
    <>
      <div className="field-pair">
        <Select id={`${uid}-style`} label="Style" value={form.styleId} onChange={(v) => set("styleId", v)} testId="pb-style">
          <option value="">No named style</option>
          {styles.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
              {spec.recommendedStyles.includes(s.id) ? " (recommended)" : ""}
            </option>
          ))}
        </Select>
        <Field
          label="…or your own style"
          value={form.styleText}
          onChange={(e) => set("styleText", e.target.value)}
          placeholder="e.g. pastel claymation"
          error={errorFor("style")}
          maxLength={600}
          testId="pb-style-text"
        />
      </div>
      {form.styleId && !form.styleText ? (
        <StyleNote style={schema.cinematographyStyles[form.styleId as keyof PromptSchema["cinematographyStyles"]]} />
      ) : null}
    </>
  );
}
