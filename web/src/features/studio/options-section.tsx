// Step 3 of the studio: the quality, the included options, the models and their prompts, publishing and
// review before rendering.
import { type LaunchPromptKind, makesImagesOnly, type ModelKind } from "@adgen/schema";
import type { Pricing } from "./form-state.ts";
import { ModelFields } from "./model-fields.tsx";
import { PromptFields } from "./prompt-fields.tsx";
import { PublishToggle } from "./publish-toggle.tsx";
import { QualityChoice } from "./quality-choice.tsx";
import { ReviewToggle } from "./review-toggle.tsx";
import { StyleOptions } from "./style-options.tsx";
import type { StudioSection } from "./section-props.ts";

interface OptionsSectionProps {
  section: StudioSection;
  pricing: Pricing;
  modelKinds: readonly ModelKind[];
  promptKinds: readonly LaunchPromptKind[];
}

export function OptionsSection({ section, pricing, modelKinds, promptKinds }: OptionsSectionProps) {
  const { uid, studio, brand, state, uses, errors, update } = section;
  return (
    <section className="card studio-options" aria-labelledby={`${uid}-options`}>
      <h2 id={`${uid}-options`} className="studio-step-title">
        <span className="step-number">3</span> Options
      </h2>
      <QualityChoice
        id={`${uid}-quality`}
        type={state.type}
        tiers={studio.qualityTiers}
        price={pricing.workflows.find((w) => w.type === state.type)}
        descriptions={pricing.qualityTiers}
        imagesOnly={makesImagesOnly(state.type, state.imagesOnly)}
        value={state.quality}
        onChange={(v) => update("quality", v)}
        error={errors.quality}
      />
      <p className="studio-included muted" data-testid="options-included">
        The options below are included in the price.
      </p>
      <StyleOptions uid={uid} uses={uses} studio={studio} brand={brand} state={state} errors={errors} update={update} />
      <ModelFields
        uid={uid}
        type={state.type}
        kinds={modelKinds}
        models={studio.models}
        quality={state.quality}
        value={state.models}
        onChange={(kind, id) => update("models", { ...state.models, [kind]: id })}
        errors={errors}
      />
      <PromptFields uid={uid} kinds={promptKinds} value={state.prompts} onChange={(v) => update("prompts", v)} />
      <PublishToggle
        id={`${uid}-publish`}
        makesVideo={!makesImagesOnly(state.type, state.imagesOnly)}
        checked={state.publish}
        onChange={(v) => update("publish", v)}
      />
      {uses.hitl ? (
        <ReviewToggle
          id={`${uid}-hitl`}
          checked={state.hitl}
          onChange={(v) => update("hitl", v)}
          timeoutSeconds={studio.limits.hitlTimeoutSeconds}
          error={errors.hitl}
        />
      ) : null}
    </section>
  );
}
