// Performance: for the chosen brand, the loop's recommendation (with an Execute button) and each
// creative's figures, CTR and ROAS over time and decay flag. Figures are entered here (one creative's day,
// or a CSV of many days as ad platforms export it) or arrive through the API (POST /api/workflow/performance,
// POST /api/performance).
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { CreativeCard } from "./creative-card.tsx";
import { CsvUpload, OneDayForm } from "./figures-entry.tsx";
import { LoopPanel } from "./loop-panel.tsx";
import "./performance.css";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export function PerformancePage() {
  useTitle("Performance");
  const uid = useId();
  const trpc = useTRPC();
  const brands = useQuery(trpc.brand.list.queryOptions());
  const [chosen, setChosen] = useState<string | null>(null);
  const list = brands.data ?? [];
  const brandId = chosen && list.some((b) => b.id === chosen) ? chosen : (list[0]?.id ?? null);
  const report = useQuery({ ...trpc.performance.report.queryOptions({ brandId: brandId ?? undefined }), enabled: brandId !== null });
  return (
    <div className="page page-narrow" data-testid="performance-page">
      <PageHeader title="Performance" subtitle="How your creatives do, which are wearing out, and what to launch or stop next." />
      {brands.isPending ? <Skeleton height="3rem" /> : null}
      {brands.isError ? <InlineError error={brands.error} onRetry={() => void brands.refetch()} /> : null}
      {brands.data && list.length === 0 ? (
        <p className="alert alert-warning" data-testid="performance-no-brand">
          Save a brand first (on the <a href="/brand">Brand</a> page): the loop works brand by brand.
        </p>
      ) : null}
      {brandId ? (
        <>
          <div className="performance-toolbar">
            <div>
              <label htmlFor={`${uid}-brand`} className="field-label">
                Brand
              </label>
              <select
                id={`${uid}-brand`}
                className="input select"
                value={brandId}
                onChange={(e) => setChosen(e.target.value)}
                data-testid="performance-brand"
              >
                {list.map((b) => (
                  <option key={b.id} value={b.id}>
                    {(b.name ?? b.brandName ?? "Unnamed brand") + (b.isDefault ? " (default)" : "")}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <LoopPanel key={brandId} brandId={brandId} />
          <section className="card figures-entry" aria-labelledby={`${uid}-add`} data-testid="figures-entry">
            <h2 id={`${uid}-add`} className="card-title">
              Add figures
            </h2>
            <p className="muted">For this brand: one creative's day, or many days from your ad platform's export.</p>
            <OneDayForm key={`day-${brandId}`} brandId={brandId} />
            <CsvUpload key={`csv-${brandId}`} brandId={brandId} />
          </section>
          <section aria-labelledby={`${uid}-creatives`}>
            <h2 id={`${uid}-creatives`} className="section-title">
              Creatives
            </h2>
            {report.isPending ? <Skeleton height="10rem" /> : null}
            {report.isError ? <InlineError error={report.error} onRetry={() => void report.refetch()} /> : null}
            {report.data && report.data.creatives.length === 0 ? (
              <p className="muted" data-testid="performance-empty">
                No figures for this brand yet. Add them above, or send them with POST /api/workflow/performance (a day of impressions,
                clicks, conversions, spend and revenue) or POST /api/performance (single events).
              </p>
            ) : null}
            <div className="creative-list">
              {report.data?.creatives.map((c) => (
                <CreativeCard key={c.creativeId} creative={c} />
              ))}
            </div>
          </section>
        </>
      ) : null}
    </div>
  );
}
