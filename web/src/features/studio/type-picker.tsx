// Step 1: the workflow types as cards, each with its standard and premium price (the catalogue's
// price table) and what stands in its way on this account's plan: a type the plan leaves out cannot be
// chosen, and its card says why and what unlocks it, before anyone fills in a form for nothing.
import type { QualityTier, WorkflowType } from "@adgen/schema";
import type { Pricing, StudioConfig } from "./form-state.ts";
import { plural } from "./labels.ts";
import { isReservedOn, reservedReason } from "./launch-blocks.tsx";

interface TypePickerProps {
  headingId: string;
  studio: StudioConfig;
  pricing: Pricing;
  selected: WorkflowType;
  quality: QualityTier;
  planId: string | undefined;
  onChoose: (type: WorkflowType) => void;
}

export function TypePicker({ headingId, studio, pricing, selected, quality, planId, onChoose }: TypePickerProps) {
  return (
    <div className="type-grid" role="radiogroup" aria-labelledby={headingId}>
      {studio.workflowTypes.map((w) => {
        const isSelected = w.type === selected;
        const price = pricing.workflows.find((p) => p.type === w.type);
        const reserved = isReservedOn(w.type, planId);
        const reasonId = `${headingId}-${w.type}-reserved`;
        return (
          <label
            key={w.type}
            className={`type-card${isSelected ? " is-selected" : ""}${reserved ? " is-reserved" : ""}`}
            data-testid={`workflow-type-${w.type}`}
            data-selected={isSelected ? "true" : "false"}
            data-disabled={reserved ? "true" : undefined}
          >
            <input
              type="radio"
              name={`${headingId}-type`}
              value={w.type}
              checked={isSelected}
              disabled={reserved}
              aria-describedby={reserved ? reasonId : undefined}
              onChange={() => onChoose(w.type)}
              className="visually-hidden"
            />
            <span className="type-card-name">{w.name}</span>
            {/* The API's name for it, once, so a reader of the docs can match the two. */}
            <span className="type-card-api" data-testid={`type-api-${w.type}`}>
              API type <code>{w.type}</code>
            </span>
            {price ? (
              <span className="type-card-prices" data-testid={`type-price-${w.type}`}>
                <span className={`type-card-cost${quality === "standard" ? " is-current" : ""}`}>{plural(price.standard, "credit")}</span>
                <span className={`type-card-premium${quality === "premium" ? " is-current" : ""}`}>
                  Premium {price.premium === price.standard ? "same price" : plural(price.premium, "credit")}
                </span>
              </span>
            ) : null}
            <span className="type-card-desc">{w.description}</span>
            <span className="type-card-tags">
              {w.requiresUrl ? <span className="badge">Needs a URL</span> : null}
              {reserved ? <span className="badge badge-warning">Paid plans</span> : null}
            </span>
            {reserved ? (
              <span id={reasonId} className="type-card-reserved" data-testid={`type-reserved-${w.type}`}>
                {reservedReason(planId)}
              </span>
            ) : null}
          </label>
        );
      })}
    </div>
  );
}
