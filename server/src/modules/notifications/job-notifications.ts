// A finished or failed job tells its owner's browsers. Called when the job's terminal event is published
// (publishJobEvents); never throws, so a push service being down cannot touch the job. A cancel is the
// user's own act and sends nothing.
import { isCancelled } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { pushToUser } from "./deliver-push.ts";

interface TerminalEvent {
  jobId: string;
  userId: string;
  kind: string;
  data: unknown;
}

export function notifyJobOutcome(services: Services, event: TerminalEvent): void {
  if (event.kind !== "workflow.completed" && event.kind !== "workflow.failed") return;
  const error = (event.data as { error?: string | null } | null)?.error ?? null;
  if (event.kind === "workflow.failed" && isCancelled({ status: "failed", error })) return;
  void (async () => {
    if ((await services.prisma.pushSubscription.count({ where: { userId: event.userId } })) === 0) return;
    const job = await services.prisma.job.findUnique({ where: { id: event.jobId }, select: { name: true } });
    const name = job?.name.trim() || "Your ad";
    const url = `/studio/jobs/${event.jobId}`;
    const message =
      event.kind === "workflow.completed"
        ? { title: `${name} is ready`, body: "It finished rendering: open it to watch and download.", url, tag: `job-${event.jobId}` }
        : { title: `${name} failed`, body: error ?? "The job failed and its credits were refunded.", url, tag: `job-${event.jobId}` };
    await pushToUser(services, event.userId, message);
  })().catch((err: Error) => services.logger.warn({ jobId: event.jobId, error: err.message }, "push: job notification not sent"));
}
