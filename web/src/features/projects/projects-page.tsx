// Every launch is a project (id = job id). A gallery with a search, a status filter, names renamed in
// place, ratings, "make another like this", delete, links to each job and the two account exports; it
// refreshes itself while jobs change (events.stream).
import { isCancelled, PROJECT_STATUSES } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { ProjectActions } from "./project-actions.tsx";
import { ProjectNameEditor } from "./project-name.tsx";
import { ProjectSearch } from "./project-search.tsx";
import "./projects.css";
import type { Project } from "./types.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { cssAspect, mediaSrc, sortFormats, workflowName } from "../../lib/workflow.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { PageHeader } from "../../ui/page-header.tsx";

type StatusFilter = "all" | Project["status"];

// "pending" is the API's project status for a job that is queued: the filter says what the job page says.
const STATUS_LABELS: Record<Project["status"], string> = {
  pending: "Queued",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
};

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  ...PROJECT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] })),
];

function filterFrom(params: URLSearchParams): StatusFilter {
  const value = params.get("status");
  return FILTERS.some((f) => f.value === value) ? (value as StatusFilter) : "all";
}

export function ProjectsPage(_props: PageProps) {
  useTitle("Projects");
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const filter = filterFrom(params);
  const q = params.get("q")?.trim() ?? "";
  const projects = useQuery({ ...trpc.projects.list.queryOptions(q ? { q } : {}), placeholderData: (previous) => previous });

  useRefreshOnJobEvents();

  const setSearch = useCallback(
    (text: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (text.trim()) next.set("q", text.trim());
          else next.delete("q");
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  function setFilter(value: StatusFilter) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === "all") next.delete("status");
        else next.set("status", value);
        return next;
      },
      { replace: true },
    );
  }

  const all = projects.data ?? [];
  const shown = filter === "all" ? all : all.filter((p) => p.status === filter);
  const counts = Object.fromEntries(
    FILTERS.map((f) => [f.value, f.value === "all" ? all.length : all.filter((p) => p.status === f.value).length]),
  );

  return (
    <div className="page" data-testid="projects">
      <PageHeader title="Projects" subtitle="Every ad you have launched, newest first.">
        <div className="page-header-actions">
          <a className="btn btn-ghost btn-small" href="/api/user/projects/export" download data-testid="export-csv">
            Export CSV
          </a>
          <a className="btn btn-ghost btn-small" href="/api/user/projects/export?format=zip" download data-testid="export-zip">
            Export ZIP
          </a>
          <Link href="/studio" className="btn btn-primary btn-small">
            New ad
          </Link>
        </div>
      </PageHeader>

      {projects.isError ? <InlineError error={projects.error} onRetry={() => void projects.refetch()} /> : null}

      {all.length > 0 || q ? <ProjectSearch value={q} onChange={setSearch} /> : null}

      {all.length > 0 ? <StatusFilterBar filter={filter} counts={counts} setFilter={setFilter} /> : null}
      {projects.isPending ? (
        <div className="project-grid" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="project-card">
              <Skeleton width="100%" height="10rem" />
              <div className="project-body">
                <Skeleton width="60%" />
                <Skeleton width="40%" />
              </div>
            </div>
          ))}
        </div>
      ) : projects.data && all.length === 0 && q ? (
        <section className="card empty-state empty-state-small" data-testid="projects-empty-search">
          <p className="muted">No project has “{q}” in its name or concept.</p>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setSearch("")}>
            Clear the search
          </button>
        </section>
      ) : projects.data && all.length === 0 ? (
        <NoProjectsYet />
      ) : shown.length === 0 && projects.data ? (
        <section className="card empty-state empty-state-small" data-testid="projects-empty-filter">
          <p className="muted">No {STATUS_LABELS[filter as Project["status"]]?.toLowerCase()} projects.</p>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setFilter("all")}>
            Show all
          </button>
        </section>
      ) : (
        <ul className="project-grid">
          {shown.map((project) => (
            <ProjectCard key={project.id} project={project} />
          ))}
        </ul>
      )}
    </div>
  );
}

