// The formats to render, as ratio outlines with their platforms, and (factory only) images instead of
// video. The hint says what each format becomes for this type.
import type { AspectRatio, WorkflowType } from "@adgen/schema";
import { ratioId } from "../../lib/workflow.ts";
import { FieldError } from "../../ui/form.tsx";
import type { StudioConfig } from "./form-state.ts";
import { platformName } from "./labels.ts";

interface FormatsFieldProps {
  id: string;
  type: WorkflowType;
  formats: readonly StudioConfig["formats"][number][];
  selected: readonly AspectRatio[];
  onToggle: (ratio: AspectRatio, on: boolean) => void;
  error: string | undefined;
  /** Shown for types that can make images only (factory). */
  imagesOnly: { value: boolean; onChange: (value: boolean) => void; error: string | undefined } | null;
}

export function FormatsField({ id, type, formats, selected, onToggle, error, imagesOnly }: FormatsFieldProps) {
  return (
    <fieldset className={`field fieldset${error ? " has-error" : ""}`} id={id}>
      <legend className="field-label">Formats</legend>
      <div className="format-grid">
        {formats.map((f) => {
          const checked = selected.includes(f.ratio);
          return (
            <label key={f.ratio} className={`format-option${checked ? " is-checked" : ""}`}>
              <input
                type="checkbox"
                name="formats"
                value={f.ratio}
                checked={checked}
                onChange={(e) => onToggle(f.ratio, e.target.checked)}
                data-testid={`format-${ratioId(f.ratio)}`}
              />
              <span className="format-shape" style={shapeSize(f.width, f.height, 26)} aria-hidden="true" />
              <span className="format-text">
                <span className="format-ratio">{f.ratio}</span>
                <span className="format-platforms">{f.platforms.slice(0, 3).map(platformName).join(", ")}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <FieldError error={error} testId="field-error-formats" />
      ) : (
        <p className="field-hint">{formatsHint(type, imagesOnly?.value ?? false)} The price is per run, whatever the number of formats.</p>
      )}
      {imagesOnly ? (
        <label className="toggle studio-images-only" htmlFor={`${id}-imagesOnly`}>
          <input
            id={`${id}-imagesOnly`}
            type="checkbox"
            className="switch"
            checked={imagesOnly.value}
            onChange={(e) => imagesOnly.onChange(e.target.checked)}
            data-testid="field-imagesOnly"
          />
          <span className="toggle-text">
            <span className="toggle-label">Images only</span>
            <span className="field-hint">Still images in each format instead of videos. Same price.</span>
          </span>
        </label>
      ) : null}
      {imagesOnly?.error ? <FieldError error={imagesOnly.error} testId="field-error-imagesOnly" /> : null}
    </fieldset>
  );
}

function formatsHint(type: WorkflowType, imagesOnly: boolean): string {
  if (type === "staticad") return "Several still variants (PNG) per format, each with its own headline and layout.";
  if (type === "factory")
    return imagesOnly ? "Several still variants per format, as one batch." : "Several variants per format, as one batch.";
  return "One video per format.";
}

/** A ratio's outline, fitted in a `box`-pixel square. */
function shapeSize(width: number, height: number, box: number) {
  const scale = box / Math.max(width, height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
