// A Presenter or Influencer ad shows a person: without a presenter photo or clip in the media library (and
// no stock presenter on this instance) the server refuses the launch, and its free estimate already says so
// (a 400 on the field `presenter`). The studio says it before Launch, with the way to the media library.
import { TRPCClientError } from "@trpc/client";
import { Link } from "wouter";
import type { CostEstimateState } from "./cost-estimate.tsx";

function presenterMissing(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const fields = (error.data as { fields?: { field: string }[] } | undefined)?.fields ?? [];
  return fields.some((f) => f.field === "presenter");
}

export function PersonNotice({ estimate, typeName }: { estimate: CostEstimateState; typeName: string }) {
  if (!presenterMissing(estimate.error)) return null;
  return (
    <div className="alert alert-warning" role="status" data-testid="presenter-needed">
      <p>
        A {typeName} ad shows a person, and your media library has no presenter yet. Upload a photo or a short clip of them, with their
        consent, in <Link href="/brand#brand-media">Brand → Media library</Link>, then launch.
      </p>
    </div>
  );
}
