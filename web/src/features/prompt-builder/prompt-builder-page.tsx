// The prompt builder (SPEC 4.6, zero-token): pick a builder, fill the fields (style and camera from
// the published schema's lists, or free text), and see the prompt, its score, the breakdown and
// suggestions update as you type. Every keystroke settles for a moment, then one `promptBuilder.build`
// call; nothing is charged and no model runs.
import { useQuery } from "@tanstack/react-query";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { Builder } from "./builder.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function PromptBuilderPage() {
  useTitle("Prompt builder");
  const trpc = useTRPC();
  const schema = useQuery(trpc.promptBuilder.schema.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  return (
    <div className="page" data-testid="prompt-builder">
      <PageHeader
        title="Prompt builder"
        subtitle="Structure a prompt for images or video, see how strong it is and what would make it better. Free: no credits, no model calls."
      />
      {schema.isPending ? (
        <div className="card" aria-busy="true">
          <Skeleton height="2em" />
          <Skeleton height="8em" />
        </div>
      ) : schema.isError ? (
        <InlineError error={schema.error} onRetry={() => void schema.refetch()} />
      ) : (
        <Builder schema={schema.data} />
      )}
    </div>
  );
}
