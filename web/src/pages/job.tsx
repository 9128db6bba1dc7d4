// One job, live: progress and steps from `workflow.stream`, the review panel while it waits for a
// decision, the players and downloads once it is done, the error and refund if it failed.
import {
  defaultFormatsFor,
  isCancelled,
  isFinishedStatus,
  JOB_STATUSES,
  type JobStatus,
  plannedSteps,
  renderStepFormat,
  renderStepName,
  STEP,
} from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useState } from "react";
import { Link, useParams } from "wouter";
import { ReviewEditor } from "../components/review-editor.tsx";
import { ErrorPanel, PageLoader, Skeleton } from "../components/status.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { formatDateTime, formatNumber } from "../lib/format.ts";
import { useTitle } from "../lib/hooks.ts";
import { type JobEvent, type JobStreamStatus, useJobEvents } from "../lib/job-events.ts";
import {
  cssAspect,
  downloadHref,
  formatLabel,
  jobStatusLabel,
  mediaSrc,
  ratioId,
  requiresUrl,
  sortFormats,
  statusClass,
  type StepView,
  stepStates,
  workflowName,
} from "../lib/workflow.ts";
import type { PageProps } from "../routes.tsx";
import { type RouterOutputs, useTRPC } from "../trpc.ts";

type Job = RouterOutputs["workflow"]["job"];
type Asset = NonNullable<Job["result"]>["assets"][number];
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
  const input = parseInput(projects.data?.find((p) => p.id === jobId));

  const [completedSteps, setCompletedSteps] = useState<ReadonlySet<string>>(() => new Set());
  const [seenSteps, setSeenSteps] = useState<readonly string[]>([]);

  useTitle(job.data ? `${workflowName(job.data.type)} · ${jobStatusLabel(job.data)}` : "Job");

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
  const steps = stepStates(plannedSteps({ hasUrl, hitl: data.hitl, formats: renderOrder, type: data.type }), data, completedSteps);
  const progress = data.status === "completed" ? 100 : data.progress;

  return (
    <div className="page" data-testid="job-view" data-status={data.status}>
      <header className="page-header">
        <div>
          <p className="breadcrumbs">
            <Link href="/projects">Projects</Link> <span aria-hidden="true">/</span> <span className="mono">{shortId(data.jobId)}</span>
          </p>
          <h1 className="page-title">{workflowName(data.type)} ad</h1>
          <p className="page-subtitle muted">
            {data.quality === "premium" ? "Premium" : "Standard"} · {formatNumber(data.creditsUsed)}{" "}
            {data.creditsUsed === 1 ? "credit" : "credits"} · started {formatDateTime(data.createdAt)}
          </p>
        </div>
        <div className="page-header-actions">
          {!isFinishedStatus(data.status) ? <CancelButton jobId={jobId} /> : null}
          <Link href="/studio" className="btn btn-primary btn-small">
            New ad
          </Link>
        </div>
      </header>

      <div className="job-layout">
        <div className="job-main">
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
          {data.status === "completed" ? (
            data.result ? (
              <ResultPanel job={data} />
            ) : (
              <section className="card" aria-busy="true">
                <Skeleton width="100%" height="18rem" />
              </section>
            )
          ) : null}
          {!isFinishedStatus(data.status) && data.status !== "awaiting_review" ? (
            <section className="card job-waiting">
              <div className="job-waiting-art" aria-hidden="true">
                {formats.map((f) => {
                  const state = steps.find((s) => s.name === renderStepName(f))?.state;
                  return (
                    <span
                      key={f}
                      className={`job-waiting-frame${state === "done" ? " is-ready" : state === "active" ? " is-active" : ""}`}
                      style={{ aspectRatio: cssAspect(f) }}
                    >
                      {state === "done" ? `${f} ✓` : f}
                    </span>
                  );
                })}
              </div>
              <p className="muted">
                {data.status === "queued"
                  ? "Your job is in the queue and starts in a moment."
                  : "Rendering takes a little while. You can leave this page; the job keeps going and appears in Projects."}
              </p>
            </section>
          ) : null}
        </div>

        <aside className="card job-steps-card" aria-labelledby="job-steps-title">
          <h2 id="job-steps-title" className="card-title">
            Steps
          </h2>
          <ol className="job-steps">
            {steps.map((step) => (
              <li key={step.name} className={`job-step step-${step.state}`} data-testid={`job-step-${step.id}`} data-state={step.state}>
                <StepIcon state={step.state} />
                <span className="job-step-text">
                  <span className="job-step-label">{step.label}</span>
                  {step.detail ? <span className="job-step-detail">{step.detail}</span> : null}
                </span>
                <span className="visually-hidden">{STEP_STATE_LABELS[step.state]}</span>
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </div>
  );
}

const STEP_STATE_LABELS: Record<StepView["state"], string> = {
  done: "done",
  active: "in progress",
  waiting: "waiting for you",
  pending: "not started",
  failed: "failed",
};

function statusLine(job: Job, steps: StepView[]): string {
  if (job.status === "completed") return "Your ad is ready.";
  if (isCancelled(job)) return "You cancelled this job.";
  if (job.status === "failed") return "The run stopped.";
  if (job.status === "awaiting_review") return "Waiting for your review of the storyboard.";
  if (job.status === "queued") return "Queued";
  const active = steps.find((s) => s.state === "active");
  return active ? `${active.label}…` : "Working…";
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

function StepIcon({ state }: { state: StepView["state"] }) {
  if (state === "active") return <span className="step-icon step-icon-active" aria-hidden="true" />;
  return (
    <span className={`step-icon step-icon-${state}`} aria-hidden="true">
      {state === "done" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : state === "failed" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M4.5 4.5l7 7M11.5 4.5l-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      ) : state === "waiting" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M5 3.5v9M11 3.5v9" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      ) : null}
    </span>
  );
}

function StreamBadge({ status, finished }: { status: JobStreamStatus; finished: boolean }) {
  if (finished) return null;
  const live = status === "live";
  const label = live ? "Live" : status === "reconnecting" ? "Reconnecting…" : status === "error" ? "Updates paused" : "Connecting…";
  const dot = live ? "live" : status === "error" ? "off" : "reconnecting";
  return (
    <span className="live-badge" data-testid="job-stream" data-status={status}>
      <span className={`live-dot live-${dot}`} aria-hidden="true" />
      {label}
    </span>
  );
}

function CancelButton({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.workflow.cancel.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.job.queryKey({ jobId }), data);
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      },
      onError: () => {
        // Most likely it finished meanwhile; show what it is now.
        void queryClient.invalidateQueries({ queryKey: trpc.workflow.job.queryKey({ jobId }) });
      },
    }),
  );
  return (
    <>
      {cancel.isError ? (
        <span className="inline-note" role="alert">
          {errorMessage(cancel.error)}
        </span>
      ) : null}
      <button
        type="button"
        className="btn btn-ghost btn-small btn-danger-text"
        disabled={cancel.isPending}
        onClick={() => {
          if (window.confirm("Cancel this job? It stops now and its credits are refunded.")) cancel.mutate({ jobId });
        }}
        data-testid="cancel-job"
      >
        {cancel.isPending ? "Cancelling…" : "Cancel job"}
      </button>
    </>
  );
}

