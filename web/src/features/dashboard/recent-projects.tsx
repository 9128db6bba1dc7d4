// The dashboard's latest projects: thumbnail, title, status and when, each opening its job.
import { isCancelled } from "@adgen/schema";
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { formatDateTime } from "../../lib/format.ts";
import { mediaSrc } from "../../lib/workflow.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { jobTitle } from "../job/job-title.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { Card } from "../../ui/card.tsx";

type Project = RouterOutputs["projects"]["list"][number];

const SHOWN = 4;

const STATUS_LABELS: Record<Project["status"], string> = {
  pending: "Queued",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
};

function parsed(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function statusOf(project: Project): { label: string; className: string } {
  const error = parsed(project.output_data).error;
  if (isCancelled({ status: project.job_status, error: typeof error === "string" ? error : null })) {
    return { label: "Cancelled", className: "status-cancelled" };
  }
  if (project.job_status === "awaiting_review") return { label: "Awaiting review", className: "status-awaiting_review" };
  return { label: STATUS_LABELS[project.status], className: `status-${project.status}` };
}

export function RecentProjects() {
  const trpc = useTRPC();
  const projects = useQuery(trpc.projects.list.queryOptions());
  const latest = projects.data?.slice(0, SHOWN) ?? [];
  return (
    <Card title="Latest projects" titleId="recent-title" testId="recent-projects" link={{ href: "/projects", label: "All projects" }}>
      {projects.isError ? <InlineError error={projects.error} onRetry={() => void projects.refetch()} /> : null}
      {projects.isPending ? (
        <Skeleton width="100%" height="6rem" />
      ) : latest.length === 0 && !projects.isError ? (
        <p className="muted">
          No projects yet. <Link href="/studio">Make your first ad in the Studio</Link>.
        </p>
      ) : (
        <ul className="recent-list">
          {latest.map((project) => {
            const status = statusOf(project);
            const thumb = mediaSrc(project.thumbnail);
            const title = jobTitle({
              type: project.type,
              input: parsed(project.input_data),
              name: project.name,
            });
            return (
              <li key={project.id} className="recent-item" data-testid="recent-project" data-status={project.job_status}>
                <Link href={`/studio/jobs/${encodeURIComponent(project.id)}`} className="recent-link">
                  <span className="recent-thumb" aria-hidden="true">
                    {thumb ? <img src={thumb} alt="" loading="lazy" /> : null}
                  </span>
                  <span className="recent-text">
                    <span className="recent-title">{title}</span>
                    <span className="recent-meta muted">
                      <time dateTime={project.created_at}>{formatDateTime(project.created_at)}</time>
                    </span>
                  </span>
                  <span className={`badge status-badge ${status.className}`} data-testid="recent-project-status">
                    {status.label}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
