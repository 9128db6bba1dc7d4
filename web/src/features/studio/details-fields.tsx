// The fields of step 2 of the studio: what the ad is about (page, project, concept, brief) and its formats.
import { type AspectRatio, urlFallsBackToBrandWebsite, urlRole } from "@adgen/schema";
import { BriefFields } from "./brief-fields.tsx";
import { ConceptField } from "./concept-field.tsx";
import { FormatsField } from "./formats-field.tsx";
import { ProjectField } from "./project-field.tsx";
import type { StudioSection } from "./section-props.ts";
import { UrlField } from "./url-field.tsx";

interface DetailsFieldsProps {
  section: StudioSection;
  toggleFormat(ratio: AspectRatio, on: boolean): void;
}

export function DetailsFields({ section, toggleFormat }: DetailsFieldsProps) {
  const { uid, studio, brand, state, uses, errors, update } = section;
  const role = urlRole(state.type);
  return (
    <>
      {uses.url && role ? (
        <UrlField
          id={`${uid}-url`}
          role={role}
          need={uses.url}
          fallsBackToBrandWebsite={urlFallsBackToBrandWebsite(state.type)}
          brandWebsite={brand?.websiteUrl || undefined}
          value={state.url}
          onChange={(v) => update("url", v)}
          error={errors.url}
        />
      ) : null}
      {uses.project ? (
        <ProjectField id={`${uid}-project`} value={state.project} onChange={(v) => update("project", v)} error={errors.project} />
      ) : null}
      {uses.concept ? (
        <ConceptField
          id={`${uid}-concept`}
          type={state.type}
          need={uses.concept}
          max={studio.limits.conceptMaxLength}
          value={state.concept}
          onChange={(v) => update("concept", v)}
          error={errors.concept}
        />
      ) : null}
      {uses.concept ? <BriefFields id={`${uid}-brief`} value={state.brief} onChange={(v) => update("brief", v)} /> : null}
      <FormatsField
        id={`${uid}-formats`}
        type={state.type}
        formats={studio.formats}
        selected={state.formats}
        onToggle={toggleFormat}
        error={errors.formats}
        imagesOnly={
          uses.imagesOnly ? { value: state.imagesOnly, onChange: (v) => update("imagesOnly", v), error: errors.imagesOnly } : null
        }
      />
    </>
  );
}