function FailedPanel({ job }: { job: Job }) {
  const refunded = job.refunded ? job.creditsUsed : 0;
  return (
    <section className="card job-failed" aria-labelledby="job-failed-title" data-testid="job-error">
      <div className="job-failed-icon" aria-hidden="true">
        !
      </div>
      <div className="job-failed-body">
        <h2 id="job-failed-title" className="card-title">
          {isCancelled(job) ? "Job cancelled" : /reject/i.test(job.error ?? "") ? "Storyboard rejected" : "This run failed"}
        </h2>
        <p className="job-error-message">{job.error ?? "The job failed."}</p>
        {job.refunded ? (
          <p className="job-refund" data-testid="job-refund">
            <strong>
              {formatNumber(refunded)} {refunded === 1 ? "credit" : "credits"} refunded
            </strong>{" "}
            to your balance.
          </p>
        ) : job.creditsUsed > 0 ? (
          <p className="muted">The refund of {formatNumber(job.creditsUsed)} credits is on its way.</p>
        ) : null}
        <div className="job-failed-actions">
          <Link href={`/studio?type=${encodeURIComponent(job.type)}`} className="btn btn-primary btn-small">
            Try again
          </Link>
        </div>
      </div>
    </section>
  );
}

// ---------- Result ----------

function ResultPanel({ job }: { job: Job }) {
  const uid = useId();
  const result = job.result!;
  const assets = useMemo(() => {
    // One tab per format (its first asset; static ads' further variants follow in the result), no documents.
    const perFormat = result.assets.filter(
      (a, i, all) => (a.type === "video" || a.type === "image") && all.findIndex((b) => b.format === a.format) === i,
    );
    const order = sortFormats(perFormat.map((a) => a.format));
    return perFormat.sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
  }, [result.assets]);
  const [active, setActive] = useState(() => assets[0]?.format ?? "");
  const warnings = result.warnings ?? [];

  function onTabKey(event: KeyboardEvent, index: number) {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = assets[(index + delta + assets.length) % assets.length];
    if (!next) return;
    setActive(next.format);
    document.getElementById(`${uid}-tab-${ratioId(next.format)}`)?.focus();
  }

  if (assets.length === 0) {
    return (
      <section className="card">
        <p className="muted">This job finished without any files.</p>
      </section>
    );
  }

  return (
    <section className="card result-panel" aria-labelledby={`${uid}-title`} data-testid="job-result">
      <div className="card-head">
        <h2 id={`${uid}-title`} className="card-title">
          Your ad
        </h2>
        <span className="muted result-count">
          {assets.length} {assets.length === 1 ? "format" : "formats"}
        </span>
      </div>
      {warnings.length > 0 ? (
        <div className="alert alert-warning" role="status" data-testid="job-warnings">
          <div>
            <p className="alert-title">Finished with {warnings.length === 1 ? "a warning" : "warnings"}</p>
            <ul className="warning-list">
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      <div className="format-tabs" role="tablist" aria-label="Formats">
        {assets.map((asset, i) => {
          const selected = asset.format === active;
          return (
            <button
              key={asset.format}
              id={`${uid}-tab-${ratioId(asset.format)}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${uid}-panel-${ratioId(asset.format)}`}
              tabIndex={selected ? 0 : -1}
              className={`format-tab${selected ? " is-selected" : ""}`}
              onClick={() => setActive(asset.format)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`tab-${ratioId(asset.format)}`}
            >
              <span className="format-tab-thumb" style={{ aspectRatio: cssAspect(asset.format) }}>
                {asset.thumbnail ? <img src={mediaSrc(asset.thumbnail)} alt="" loading="lazy" /> : null}
              </span>
              <span className="format-tab-text">
                <span className="format-ratio">{asset.format}</span>
                <span className="format-platforms">{formatLabel(asset.format)}</span>
              </span>
            </button>
          );
        })}
      </div>
      {assets.map((asset) => (
        <div
          key={asset.format}
          id={`${uid}-panel-${ratioId(asset.format)}`}
          role="tabpanel"
          aria-labelledby={`${uid}-tab-${ratioId(asset.format)}`}
          hidden={asset.format !== active}
          className="format-panel"
        >
          <Player asset={asset} />
        </div>
      ))}
      <div className="downloads">
        <h3 className="downloads-title">Downloads</h3>
        <ul className="download-list">
          {assets.map((asset) => (
            <li key={asset.format}>
              <a
                className="btn btn-ghost btn-small"
                href={downloadHref(asset.url)}
                download
                data-testid={`download-${ratioId(asset.format)}`}
              >
                <DownloadIcon />
                {asset.format} {asset.type === "video" ? "MP4" : "image"}
              </a>
              <span className="muted download-meta">
                {asset.width && asset.height ? `${asset.width}×${asset.height}` : null}
                {asset.type === "video" && asset.duration ? ` · ${formatNumber(Math.round(asset.duration * 10) / 10)} s` : null}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Player({ asset }: { asset: Asset }) {
  const src = mediaSrc(asset.url);
  const id = ratioId(asset.format);
  const tall = asset.format === "9:16" || asset.format === "4:5";
  return (
    <div className={`player${tall ? " player-tall" : ""}`}>
      <div
        className="player-box"
        style={{ aspectRatio: asset.width && asset.height ? `${asset.width} / ${asset.height}` : cssAspect(asset.format) }}
      >
        {asset.type === "video" ? (
          // biome-ignore lint/a11y/useMediaCaption: generated ads carry on-screen text and music, no speech to caption
          <video
            controls
            playsInline
            preload="metadata"
            src={src}
            poster={mediaSrc(asset.thumbnail)}
            data-testid={`video-${id}`}
            aria-label={`${asset.format} video`}
          />
        ) : (
          <img src={src} alt={`${asset.format} ad`} data-testid={`image-${id}`} />
        )}
      </div>
    </div>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" className="icon">
      <path
        d="M10 3v9m0 0l-3.5-3.5M10 12l3.5-3.5M4 15.5h12"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
