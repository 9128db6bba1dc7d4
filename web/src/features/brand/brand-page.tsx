// The Brand page: the brand switcher and the selected brand's profile, the publishing schedule, the
// knowledge base, and the default brand's kit and media library.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { BrandKitSection } from "./brand-kit.tsx";
import { BrandProfileForm } from "./brand-profile-form.tsx";
import { BrandScheduleSection } from "./brand-schedule.tsx";
import { BrandSwitcher, NEW_BRAND } from "./brand-switcher.tsx";
import { KnowledgeBaseSection } from "./knowledge-base.tsx";
import { MediaLibrarySection } from "./media-library.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function BrandPage() {
  useTitle("Brand");
  return (
    <div className="page page-narrow brand-page" data-testid="brand-page">
      <PageHeader title="Brand" subtitle="Who your ads speak for, what they may say, and when they go out." />
      <BrandProfilesSection />
      <BrandScheduleSection />
      <KnowledgeBaseSection />
      <BrandKitSection />
      <MediaLibrarySection />
    </div>
  );
}

function BrandProfilesSection() {
  const trpc = useTRPC();
  const brands = useQuery(trpc.brand.list.queryOptions());
  const [chosen, setChosen] = useState<string | null>(null);
  // A new form when the user picks another brand; not when a new brand is saved (its form stays, with its message).
  const [formKey, setFormKey] = useState(0);
  const pick = (id: string | null) => {
    setChosen(id);
    setFormKey((k) => k + 1);
  };
  const list = brands.data ?? [];
  // The default brand until another is picked; "new" with none saved yet.
  const selected = chosen && (chosen === NEW_BRAND || list.some((b) => b.id === chosen)) ? chosen : (list[0]?.id ?? NEW_BRAND);
  const brand = list.find((b) => b.id === selected) ?? null;
  return (
    <SettingsCard
      title="Brand profile"
      testId="brand-profiles"
      intro="Your ads take their name, colours, logo and voice from here. An agency can keep one per client."
    >
      {brands.isError ? (
        <InlineError error={brands.error} onRetry={() => void brands.refetch()} />
      ) : brands.isPending ? (
        <Skeleton height="200px" />
      ) : (
        <div className="brand-profiles">
          {list.length ? <BrandSwitcher brands={list} selected={selected} onSelect={pick} /> : null}
          <BrandProfileForm key={formKey} brand={brand} onSaved={(id) => setChosen(id)} onDeleted={() => pick(null)} />
        </div>
      )}
    </SettingsCard>
  );
}
