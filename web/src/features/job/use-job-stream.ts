// A running job, live: each event of `workflow.stream` moves the cached job view on (status, step,
// progress) and refreshes what it changes; while the stream is down the view is polled instead. Also
// keeps the steps seen and completed, which the step list and formats are read from.
import { isFinishedStatus, JOB_STATUSES, type JobStatus, STEP } from "@adgen/schema";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { type JobEvent, useJobEvents } from "../../lib/job-events.ts";
import { useTRPC } from "../../trpc.ts";
import type { Job } from "../results/types.ts";

const isJobStatus = (status: string): status is JobStatus => (JOB_STATUSES as readonly string[]).includes(status);

export function useJobStream(jobId: string, job: Job | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobKey = trpc.workflow.job.queryKey({ jobId });
  const [completedSteps, setCompletedSteps] = useState<ReadonlySet<string>>(() => new Set());
  const [seenSteps, setSeenSteps] = useState<readonly string[]>([]);

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

  const streamEnabled = !!job && !isFinishedStatus(job.status);
  const stream = useJobEvents(jobId, streamEnabled, onEvent);

  // While the stream is down, poll so the page does not go stale.
  const polling = streamEnabled && (stream.status === "reconnecting" || stream.status === "error");
  useEffect(() => {
    if (!polling) return;
    const id = window.setInterval(() => void queryClient.invalidateQueries({ queryKey: jobKey }), 5000);
    return () => window.clearInterval(id);
  }, [polling, queryClient, jobKey]);

  return { stream, seenSteps, completedSteps };
}
