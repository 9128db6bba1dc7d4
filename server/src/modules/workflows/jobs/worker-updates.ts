// POST /workflow/stream: progress reported by an external worker. Allowed for the job's owner, an
// admin, or the bearer WORKER_TOKEN (CONTRACT). A result may point only at this job's own media or at
// public https URLs: it is what exports, players and downloads follow.
import type { Prisma } from "@adgen/prisma";
import { WorkerUpdate, WorkflowResult } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../../request-context.ts";
import { AppError, Errors, formatIssues, parseInput } from "../../../errors.ts";
import { assertStorableUrl } from "../../net/safe-fetch.ts";
import { admitNext } from "../launch/enqueue.ts";
import { failAndRefund } from "./fail-job.ts";
import { emitJobEvent, videoReadyData } from "./job-events.ts";
import { finishedJobMessage, type JobActor, TERMINAL, toJobView } from "./jobs.ts";

/** `caller` is the signed-in account, if any (an owner or admin may report too); a worker sends the bearer WORKER_TOKEN. */
export async function postWorkerUpdate(
  services: Services,
  caller: JobActor | null,
  input: z.input<typeof WorkerUpdate>,
  options: { workerToken: string | null },
) {
  const isWorker = options.workerToken !== null && options.workerToken === services.config.workerToken;
  if (!isWorker && !caller) throw Errors.unauthenticated();
  const update = parseInput(WorkerUpdate, input);
  const { prisma } = services;
  const job = await prisma.job.findUnique({ where: { id: update.jobId } });
  if (!job || (!isWorker && caller?.id !== job.userId && caller?.role !== "admin")) throw Errors.notFound("Job");
  if (TERMINAL.has(job.status)) throw new AppError("CONFLICT", finishedJobMessage(job.status, "updated"));
  if (update.result) await checkResultUrls(services, job.id, update.result);

  if (update.status === "failed") {
    const failed = await failAndRefund(
      services,
      job.id,
      typeof update.result?.error === "string"
        ? update.result.error
        : `Failed at ${update.step ?? job.currentStep ?? "an unknown step"} (reported by a worker)`,
    );
    if (!failed) {
      // It finished meanwhile: a completed job delivered its files and is never failed or refunded.
      const now = await prisma.job.findUniqueOrThrow({ where: { id: job.id } });
      throw new AppError("CONFLICT", finishedJobMessage(now.status, "updated"));
    }
    // The job's queue slot is free: the account's next waiting job goes now, not at the next sweep.
    await admitNext(services, job.userId);
    return toJobView(await prisma.job.findUniqueOrThrow({ where: { id: job.id } }));
  }
  const progress = update.status === "completed" ? 100 : (update.progress ?? job.progress);
  const result = update.result ? ({ ...((job.result as object | null) ?? {}), ...update.result } as Prisma.InputJsonValue) : undefined;
  // A job completes only with a whole result, and a stored result is whole whatever the status (every
  // reader of a job relies on it: a partial one made the job's own reads fail), checked before it is stored.
  if (update.status === "completed" || result !== undefined) {
    const whole = WorkflowResult.safeParse(result ?? job.result);
    if (!whole.success) {
      const needs = update.status === "completed" ? "a completed job needs a whole result" : "a job's result must be whole";
      throw new AppError("BAD_REQUEST", `result: ${needs} (${formatIssues(whole.error.issues)})`);
    }
  }
  const updated = await prisma.job.update({
    where: { id: job.id },
    data: {
      status: update.status ?? "processing",
      progress,
      currentStep: update.step ?? job.currentStep,
      ...(result !== undefined ? { result } : {}),
      ...(job.startedAt ? {} : { startedAt: new Date() }),
      ...(update.status === "completed" ? { finishedAt: new Date() } : {}),
    },
  });
  if (!job.startedAt)
    await emitJobEvent(services, updated, "workflow.started", { step: updated.currentStep, status: "processing", progress: 0 });
  if (update.status === "completed") {
    const final = (updated.result as { finalVideo?: string; assets?: { duration?: number }[] } | null) ?? {};
    if (final.finalVideo) {
      await emitJobEvent(
        services,
        updated,
        "video.ready",
        videoReadyData({ step: updated.currentStep, videoUrl: final.finalVideo, duration: final.assets?.[0]?.duration ?? null }),
      );
    }
    await emitJobEvent(services, updated, "workflow.completed", {
      step: updated.currentStep,
      status: "completed",
      progress: 100,
      result: updated.result,
      videoUrl: final.finalVideo ?? null,
      duration: final.assets?.[0]?.duration ?? null,
    });
    await admitNext(services, job.userId);
  } else {
    await emitJobEvent(services, updated, "workflow.step", {
      step: updated.currentStep,
      status: "processing",
      progress,
      result: update.result ?? null,
    });
  }
  return toJobView(updated);
}

