// A failed or cancelled job: what happened, in words, the refund, and a way to try again with every
// setting of this run (the studio reads the job's stored launch request from `?retry=`).
import { isCancelled } from "@adgen/schema";
import { Link } from "wouter";
import { formatNumber } from "../../lib/format.ts";
import type { Job } from "../results/types.ts";

export function FailedPanel({ job }: { job: Job }) {
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
          <Link
            href={`/studio?type=${encodeURIComponent(job.type)}&retry=${encodeURIComponent(job.jobId)}`}
            className="btn btn-primary btn-small"
            data-testid="try-again"
          >
            Try again
          </Link>
        </div>
      </div>
    </section>
  );
}
