// The job's header: where it sits, its name, what it is and costs, and what can be done with it.
import { isFinishedStatus } from "@adgen/schema";
import { Link } from "wouter";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { workflowName } from "../../lib/workflow.ts";
import type { Job } from "../results/types.ts";
import { CancelButton } from "./cancel-button.tsx";

export function JobHeader({ jobId, title, data }: { jobId: string; title: string; data: Job }) {
  return (
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
  );
}
