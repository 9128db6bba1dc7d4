// A factory launch is a batch: one render per format. Its status counts the renders.
import type { Services } from "../../../request-context.ts";
import { Errors } from "../../../errors.ts";
import type { JobActor } from "./jobs.ts";

export async function batchStatus(services: Services, actor: JobActor, { batchId }: { batchId: string }) {
  const jobs = await services.prisma.job.findMany({ where: { batchId }, include: { steps: true } });
  if (jobs.length === 0 || jobs.some((j) => j.userId !== actor.id && actor.role !== "admin")) throw Errors.notFound("Batch");
  const items = jobs.flatMap((job) => {
    const formats = ((job.input as { formats?: string[] }).formats ?? []) as string[];
    const done = new Set(job.steps.map((s) => s.name));
    return formats.map((format) => {
      const step = `render:${format}`;
      const status = done.has(step) ? "completed" : job.status === "failed" ? "failed" : job.currentStep === step ? "active" : "pending";
      return {
        id: `${job.id}:${format}`,
        jobId: job.id,
        format,
        status,
        progress: status === "completed" ? 100 : status === "active" ? job.progress : 0,
      };
    });
  });
  const count = (s: string) => items.filter((i) => i.status === s).length;
  return {
    batchId,
    status: jobs.every((j) => j.status === "completed") ? "completed" : jobs.some((j) => j.status === "failed") ? "failed" : "processing",
    total: items.length,
    completed: count("completed"),
    failed: count("failed"),
    pending: count("pending"),
    active: count("active"),
    jobs: items,
  };
}
