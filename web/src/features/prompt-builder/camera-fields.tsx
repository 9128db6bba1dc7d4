// The camera: lens, shot size, angle and (for video) movement from the published lists, and free notes.
import { Field } from "../../ui/form.tsx";
import { Select } from "../../ui/select.tsx";
import type { FormField, FormState, PromptSchema, SetField } from "./prompt-form.ts";

interface CameraFieldsProps {
  uid: string;
  schema: PromptSchema;
  video: boolean;
  form: FormState;
  set: SetField;
  errorFor: (field: FormField) => string | undefined;
}

export function CameraFields({ uid, schema, video, form, set, errorFor }: CameraFieldsProps) {
  return (
    <fieldset className="field" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <legend className="field-label">Camera</legend>
      <div className="field-pair">
        <Select id={`${uid}-lens`} label="Lens" value={form.lens} onChange={(v) => set("lens", v)} testId="pb-lens">
          <option value="">Any lens</option>
          {schema.camera.lenses.map((l) => (
            <option key={l.id} value={l.id}>
              {l.label}: {l.use}
            </option>
          ))}
        </Select>
        <Select id={`${uid}-shot`} label="Shot size" value={form.shotSize} onChange={(v) => set("shotSize", v)} testId="pb-shot">
          <option value="">Any shot size</option>
          {schema.camera.shotSizes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </Select>
        <Select id={`${uid}-angle`} label="Angle" value={form.angle} onChange={(v) => set("angle", v)} testId="pb-angle">
          <option value="">Any angle</option>
          {schema.camera.angles.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
        </Select>
        {video ? (
          <Select id={`${uid}-movement`} label="Movement" value={form.movement} onChange={(v) => set("movement", v)} testId="pb-movement">
            <option value="">No movement</option>
            {schema.camera.movements.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </Select>
        ) : null}
      </div>
      <Field
        label="More camera notes"
        value={form.cameraText}
        onChange={(e) => set("cameraText", e.target.value)}
        placeholder={video ? "e.g. shallow depth of field" : "e.g. f/1.8, shallow depth of field"}
        error={errorFor("camera")}
        maxLength={600}
        testId="pb-camera"
      />
    </fieldset>
  );
}
