// Lighting (with the terms that work well for the model family), quality and the negative prompt.
import { Field } from "../../ui/form.tsx";
import type { FieldGroupProps } from "./prompt-form.ts";

export function LookFields({ uid, schema, spec, form, set, errorFor }: FieldGroupProps) {
  const fieldSpec = (name: string) => spec.fields.find((f) => f.name === name);
  const lexicon = schema.lexicon[spec.family];
  return (
    <>
      <Field
        id={`${uid}-lighting`}
        label="Lighting"
        value={form.lighting}
        onChange={(e) => set("lighting", e.target.value)}
        placeholder={fieldSpec("lighting")?.placeholder}
        error={errorFor("lighting")}
        hint={`Terms that work well: ${lexicon.lighting.slice(0, 5).join(", ")}`}
        list={`${uid}-lighting-terms`}
        maxLength={600}
        testId="pb-lighting"
      />
      <datalist id={`${uid}-lighting-terms`}>
        {lexicon.lighting.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <Field
        label="Quality"
        value={form.quality}
        onChange={(e) => set("quality", e.target.value)}
        placeholder={fieldSpec("quality")?.placeholder}
        error={errorFor("quality")}
        hint={`Comma-separated. Defaults when empty: ${spec.defaultQuality.join(", ")}`}
        maxLength={600}
        testId="pb-quality"
      />
      <Field
        label="Negative"
        value={form.negative}
        onChange={(e) => set("negative", e.target.value)}
        placeholder={fieldSpec("negative")?.placeholder}
        error={errorFor("negative")}
        hint={`Comma-separated, up to ${schema.limits.negativeMaxItems}. Always added: ${spec.defaultNegative.join(", ")}`}
        testId="pb-negative"
      />
    </>
  );
}
