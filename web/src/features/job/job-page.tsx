// One job, live: progress and steps from `workflow.stream`, the review panel while it waits for a
// decision, the result in the form it comes in once it is done (components/results/), the error and
// refund if it failed (components/job/).
import {
  defaultFormatsFor,
  isCancelled,
  isFinishedStatus,
  JOB_STATUSES,
  type JobStatus,
  plannedSteps,
  renderStepFormat,
  STEP,
  usesGeneratedClips,
} from "@adgen/schema";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { Link, useParams } from "wouter";
import { CancelButton } from "./cancel-button.tsx";
import { FailedPanel } from "./failed-panel.tsx";
import { jobTitle } from "./job-title.ts";
import { StepList } from "./step-list.tsx";
import { StreamBadge } from "./stream-badge.tsx";
import { WaitingCard } from "./waiting-card.tsx";
import { ResultPanel } from "../results/result-panel.tsx";
import type { Job } from "../results/types.ts";
import { DecisionPanel, useProjectRemoved } from "../moderation/decision-panel.tsx";
import { ReviewEditor } from "../review/review-editor.tsx";
import { ErrorPanel, PageLoader, Skeleton } from "../../ui/status.tsx";
import { errorCode } from "../../lib/errors.ts";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { type JobEvent, useJobEvents } from "../../lib/job-events.ts";
import { jobStatusLabel, requiresUrl, sortFormats, type StepView, statusClass, stepStates, workflowName } from "../../lib/workflow.ts";
import type { PageProps } from "../../page-props.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

type Project = RouterOutputs["projects"]["list"][number];

const isJobStatus = (status: string): status is JobStatus => (JOB_STATUSES as readonly string[]).includes(status);

interface ProjectInput {
  url?: string;
  formats?: string[];
  hitl?: boolean;
  concept?: string;
}

function parseInput(project: Project | undefined): ProjectInput | null {
  if (!project) return null;
  try {
    const value = JSON.parse(project.input_data) as unknown;
    return value && typeof value === "object" ? (value as ProjectInput) : null;
  } catch {
    return null;
  }
}

