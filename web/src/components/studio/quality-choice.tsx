// Standard or premium, each with this type's price, premium's extra cost, and what premium buys (the
// pricing document's words).
import type { QualityTier } from "@adgen/schema";
import { FieldError } from "../form.tsx";
import type { Pricing } from "./form-state.ts";
import { extraCost, plural } from "./labels.ts";

interface QualityChoiceProps {
  id: string;
  tiers: readonly QualityTier[];
  price: Pricing["workflows"][number] | undefined;
  descriptions: Pricing["qualityTiers"];
  value: QualityTier;
  onChange: (value: QualityTier) => void;
  error: string | undefined;
}

const TIER_NAMES: Record<QualityTier, string> = { standard: "Standard", premium: "Premium" };

export function QualityChoice({ id, tiers, price, descriptions, value, onChange, error }: QualityChoiceProps) {
  const description = descriptions.find((d) => d.id === value)?.description;
  return (
    <fieldset className={`field fieldset${error ? " has-error" : ""}`} id={id}>
      <legend className="field-label">Quality</legend>
      <div className="quality-options" role="radiogroup" aria-describedby={description ? `${id}-hint` : undefined}>
        {tiers.map((tier) => {
          const checked = tier === value;
          const cost = price ? price[tier] : null;
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
                <span className="quality-option-name">{descriptions.find((d) => d.id === tier)?.name ?? TIER_NAMES[tier]}</span>
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
