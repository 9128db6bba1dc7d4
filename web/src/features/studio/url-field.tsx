// The page a type reads (schema's `urlRole`): a reference ad, a product page, a business page or the
// brand's site, with what it is read for, the fallback to the brand profile's website where the type has
// one, and the preview of what can be read from it before paying.
import type { FieldNeed, UrlRole } from "@adgen/schema";
import { Link } from "wouter";
import { Field } from "../../ui/form.tsx";
import { PagePreviewCard } from "./page-preview.tsx";
import { URL_COPY } from "./labels.ts";

interface UrlFieldProps {
  id: string;
  role: UrlRole;
  need: FieldNeed;
  /** The type reads the brand profile's website when this is empty. */
  fallsBackToBrandWebsite: boolean;
  brandWebsite: string | undefined;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

export function UrlField({ id, role, need, fallsBackToBrandWebsite, brandWebsite, value, onChange, error }: UrlFieldProps) {
  const copy = URL_COPY[role];
  const empty = !value.trim();
  return (
    <>
      <Field
        id={id}
        label={copy.label}
        labelAside={need === "required" ? null : <span className="muted field-optional">optional</span>}
        type="url"
        inputMode="url"
        name="url"
        autoComplete="url"
        placeholder={fallsBackToBrandWebsite && brandWebsite ? brandWebsite : copy.placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
        errorTestId="field-error-url"
        testId="field-url"
        required={need === "required"}
        hint={
          <>
            {copy.reads} <FallbackNote fallsBack={fallsBackToBrandWebsite} brandWebsite={brandWebsite} empty={empty} need={need} />
          </>
        }
      />
      {!error ? <PagePreviewCard url={value} /> : null}
    </>
  );
}

function FallbackNote({
  fallsBack,
  brandWebsite,
  empty,
  need,
}: {
  fallsBack: boolean;
  brandWebsite: string | undefined;
  empty: boolean;
  need: FieldNeed;
}) {
  if (fallsBack) {
    if (brandWebsite) {
      return (
        <span data-testid="url-fallback">
          Leave it empty to use your brand profile's website, <span className="mono">{brandWebsite}</span>.
        </span>
      );
    }
    if (need === "required") {
      return (
        <span data-testid="url-fallback" className={empty ? "field-hint-warning" : undefined}>
          Your brand profile has no website yet, so give the page here (or add one in <Link href="/settings">Settings</Link>).
        </span>
      );
    }
    return (
      <span data-testid="url-fallback">
        Your brand profile has no website yet: give the site here, or the film is made from your brand profile alone.
      </span>
    );
  }
  if (need !== "required") return <span>Leave it empty to make the ad from your concept and brand alone.</span>;
  return null;
}
