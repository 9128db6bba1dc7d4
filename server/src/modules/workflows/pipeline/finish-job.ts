// The end of a job's run: its result from the finished steps, stored with the job completed (unless it was
// failed elsewhere meanwhile), its publication queued, the account's next job admitted, and the events that
// say each video is ready and the job completed.
import type { Prisma } from "@adgen/prisma";
import { renderStepFormat, STEP } from "@adgen/schema";
import { admitNext } from "../launch/enqueue.ts";
import { emitJobEvent, videoReadyData } from "../jobs/job-events.ts";
import { discardRefundedJobMedia } from "../jobs/fail-job.ts";
import { planPublication, queuePublication } from "../../social/publish.ts";
import { type JobRun, since } from "./job-run.ts";
import type { PipelineStep, RenderedFormat } from "./step-types.ts";
import { buildResult } from "./build-result.ts";

export async function finishJob(run: JobRun, steps: PipelineStep[], outputs: Map<string, unknown>): Promise<void> {
  const { services, jobId, owner, job, request, log } = run;
  const result = buildResult(services, request, outputs);
  // `publish: true`: the post is scheduled now and recorded in the result; it goes out at its time.
  const publication = await planPublication(services, job, request, result);
  if (publication) result.publication = publication.publication;
  const done = await services.prisma.job.updateMany({
    where: { id: jobId, status: "processing", leaseOwner: owner },
    data: {
      leaseOwner: null,
      status: "completed",
      progress: 100,
      currentStep: STEP.done,
      result: result as unknown as Prisma.InputJsonValue,
      finishedAt: new Date(),
      error: null,
    },
  });
  // Failed elsewhere meanwhile (cancel): a refunded job keeps none of the files this run stored.
  if (done.count === 0) {
    log.info({ durationMs: since(run.startedAt) }, "job finished after it was stopped; its files were discarded");
    await discardRefundedJobMedia(services, jobId);
    return;
  }
  log.info({ durationMs: since(run.startedAt), assets: result.assets.length }, "job completed");
  if (publication?.queue) await queuePublication(services, publication.queue);
  await admitNext(services, job.userId);
  // A video is ready for download only now: nothing of a job is served before it completes.
  for (const step of steps) {
    const rendered = renderStepFormat(step.name) !== null ? (outputs.get(step.name) as RenderedFormat) : null;
    if (rendered?.kind !== "video") continue;
    const url = `${services.config.publicUrl}/api/media/${rendered.key.replace(/^jobs\//, "")}`;
    await emitJobEvent(
      services,
      job,
      "video.ready",
      videoReadyData({ step: step.name, videoUrl: url, duration: rendered.durationSec, result: { format: rendered.format, url } }),
    );
  }
  const first = result.assets[0];
  await emitJobEvent(services, job, "workflow.completed", {
    step: STEP.done,
    status: "completed",
    progress: 100,
    result,
    videoUrl: result.finalVideo,
    duration: first?.duration ?? null,
  });
}
