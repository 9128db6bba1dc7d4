// How far the job is: the live connection, its status, the bar and a line on what it is doing now.
import { isCancelled, isFinishedStatus } from "@adgen/schema";
import { jobStatusLabel, type StepView, statusClass } from "../../lib/workflow.ts";
import type { Job } from "../results/types.ts";
import { StreamBadge } from "./stream-badge.tsx";
import { Card } from "../../ui/card.tsx";

interface ProgressCardProps {
  data: Job;
  steps: StepView[];
  streamStatus: Parameters<typeof StreamBadge>[0]["status"];
}

export function ProgressCard({ data, steps, streamStatus }: ProgressCardProps) {
  const progress = data.status === "completed" ? 100 : data.progress;
  return (
    <Card
      title="Progress"
      titleId="job-progress-title"
      className="job-progress-card"
      aside={
        <div className="job-head-badges">
          <StreamBadge status={streamStatus} finished={isFinishedStatus(data.status)} />
          <span
            className={`badge status-badge ${statusClass(data)}`}
            data-testid="job-status"
            data-status={data.status}
            data-cancelled={isCancelled(data) ? "true" : undefined}
          >
            {jobStatusLabel(data)}
          </span>
        </div>
      }
    >
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
    </Card>
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