export function JobPage(_props: PageProps) {
  const params = useParams<{ jobId: string }>();
  const jobId = params.jobId ?? "";
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobKey = trpc.workflow.job.queryKey({ jobId });
  const job = useQuery(trpc.workflow.job.queryOptions({ jobId }, { enabled: !!jobId }));
  // The job view has no input; the project (same id) does: the formats and whether a URL is read.
  const projects = useQuery(trpc.projects.list.queryOptions());
  const project = projects.data?.find((p) => p.id === jobId);
  const input = parseInput(project);
  // A project removed by moderation has no media to show: the decision panel says why.
  const removed = useProjectRemoved(jobId);

  const [completedSteps, setCompletedSteps] = useState<ReadonlySet<string>>(() => new Set());
  const [seenSteps, setSeenSteps] = useState<readonly string[]>([]);

  // The project's name (given at launch, editable) is the title; the job view alone derives one.
  const title = job.data ? jobTitle(project?.name ? { ...job.data, name: project.name } : job.data) : "";
  useTitle(job.data ? `${title} · ${jobStatusLabel(job.data)}` : "Job");

  const onEvent = useCallback(
    (event: JobEvent) => {
      const step = event.step;
      if (step) setSeenSteps((prev) => (prev.includes(step) ? prev : [...prev, step]));
      const finished = (event.result as { completed?: unknown } | null)?.completed;
      if (typeof finished === "string") {
        setCompletedSteps((prev) => (prev.has(finished) ? prev : new Set([...prev, finished])));
      }
      queryClient.setQueryData(jobKey, (old: Job | undefined) =>
        old
          ? {
              ...old,
              status: isJobStatus(event.status) ? event.status : old.status,
              step: event.step ?? old.step,
              progress: Math.max(0, Math.min(100, event.progress)),
              ...(event.type === "workflow.failed" && event.error ? { error: event.error } : {}),
            }
          : old,
      );
      const terminal = event.type === "workflow.completed" || event.type === "workflow.failed";
      if (terminal || event.type === "workflow.suspended" || (event.step === STEP.review && event.type === "workflow.step")) {
        // Results, refunds and the review state come with the full views.
        void queryClient.invalidateQueries({ queryKey: jobKey });
        void queryClient.invalidateQueries({ queryKey: trpc.workflow.hitl.queryKey({ jobId }) });
      }
      if (terminal || event.type === "workflow.state") {
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      }
      if (event.type === "workflow.failed") {
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
      }
    },
    [queryClient, jobKey, trpc, jobId],
  );

  const streamEnabled = !!job.data && !isFinishedStatus(job.data.status);
  const stream = useJobEvents(jobId, streamEnabled, onEvent);

  // While the stream is down, poll so the page does not go stale.
  const polling = streamEnabled && (stream.status === "reconnecting" || stream.status === "error");
  useEffect(() => {
    if (!polling) return;
    const id = window.setInterval(() => void queryClient.invalidateQueries({ queryKey: jobKey }), 5000);
    return () => window.clearInterval(id);
  }, [polling, queryClient, jobKey]);

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
  // Rendered formats only (not a report, captions or a voice-over).
  const assetFormats = data.result?.assets.filter((a) => a.type === "video" || a.type === "image").map((a) => a.format) ?? [];
  const seenFormats = seenSteps.map(renderStepFormat).filter((f): f is string => f !== null);
  // In render order, as the server runs them; shown sorted.
  const renderOrder: readonly string[] = input?.formats?.length
    ? input.formats
    : assetFormats.length
      ? assetFormats
      : seenFormats.length
        ? seenFormats
        : defaultFormatsFor(data.type);
  const formats = sortFormats(renderOrder);
  const hasUrl = input ? !!input.url : seenSteps.includes(STEP.readPage) || data.step === STEP.readPage || requiresUrl(data.type);
  const clips = input ? usesGeneratedClips({ ...input, type: data.type }) : seenSteps.includes(STEP.clips) || data.step === STEP.clips;
  const steps = stepStates(plannedSteps({ hasUrl, hitl: data.hitl, formats: renderOrder, type: data.type, clips }), data, completedSteps);
  const progress = data.status === "completed" ? 100 : data.progress;

  return (
    <div className="page" data-testid="job-view" data-status={data.status}>
      <header className="page-header">
        <div>
          <p className="breadcrumbs">
            <Link href="/projects">Projects</Link> <span aria-hidden="true">/</span>{" "}
            <span className="breadcrumb-title" aria-current="page" title={title}>
              {title}
            </span>
          </p>
          <h1 className="page-title job-title" data-testid="job-title">
            {title}
          </h1>
          <p className="page-subtitle muted">
            {workflowName(data.type)} · {data.quality === "premium" ? "Premium" : "Standard"} · {formatNumber(data.creditsUsed)}{" "}
            {data.creditsUsed === 1 ? "credit" : "credits"} · started {formatDateTime(data.createdAt)}
          </p>
        </div>
        <div className="page-header-actions">
          {!isFinishedStatus(data.status) ? <CancelButton jobId={jobId} title={title} creditsUsed={data.creditsUsed} /> : null}
          <Link href={`/report?target=${encodeURIComponent(jobId)}`} className="btn btn-ghost btn-small" data-testid="report-project">
            Report
          </Link>
          <Link href="/studio" className="btn btn-primary btn-small">
            New ad
          </Link>
        </div>
      </header>

      <div className="job-layout">
        <div className="job-main">
          <DecisionPanel projectId={jobId} />
          <section className="card job-progress-card" aria-labelledby="job-progress-title">
            <div className="card-head">
              <h2 id="job-progress-title" className="card-title">
                Progress
              </h2>
              <div className="job-head-badges">
                <StreamBadge status={stream.status} finished={isFinishedStatus(data.status)} />
                <span
                  className={`badge status-badge ${statusClass(data)}`}
                  data-testid="job-status"
                  data-status={data.status}
                  data-cancelled={isCancelled(data) ? "true" : undefined}
                >
                  {jobStatusLabel(data)}
                </span>
              </div>
            </div>
            <div
              className={`progress progress-${data.status}`}
              role="progressbar"
              aria-label="Job progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              aria-valuetext={`${progress}% · ${jobStatusLabel(data)}`}
              data-testid="job-progress"
            >
              <span className="progress-bar" style={{ width: `${progress}%` }} />
            </div>
            <p className="progress-caption muted">
              <span className="mono">{progress}%</span> · {statusLine(data, steps)}
            </p>
          </section>

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

function statusLine(job: Job, steps: StepView[]): string {
  if (job.status === "completed") return "Your ad is ready.";
  if (isCancelled(job)) return "You cancelled this job.";
  if (job.status === "failed") return "The run stopped.";
  if (job.status === "awaiting_review") return "Waiting for your review of the storyboard.";
  if (job.status === "queued") return "Queued";
  const active = steps.find((s) => s.state === "active");
  return active ? `${active.label}…` : "Working…";
}