function inputOf(project: Project): { formats: string[]; concept?: string; url?: string; hook?: string } {
  try {
    const input = JSON.parse(project.input_data) as { formats?: unknown; concept?: unknown; url?: unknown; brief?: { hook?: unknown } };
    return {
      ...(typeof input.brief?.hook === "string" && input.brief.hook ? { hook: input.brief.hook } : {}),
      formats: Array.isArray(input.formats) ? sortFormats(input.formats.filter((f): f is string => typeof f === "string")) : [],
      ...(typeof input.concept === "string" && input.concept ? { concept: input.concept } : {}),
      ...(typeof input.url === "string" ? { url: input.url } : {}),
    };
  } catch {
    return { formats: [] };
  }
}

/** A failed project's error, from its output_data (`{"error": …}` when it has no result). */
function projectError(project: Project): string | null {
  if (project.status !== "failed") return null;
  try {
    const output = JSON.parse(project.output_data) as { error?: unknown } | null;
    return typeof output?.error === "string" ? output.error : null;
  } catch {
    return null;
  }
}

function ProjectCard({ project }: { project: Project }) {
  const cancelled = isCancelled({ status: project.job_status, error: projectError(project) });
  const href = `/studio/jobs/${encodeURIComponent(project.id)}`;
  const input = inputOf(project);
  const first = input.formats[0] ?? "9:16";
  const thumb = mediaSrc(project.thumbnail);
  const summary = input.concept ?? input.url;
  return (
    <li className="project-card" data-testid="project-card" data-project-id={project.id} data-status={project.status}>
      <Link href={href} className="project-thumb" aria-label={`Open ${project.name}`} tabIndex={-1}>
        {thumb ? (
          <img src={thumb} alt="" loading="lazy" />
        ) : (
          <span className={`project-placeholder placeholder-${project.status}`}>
            <span className="project-placeholder-frame" style={{ aspectRatio: cssAspect(first) }} />
          </span>
        )}
        {/* Frames of one template look alike: the headline and the type tell the projects apart at a glance. */}
        <span className="project-thumb-caption">
          <span className="project-thumb-type" data-testid="project-thumb-type">
            {workflowName(project.type)}
          </span>
          <span className="project-thumb-headline" data-testid="project-thumb-headline">
            {input.hook ?? project.name}
          </span>
        </span>
        <span
          className={`badge status-badge ${cancelled ? "status-cancelled" : `status-${project.status}`} project-status`}
          data-testid="project-status"
          data-status={project.status}
          data-cancelled={cancelled ? "true" : undefined}
        >
          {cancelled ? "Cancelled" : STATUS_LABELS[project.status]}
        </span>
      </Link>
      <div className="project-body">
        <ProjectNameEditor key={project.name} project={project} href={href} />
        <div className="project-title-row">
          <span className="project-kind muted">{workflowName(project.type)}</span>
          <span className="project-credits">
            {formatNumber(project.credits_used)} {project.credits_used === 1 ? "credit" : "credits"}
          </span>
        </div>
        {summary ? (
          <p className="project-summary muted" title={summary}>
            {summary}
          </p>
        ) : null}
        <p className="project-meta muted">
          <time dateTime={project.created_at}>{formatDateTime(project.created_at)}</time>
          {input.formats.length > 0 ? ` · ${input.formats.join(" ")}` : null}
        </p>
        {project.job_status === "awaiting_review" ? (
          <Link href={href} className="project-review-link">
            Waiting for your review →
          </Link>
        ) : null}
        <Rating project={project} />
        <ProjectActions project={project} />
      </div>
    </li>
  );
}

