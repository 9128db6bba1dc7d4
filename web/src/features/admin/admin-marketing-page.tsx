// Internal marketing: run the blog draft, the self-marketing ad (rendered on the house account) and the
// lead list, and read what each made. An ad's run follows its job until the job finishes.
import type { MarketingRun } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AdminNav } from "./admin-nav.tsx";
import { FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import "./admin.css";
import "./admin-console.css";
import { PageHeader } from "../../ui/page-header.tsx";

const KINDS = [
  { kind: "blog", label: "Blog post draft", description: "An article about the product, from the live catalogue and figures." },
  { kind: "ad", label: "Self-marketing ad", description: "A Static Ad about the service, made by the real workflow on the house account." },
  { kind: "leads", label: "Lead list", description: "Recent signups, contact messages and newsletter subscribers, added to Leads." },
] as const;

function RunOutput({ run }: { run: MarketingRun }) {
  const output = run.output ?? {};
  if (run.kind === "blog" && typeof output.markdown === "string")
    return (
      <pre className="admin-pre" data-testid="blog-draft">
        {output.markdown}
      </pre>
    );
  if (run.kind === "ad") {
    const assets = Array.isArray(output.assets) ? (output.assets as { url?: string }[]) : [];
    return (
      <div>
        <p className="admin-item-facts">
          <span>Job status: {String(output.jobStatus ?? "queued")}</span>
          {run.jobId ? <span>Job {run.jobId.slice(0, 8)}</span> : null}
        </p>
        {assets
          .filter((a) => a.url)
          .slice(0, 3)
          .map((asset) => (
            <a key={asset.url} href={asset.url} target="_blank" rel="noreferrer">
              <img src={asset.url} alt="The self-marketing ad" style={{ maxWidth: "100%", width: 240, borderRadius: 8, marginTop: 8 }} />
            </a>
          ))}
      </div>
    );
  }
  if (run.kind === "leads") {
    return (
      <p className="admin-item-facts" data-testid="leads-output">
        <span>{String(output.candidates ?? 0)} found</span>
        <span>{String(output.added ?? 0)} added</span>
        <span>{String(output.alreadyKnown ?? 0)} already leads</span>
      </p>
    );
  }
  return null;
}

export function AdminMarketingPage() {
  useTitle("Marketing · Admin");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(
    trpc.admin.marketing.queryOptions(undefined, {
      // Poll while an ad is still being made.
      refetchInterval: (query) => (query.state.data?.runs.some((run) => run.status === "running") ? 3000 : false),
    }),
  );
  const generate = useMutation(
    trpc.admin.generateMarketing.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.marketing.queryKey() }),
    }),
  );
  return (
    <div className="page" data-testid="admin-marketing">
      <PageHeader title="Marketing" subtitle="The service markets itself with its own parts. Each run shows what it made." />
      <AdminNav />
      <section className="card">
        {generate.isError ? <FormAlert testId="marketing-error">{errorMessage(generate.error)}</FormAlert> : null}
        <ul className="admin-list">
          {KINDS.map((item) => (
            <li key={item.kind} className="admin-item">
              <div className="admin-item-head">
                <h2 className="admin-item-title">{item.label}</h2>
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  disabled={generate.isPending}
                  onClick={() => generate.mutate({ kinds: [item.kind] })}
                  data-testid={`marketing-run-${item.kind}`}
                >
                  {generate.isPending && generate.variables?.kinds?.includes(item.kind) ? <Spinner size="sm" /> : null} Run
                </button>
              </div>
              <p className="muted admin-empty">{item.description}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" style={{ marginTop: 16 }} aria-labelledby="runs-title">
        <h2 id="runs-title" className="card-title">
          Recent runs
        </h2>
        {status.isError ? <InlineError error={status.error} onRetry={() => void status.refetch()} /> : null}
        {status.data ? (
          status.data.runs.length === 0 ? (
            <p className="muted admin-empty">Nothing has run yet.</p>
          ) : (
            <ul className="admin-list">
              {status.data.runs.map((run) => (
                <li key={run.id} className="admin-item" data-testid="marketing-run" data-kind={run.kind}>
                  <div className="admin-item-head">
                    <strong>{KINDS.find((k) => k.kind === run.kind)?.label ?? run.kind}</strong>
                    <span
                      className={
                        run.status === "completed"
                          ? "badge badge-success"
                          : run.status === "failed"
                            ? "badge badge-danger"
                            : "badge badge-warning"
                      }
                      data-testid="marketing-run-status"
                    >
                      {run.status}
                    </span>
                  </div>
                  <p className="admin-item-facts">
                    <span>Started {formatDateTime(run.createdAt)}</span>
                    {run.finishedAt ? <span>Finished {formatDateTime(run.finishedAt)}</span> : null}
                  </p>
                  {run.error ? <p className="admin-item-error">{run.error}</p> : null}
                  <RunOutput run={run} />
                </li>
              ))}
            </ul>
          )
        ) : status.isPending ? (
          <Skeleton height="10rem" />
        ) : null}
      </section>
    </div>
  );
}
