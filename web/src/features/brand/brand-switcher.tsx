// Which brand the page edits: the account's brands (the default marked), and "New brand".
import { useId } from "react";
import type { BrandRow } from "./brand-profile-form.tsx";

export const NEW_BRAND = "new";

export function BrandSwitcher({ brands, selected, onSelect }: { brands: BrandRow[]; selected: string; onSelect(id: string): void }) {
  const uid = useId();
  return (
    <div className="brand-switcher" data-testid="brand-switcher">
      <label htmlFor={`${uid}-brand`} className="field-label">
        Brand
      </label>
      <div className="brand-switcher-row">
        <select
          id={`${uid}-brand`}
          className="input select"
          value={selected}
          onChange={(e) => onSelect(e.target.value)}
          data-testid="brand-select"
        >
          {brands.map((b) => (
            <option key={b.id} value={b.id}>
              {(b.name ?? b.brandName ?? "Unnamed brand") + (b.isDefault ? " (default)" : "")}
            </option>
          ))}
          {selected === NEW_BRAND ? <option value={NEW_BRAND}>New brand</option> : null}
        </select>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => onSelect(NEW_BRAND)}
          disabled={selected === NEW_BRAND}
          data-testid="brand-new"
        >
          New brand
        </button>
      </div>
      <p className="field-hint">New ads use the default brand unless you pick another brand (or none) in the studio.</p>
    </div>
  );
}
