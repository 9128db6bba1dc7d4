// Standard or premium, each with this type's price, premium's extra cost, and what each tier buys in one
// line (for this job: a video's resolution, frame rate and cuts, or an image-only job's stills), then what
// premium buys for this type in one sentence.
import type { QualityTier, WorkflowType } from "@adgen/schema";
import { useEffect } from "react";
import { FieldError } from "../../ui/form.tsx";
import type { Pricing } from "./form-state.ts";
import { extraCost, plural, premiumBuys } from "./labels.ts";

interface QualityChoiceProps {
  id: string;
  /** The chosen type: the hint says what premium buys for it. */
  type: WorkflowType;
  tiers: readonly QualityTier[];
  price: Pricing["workflows"][number] | undefined;
  descriptions: Pricing["qualityTiers"];
  /** The job makes stills only: each tier says what it buys an image job. */
  imagesOnly: boolean;
  value: QualityTier;
  onChange: (value: QualityTier) => void;
  error: string | undefined;
}

const TIER_NAMES: Record<QualityTier, string> = { standard: "Standard", premium: "Premium" };

export function QualityChoice({ id, type, tiers, price, descriptions, imagesOnly, value, onChange, error }: QualityChoiceProps) {
  // A type whose tiers cost the same makes the same thing in both (a static ad): there is nothing to choose.
  const oneTier = !!price && price.standard === price.premium;
  useEffect(() => {
    if (oneTier && value !== "standard") onChange("standard");
  }, [oneTier, value, onChange]);
  if (oneTier) {
    return (
      <div className="field" id={id}>
        <span className="field-label">Quality</span>
        <p className="muted" data-testid="quality-single">
          One quality for this type: {plural(price.standard, "credit")}. Premium would make the same thing here, so it is not offered.
        </p>
      </div>
    );
  }
  // This type's own words, not the price list's paragraph about every type at once.
  const description = premiumBuys(type, imagesOnly);
  return (
    <fieldset className={`field fieldset${error ? " has-error" : ""}`} id={id}>
      <legend className="field-label">Quality</legend>
      <div className="quality-options" role="radiogroup" aria-describedby={description ? `${id}-hint` : undefined}>
        {tiers.map((tier) => {
          const checked = tier === value;
          const cost = price ? price[tier] : null;
          const info = descriptions.find((d) => d.id === tier);
          // Older servers answer without the one-line summaries: the option then shows name and price only.
          const buys = imagesOnly ? info?.imageSummary : info?.summary;
          return (
            <label key={tier} className={`quality-option${checked ? " is-checked" : ""}`} data-testid={`quality-${tier}`}>
              <input
                type="radio"
                name={`${id}-quality`}
                value={tier}
                checked={checked}
                onChange={() => onChange(tier)}
                data-testid={`field-quality-${tier}`}
              />
              <span className="quality-option-text">
                <span className="quality-option-name">{info?.name ?? TIER_NAMES[tier]}</span>
                {cost !== null ? (
                  <span className="quality-option-price" data-testid={`quality-price-${tier}`}>
                    {plural(cost, "credit")}
                  </span>
                ) : null}
                {tier === "premium" && price ? (
                  <span className="quality-option-extra" data-testid="quality-premium-extra">
                    {extraCost(price.standard, price.premium)}
                  </span>
                ) : null}
                {buys ? (
                  <span className="quality-option-buys" data-testid={`quality-buys-${tier}`}>
                    {buys}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      <FieldError error={error} testId="field-error-quality" />
      {description && !error ? (
        <p id={`${id}-hint`} className="field-hint" data-testid="quality-description">
          {description}
        </p>
      ) : null}
    </fieldset>
  );
}
