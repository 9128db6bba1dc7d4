// The Studio page: loads the catalogue (types, formats, models), the prices, the saved defaults, the
// brand profile, the plan and (for "Try again", `?retry=<jobId>`) the failed run's settings, then shows
// the form (studio-form.tsx).
import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "wouter";
import { StudioForm } from "./studio-form.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export function StudioPage(_props: PageProps) {
  useTitle("Studio");
  const trpc = useTRPC();
  const studio = useQuery(trpc.public.studio.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const pricing = useQuery(trpc.public.pricing.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const prefs = useQuery(trpc.workflow.prefs.queryOptions());
  const brand = useQuery(trpc.brand.get.queryOptions());
  const profile = useQuery(trpc.user.profile.queryOptions());
  const [params] = useSearchParams();
  // "Try again" (`?retry=`) and "Make another like this" (`?from=`) both start from a project's stored settings.
  const fromId = params.get("from");
  const retryId = params.get("retry") ?? fromId;
  const retry = useQuery(trpc.workflow.job.queryOptions({ jobId: retryId ?? "" }, { enabled: !!retryId }));

  const failed = [studio, pricing].find((q) => q.isError);
  // Preferences, the brand profile, the plan and the run to retry only prefill: if they fail, the form
  // starts from defaults (and the server still refuses what the plan leaves out).
  const ready = studio.data && pricing.data && !prefs.isPending && !brand.isPending && !profile.isPending && !(retryId && retry.isPending);

  return (
    <div className="page" data-testid="studio">
      <PageHeader title="Studio" subtitle="Pick a workflow, describe the ad, and launch. Credits come back if a run fails.">
        <Link href="/projects" className="btn btn-ghost btn-small">
          Your projects
        </Link>
      </PageHeader>
      {failed ? <InlineError error={failed.error} onRetry={() => void failed.refetch()} /> : null}
      {ready ? (
        <StudioForm
          studio={studio.data}
          pricing={pricing.data}
          prefs={prefs.data ?? {}}
          brand={brand.data ?? null}
          planId={profile.data?.current_plan_id}
          retry={retry.data ? { jobId: retry.data.jobId, input: retry.data.input, copy: !params.get("retry") && !!fromId } : null}
        />
      ) : failed ? null : (
        <div className="studio-skeleton" role="status" aria-label="Loading the studio">
          <Skeleton width="100%" height="9rem" />
          <Skeleton width="100%" height="22rem" />
        </div>
      )}
    </div>
  );
}
