// The options that shape copy and look, each shown only when the type uses it: copy framework, style
// preset, seasonal theme and the brand profile ("No brand profile" sends NO_BRAND: an ad from the page and the
// concept alone, not the default brand's). None of them changes the price.
import { NO_BRAND, type StudioFields } from "@adgen/schema";
import type { Brand, FormErrors, FormState, StudioConfig } from "./form-state.ts";
import { FRAMEWORK_LABELS, SEASONAL_LABELS } from "./labels.ts";
import { Select } from "../../ui/select.tsx";
import { BrandSiteNotice } from "./brand-site-notice.tsx";

interface StyleOptionsProps {
  uid: string;
  uses: StudioFields;
  studio: StudioConfig;
  brand: Brand | null;
  state: FormState;
  errors: FormErrors["fields"];
  update: <K extends keyof FormState>(key: K, value: FormState[K]) => void;
}

export function StyleOptions({ uid, uses, studio, brand, state, errors, update }: StyleOptionsProps) {
  return (
    <>
      {uses.framework ? (
        <Select
          id={`${uid}-framework`}
          label="Copy framework"
          value={state.framework}
          onChange={(v) => update("framework", v)}
          error={errors.framework}
          errorTestId="field-error-framework"
          testId="field-framework"
        >
          <option value="">Automatic</option>
          {studio.frameworks.map((f) => (
            <option key={f} value={f}>
              {FRAMEWORK_LABELS[f] ?? f.toUpperCase()}
            </option>
          ))}
        </Select>
      ) : null}
      {uses.adPreset || uses.seasonal ? (
        <div className="field-pair">
          {uses.adPreset ? (
            <Select
              id={`${uid}-preset`}
              label="Style preset"
              value={state.adPreset}
              onChange={(v) => update("adPreset", v)}
              error={errors.adPreset}
              errorTestId="field-error-adPreset"
              testId="field-adPreset"
            >
              <option value="">None</option>
              {studio.adPresets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          ) : null}
          {uses.seasonal ? (
            <Select
              id={`${uid}-seasonal`}
              label="Seasonal"
              value={state.seasonal}
              onChange={(v) => update("seasonal", v)}
              error={errors.seasonal}
              errorTestId="field-error-seasonal"
              testId="field-seasonal"
            >
              <option value="">None</option>
              {studio.seasonal.map((s) => (
                <option key={s} value={s}>
                  {SEASONAL_LABELS[s] ?? s}
                </option>
              ))}
            </Select>
          ) : null}
        </div>
      ) : null}
      {uses.brand && brand ? (
        <Select
          id={`${uid}-brand`}
          label="Brand"
          value={state.brand}
          onChange={(v) => update("brand", v)}
          error={errors.brand}
          errorTestId="field-error-brand"
          testId="field-brand"
          hint={
            <span className="brand-hint">
              <BrandSwatches colors={brand.brandColors} />
              Colours, voice and audience come from this profile.
            </span>
          }
        >
          <option value={brand.id}>{brand.brandName || brand.name || "Your brand profile"}</option>
          <option value={NO_BRAND}>No brand profile</option>
        </Select>
      ) : null}
      {uses.brand && uses.url ? <BrandSiteNotice brand={brand} chosen={state.brand} url={state.url} /> : null}
    </>
  );
}

function BrandSwatches({ colors }: { colors: string | undefined }) {
  const list = (colors ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter((c) => /^#?[0-9a-f]{3}([0-9a-f]{3})?$/i.test(c))
    .slice(0, 4);
  if (list.length === 0) return null;
  return (
    <span className="swatches" aria-hidden="true">
      {list.map((c) => (
        <span key={c} className="swatch" style={{ background: c.startsWith("#") ? c : `#${c}` }} />
      ))}
    </span>
  );
}