/** Most assets a result may list (a job has at most four formats). */
const MAX_RESULT_ASSETS = 20;
const OWN_MEDIA_PATH = /^\/api\/media\/([^/?#]+)\/([^/?#]+)$/;

function badField(field: string, reason: string): AppError {
  const message = `${field}: ${reason}`;
  return new AppError("BAD_REQUEST", message, { fields: [{ field, message }] });
}

/**
 * Every URL a worker's result names (`finalVideo`, `thumbnail`, each asset's `url` and `thumbnail`) must be
 * this job's own media (`<PUBLIC_URL>/api/media/<jobId>/<file>` or `/api/media/<jobId>/<file>`) or an
 * https URL that passes the SSRF rules for an address used later (assertStorableUrl); anything else is a
 * 400 naming the field, before anything changes.
 */
async function checkResultUrls(services: Services, jobId: string, result: Record<string, unknown>): Promise<void> {
  const urls: { field: string; value: unknown; required: boolean }[] = [
    { field: "result.finalVideo", value: result.finalVideo, required: false },
    { field: "result.thumbnail", value: result.thumbnail, required: false },
  ];
  if (result.assets !== undefined) {
    if (!Array.isArray(result.assets)) throw badField("result.assets", "must be a list of assets");
    if (result.assets.length > MAX_RESULT_ASSETS) throw badField("result.assets", `must list at most ${MAX_RESULT_ASSETS} assets`);
    for (const [i, asset] of result.assets.entries()) {
      if (!asset || typeof asset !== "object" || Array.isArray(asset)) throw badField(`result.assets.${i}`, "must be an object");
      const { url, thumbnail } = asset as { url?: unknown; thumbnail?: unknown };
      urls.push({ field: `result.assets.${i}.url`, value: url, required: true });
      urls.push({ field: `result.assets.${i}.thumbnail`, value: thumbnail, required: false });
    }
  }
  const own = new URL(services.config.publicUrl);
  for (const { field, value, required } of urls) {
    if (value === undefined || value === null) {
      if (required) throw badField(field, "is required");
      continue;
    }
    if (typeof value !== "string") throw badField(field, "must be a URL");
    await checkResultUrl(services, own, jobId, field, value);
  }
}

async function checkResultUrl(services: Services, own: URL, jobId: string, field: string, value: string): Promise<void> {
  const ownMedia = (path: string) => {
    const match = path.match(OWN_MEDIA_PATH);
    return !!match && match[1] === jobId && /^[A-Za-z0-9._-]+$/.test(match[2]!) && !match[2]!.startsWith(".");
  };
  const notOwn = `must be this job's media (/api/media/${jobId}/<file>) or a public https URL`;
  if (value.startsWith("/")) {
    if (ownMedia(value)) return;
    throw badField(field, notOwn);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badField(field, "must be an absolute https URL or this job's media path");
  }
  // The service's own origin serves only media, and only this job's may be named.
  if (url.origin === own.origin) {
    if (!url.username && !url.password && !url.search && !url.hash && ownMedia(url.pathname)) return;
    throw badField(field, notOwn);
  }
  if (url.protocol !== "https:") throw badField(field, notOwn);
  // Followed later (exports fetch it through safeFetch, which checks it and every hop then): a name that
  // does not resolve right now is accepted; a literal private address or a name resolving inside is not.
  try {
    await assertStorableUrl(url, { protocols: ["https:"], resolver: services.resolver });
  } catch (error) {
    throw badField(field, (error as Error).message);
  }
}
