// One job, live: progress and steps from `workflow.stream`, the review panel while it waits for a
// decision, the result in the form it comes in once it is done (features/results/), the error and
// refund if it failed (features/job/).
import { isFinishedStatus } from "@adgen/schema";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { errorCode } from "../../lib/errors.ts";
import { useTitle } from "../../lib/hooks.ts";
import { jobStatusLabel } from "../../lib/workflow.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { ErrorPanel, PageLoader, Skeleton } from "../../ui/status.tsx";
import { DecisionPanel, useProjectRemoved } from "../moderation/decision-panel.tsx";
import { ResultPanel } from "../results/result-panel.tsx";
import { ReviewEditor } from "../review/review-editor.tsx";
import { FailedPanel } from "./failed-panel.tsx";
import { JobHeader } from "./job-header.tsx";
import { jobPlan, parseInput } from "./job-plan.ts";
import { jobTitle } from "./job-title.ts";
import { ProgressCard } from "./progress-card.tsx";
import { StepList } from "./step-list.tsx";
import { useJobStream } from "./use-job-stream.ts";
import { WaitingCard } from "./waiting-card.tsx";

export function JobPage(_props: PageProps) {
  const params = useParams<{ jobId: string }>();
  const jobId = params.jobId ?? "";
  const trpc = useTRPC();
  const job = useQuery(trpc.workflow.job.queryOptions({ jobId }, { enabled: !!jobId }));
  // The job view has no input; the project (same id) does: the formats and whether a URL is read.
  const projects = useQuery(trpc.projects.list.queryOptions());
  const project = projects.data?.find((p) => p.id === jobId);
  const input = parseInput(project);
  // A project removed by moderation has no media to show: the decision panel says why.
  const removed = useProjectRemoved(jobId);

  // The project's name (given at launch, editable) is the title; the job view alone derives one.
  const title = job.data ? jobTitle(project?.name ? { ...job.data, name: project.name } : job.data) : "";
  useTitle(job.data ? `${title} · ${jobStatusLabel(job.data)}` : "Job");
  const { stream, seenSteps, completedSteps } = useJobStream(jobId, job.data);

  if (job.isPending) return <PageLoader label="Loading the job…" />;
  if (job.isError) {
    const notFound = errorCode(job.error) === "NOT_FOUND";
    return (
      <ErrorPanel
        title={notFound ? "Job not found" : "We could not load this job"}
        error={job.error}
        code={notFound ? "404" : undefined}
        onRetry={notFound ? undefined : () => void job.refetch()}
      >
        <Link href="/studio" className="btn btn-ghost">
          Open the studio
        </Link>
      </ErrorPanel>
    );
  }

  const data = job.data;
  const { formats, steps } = jobPlan(data, input, seenSteps, completedSteps);

  return (
    <div className="page" data-testid="job-view" data-status={data.status}>
      <JobHeader jobId={jobId} title={title} data={data} />

      <div className="job-layout">
        <div className="job-main">
          <DecisionPanel projectId={jobId} />
          <ProgressCard data={data} steps={steps} streamStatus={stream.status} />

          {data.status === "awaiting_review" ? <ReviewEditor jobId={jobId} creditsUsed={data.creditsUsed} /> : null}
          {data.status === "failed" ? <FailedPanel job={data} /> : null}
          {data.status === "completed" && !removed ? (
            data.result ? (
              <ResultPanel job={data} />
            ) : (
              <section className="card" aria-busy="true">
                <Skeleton width="100%" height="18rem" />
              </section>
            )
          ) : null}
          {!isFinishedStatus(data.status) && data.status !== "awaiting_review" ? (
            <WaitingCard formats={formats} steps={steps} queued={data.status === "queued"} />
          ) : null}
        </div>

        <aside className="card job-steps-card" aria-labelledby="job-steps-title">
          <h2 id="job-steps-title" className="card-title">
            Steps
          </h2>
          <StepList steps={steps} />
        </aside>
      </div>
    </div>
  );
}
