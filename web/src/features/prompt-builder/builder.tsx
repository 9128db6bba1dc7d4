// The prompt builder's form beside its answer: builder, subject and context, style, camera and look.
import { useId, useState } from "react";
import { Field, FormAlert } from "../../ui/form.tsx";
import { TextArea } from "../../ui/text-area.tsx";
import { BuilderChoice } from "./builder-choice.tsx";
import { CameraFields } from "./camera-fields.tsx";
import { LookFields } from "./look-fields.tsx";
import { type FormState, INITIAL, type PromptSchema, type SetField } from "./prompt-form.ts";
import { Result } from "./result.tsx";
import { StyleFields } from "./style-fields.tsx";
import { useBuiltPrompt } from "./use-built-prompt.ts";

export function Builder({ schema }: { schema: PromptSchema }) {
  const uid = useId();
  const [form, setForm] = useState<FormState>(INITIAL);
  const set: SetField = (key, value) => setForm((f) => ({ ...f, [key]: value }));

  const spec = schema.schemas[form.builder as keyof PromptSchema["schemas"]] ?? schema.schemas.image;
  const video = spec.medium === "video";
  const fieldSpec = (name: string) => spec.fields.find((f) => f.name === name);
  const built = useBuiltPrompt(form, video);
  const { errorFor, subjectMissing } = built;
  const fields = { uid, schema, form, set, errorFor };

  return (
    <div className="studio-layout">
      <form className="card studio-main" noValidate onSubmit={(e) => e.preventDefault()} aria-labelledby={`${uid}-form`}>
        <h2 id={`${uid}-form`} className="studio-step-title">
          Describe the shot
        </h2>
        <BuilderChoice {...fields} />
        <TextArea
          id={`${uid}-subject`}
          label={
            <>
              Subject <span className="muted field-optional">required</span>
            </>
          }
          aria-required
          style={{ minHeight: 72 }}
          value={form.subject}
          onChange={(v) => set("subject", v)}
          placeholder={fieldSpec("subject")?.placeholder}
          counter={{ max: fieldSpec("subject")?.maxLength ?? 500 }}
          error={subjectMissing ? undefined : errorFor("subject")}
          hint={subjectMissing ? "Start here: the prompt appears as soon as there is a subject." : fieldSpec("subject")?.description}
          testId="pb-subject"
        />
        <Field
          label="Context"
          value={form.context}
          onChange={(e) => set("context", e.target.value)}
          placeholder={fieldSpec("context")?.placeholder}
          error={errorFor("context")}
          hint={fieldSpec("context")?.description}
          maxLength={600}
          testId="pb-context"
        />
        <StyleFields {...fields} spec={spec} />
        <CameraFields {...fields} video={video} />
        <LookFields {...fields} spec={spec} />
        {built.formError ? <FormAlert>{built.formError}</FormAlert> : null}
      </form>

      <aside className="studio-aside" aria-live="polite">
        <Result
          builder={form.builder}
          subject={form.subject}
          result={built.result}
          subjectMissing={subjectMissing}
          fetching={built.fetching}
          error={built.error}
          invalid={built.invalid}
          onRetry={built.retry}
        />
      </aside>
    </div>
  );
}