function Rating({ project }: { project: Project }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [askFeedback, setAskFeedback] = useState(false);
  const [feedback, setFeedback] = useState("");
  const [thanked, setThanked] = useState(false);
  const rate = useMutation(
    trpc.workflow.rate.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.projects.list.queryKey(), (old: Project[] | undefined) =>
          old?.map((p) => (p.id === project.id ? { ...p, rating: data.rating as Project["rating"] } : p)),
        );
      },
    }),
  );
  // Optimistic: the pressed thumb follows the click at once.
  const rating = rate.isPending ? rate.variables.rating : project.rating;

  function choose(value: "up" | "down") {
    setThanked(false);
    rate.mutate({ projectId: project.id, rating: value }, { onSuccess: () => setAskFeedback(true) });
  }

  function sendFeedback(event: FormEvent) {
    event.preventDefault();
    const text = feedback.trim();
    if (!text || !rating) return;
    rate.mutate(
      { projectId: project.id, rating, feedback: text },
      {
        onSuccess: () => {
          setAskFeedback(false);
          setFeedback("");
          setThanked(true);
        },
      },
    );
  }

  return (
    <div className="rating">
      <div className="rating-row">
        <span className="rating-label muted">{thanked ? "Thanks for the feedback" : "Rate this ad"}</span>
        <div className="rating-buttons">
          {(
            [
              { value: "up", label: "Good result", className: "thumb" },
              { value: "down", label: "Poor result", className: "thumb thumb-down" },
            ] as const
          ).map((thumb) => (
            <button
              key={thumb.value}
              type="button"
              className={`${thumb.className}${rating === thumb.value ? " is-pressed" : ""}`}
              aria-pressed={rating === thumb.value}
              aria-label={thumb.label}
              title={thumb.label}
              onClick={() => choose(thumb.value)}
              disabled={rate.isPending}
              data-testid={`rate-${thumb.value}`}
            >
              <ThumbIcon />
            </button>
          ))}
        </div>
      </div>
      {askFeedback ? (
        <form className="rating-feedback" onSubmit={sendFeedback}>
          <label htmlFor={`${uid}-feedback`} className="visually-hidden">
            Feedback (optional)
          </label>
          <input
            id={`${uid}-feedback`}
            className="input input-small"
            maxLength={500}
            placeholder={rating === "down" ? "What went wrong? (optional)" : "What worked? (optional)"}
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            data-testid="rating-feedback"
          />
          <button
            type="submit"
            className="btn btn-ghost btn-small"
            disabled={!feedback.trim() || rate.isPending}
            data-testid="send-feedback"
          >
            Send
          </button>
          <button type="button" className="btn btn-link btn-small" onClick={() => setAskFeedback(false)}>
            Skip
          </button>
        </form>
      ) : null}
      {rate.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(rate.error)}
        </p>
      ) : null}
    </div>
  );
}

function ThumbIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <path
        d="M6.5 9v7.5h-3V9zM6.5 9l3-6c1.4 0 2.2 1 2 2.3L11 8h4.3a1.7 1.7 0 0 1 1.7 2l-1 5a1.9 1.9 0 0 1-1.9 1.5H6.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Any job event of this account may change a card: refresh the list, at most every 1.5 s. */
function useRefreshOnJobEvents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pending = useRef<number | undefined>(undefined);
  useSubscription(
    trpc.events.stream.subscriptionOptions(undefined, {
      onData: () => {
        if (pending.current !== undefined) return;
        pending.current = window.setTimeout(() => {
          pending.current = undefined;
          void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        }, 1500);
      },
    }),
  );
  useEffect(() => () => window.clearTimeout(pending.current), []);
}

/** The status filter, each status with how many projects it holds. */
function StatusFilterBar({
  filter,
  counts,
  setFilter,
}: {
  filter: StatusFilter;
  counts: Record<string, number>;
  setFilter: (value: StatusFilter) => void;
}) {
  return (
    <fieldset className="segmented project-filter" aria-label="Filter by status">
      {FILTERS.map((f) => (
        <label key={f.value} className={`segmented-option${filter === f.value ? " is-selected" : ""}`} data-testid={`filter-${f.value}`}>
          <input type="radio" name="project-status" value={f.value} checked={filter === f.value} onChange={() => setFilter(f.value)} />
          {f.label}
          <span className="segmented-count">{counts[f.value]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** The empty list of a new account: the way to the studio. */
function NoProjectsYet() {
  return (
    <section className="card empty-state" data-testid="projects-empty">
      <div className="empty-art" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2 className="card-title">No projects yet</h2>
      <p className="muted">Launch your first ad in the studio; it appears here with its videos and downloads.</p>
      <Link href="/studio" className="btn btn-primary">
        Open the studio
      </Link>
    </section>
  );
}
