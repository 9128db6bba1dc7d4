// The studio form: the type picker, then the fields the chosen type uses (schema's `studioFields`),
// the options with their prices, the cost and the launch. The request is checked with the shared
// `WorkflowRequest` schema before it leaves the browser; the server checks it again and its answers
// (400 by field, 402, 403) are shown where they belong. What the server would refuse anyway (no
// credits, an ended trial, a workflow the plan leaves out) turns Launch off, with the reason beside it.
import { STUDIO_MODEL_KINDS } from "@adgen/schema";
import { useId, useState } from "react";
import { FormAlert } from "../../ui/form.tsx";
import { useCostEstimate } from "./cost-estimate.tsx";
import { DetailsFields } from "./details-fields.tsx";
import { type Brand, fieldsOf, type Prefs, type Pricing, type StudioConfig, toRequest } from "./form-state.ts";
import { describeHeading } from "./labels.ts";
import { LaunchSummary } from "./launch-summary.tsx";
import { OptionsSection } from "./options-section.tsx";
import { PersonNotice } from "./person-notice.tsx";
import type { StudioSection } from "./section-props.ts";
import { promptKindsFor } from "./prompt-fields.tsx";
import { RestoredNotes } from "./restored-notes.tsx";
import { StoryboardPreviews } from "./storyboard-previews.tsx";
import { TypePicker } from "./type-picker.tsx";
import { useFormState } from "./use-form-state.ts";
import { missingPageMessage, useLaunch } from "./use-launch.ts";
import { useLaunchGate } from "./use-launch-gate.ts";
import { useSaveDefaults } from "./use-save-defaults.ts";
import "./studio.css";

interface StudioFormProps {
  studio: StudioConfig;
  pricing: Pricing;
  prefs: Prefs;
  brand: Brand | null;
  planId: string | undefined;
  /** A project's stored settings to start from: a failed run tried again, or a copy ("make another like this"). */
  retry: { jobId: string; input: Record<string, unknown>; copy?: boolean } | null;
}

export function StudioForm({ studio, pricing, prefs, brand, planId, retry }: StudioFormProps) {
  const uid = useId();
  const form = useFormState({ studio, prefs, brand, planId, retry });
  const { state, errors } = form;
  const info = studio.workflowTypes.find((w) => w.type === state.type) ?? studio.workflowTypes[0]!;
  const price = pricing.workflows.find((w) => w.type === state.type);
  const uses = fieldsOf(state, brand);
  const modelKinds = STUDIO_MODEL_KINDS.filter((kind) => uses[`models.${kind}`]);
  const promptKinds = promptKindsFor(studio.models, state.models, modelKinds);
  const request = toRequest(state, uses, promptKinds);
  const missingPage = missingPageMessage(state.type, uses.url === "required", state.url);
  // A free preview of this very form: the launch then renders its storyboard.
  const [previewId, setPreviewId] = useState<string | null>(null);
  const launched = (previewId ? { ...request, previewId } : request) as typeof request;
  const { launch, handleSubmit } = useLaunch({
    uid,
    request: launched,
    missingPage,
    setErrors: form.setErrors,
    setProblem: form.setProblem,
  });
  const estimate = useCostEstimate(request, uses.url === "required");
  const gate = useLaunchGate(state.type, info.name, planId, estimate);
  const { savePrefs, saveDefaults } = useSaveDefaults(form.setPrefsSaved);
  const section: StudioSection = { uid, studio, brand, state, uses, errors: errors.fields, update: form.update };

  return (
    <>
      <section className="studio-section" aria-labelledby={`${uid}-types`}>
        <h2 id={`${uid}-types`} className="studio-step-title">
          <span className="step-number">1</span> Choose a workflow
        </h2>
        <TypePicker
          headingId={`${uid}-types`}
          studio={studio}
          pricing={pricing}
          selected={state.type}
          quality={state.quality}
          planId={planId}
          onChoose={form.chooseType}
        />
      </section>

      <form
        className="studio-layout"
        noValidate
        onSubmit={handleSubmit}
        data-testid="workflow-form"
        data-type={state.type}
        aria-busy={launch.isPending}
      >
        <section className="card studio-main" aria-labelledby={`${uid}-details`}>
          <h2 id={`${uid}-details`} className="studio-step-title">
            <span className="step-number">2</span> {describeHeading(state.type, info.name)}
          </h2>
          <RestoredNotes retry={retry} />
          {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
          <PersonNotice estimate={estimate} typeName={info.name} />
          <DetailsFields section={section} toggleFormat={form.toggleFormat} />
        </section>

        <aside className="studio-aside">
          <OptionsSection section={section} pricing={pricing} modelKinds={modelKinds} promptKinds={promptKinds} />
          <StoryboardPreviews request={request} onPreviewId={setPreviewId} />
          <LaunchSummary
            uid={uid}
            typeName={info.name}
            estimate={estimate}
            listCost={price ? price[state.quality] : null}
            gate={gate}
            problem={form.problem}
            launching={launch.isPending}
            prefsSaved={form.prefsSaved}
            savePrefs={savePrefs}
            onSaveDefaults={() => saveDefaults(state, request)}
          />
        </aside>
      </form>
    </>
  );
}
