// Publishing a finished `publish: true` ad: when the job completes, its publication is scheduled for the
// account's schedule's next slot (at once without a schedule) on its first connected account, and a
// queue message waits until then; the worker posts the first format's video through the Graph API and
// records the post id, or the reason it failed, in the job's result. A refusal is final; an unreachable
// Graph API is tried again by the queue, and the last try records the failure.
import { type BrandScheduleInput, type Publication, STEP, type WorkflowRequest, type WorkflowResult } from "@adgen/schema";
import type { Job, Prisma } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { QUEUE, type QueueMessage } from "../../queue/queue.ts";
import { GraphError, postPageVideo } from "./meta-graph.ts";
import { nextSlot } from "./next-slot.ts";
import { metaAppSecret } from "./social-accounts.ts";
import { isPublicationBlocked } from "../moderation/media-gate.ts";
import { PUBLICATION_CANCELLED } from "../moderation/publication-hold.ts";

export interface PublishMessage {
  jobId: string;
  accountId: string;
}

/** Tries of one publication (the queue's retry limit + 1). */
export const PUBLISH_TRIES = 3;

/** The scheduled publication of a completing job, or null when it does not publish or cannot. */
export async function planPublication(
  services: Services,
  job: Job,
  request: WorkflowRequest,
  result: WorkflowResult,
): Promise<{ publication: Publication; queue: { message: PublishMessage; startAfter: Date } | null } | null> {
  if (!request.publish) return null;
  const account = await services.prisma.socialAccount.findFirst({ where: { userId: job.userId }, orderBy: { createdAt: "asc" } });
  const now = new Date();
  const base = {
    platform: account?.platform ?? "facebook",
    pageName: account?.pageName ?? "",
    scheduledFor: now.toISOString(),
    postedAt: null,
    postId: null,
  };
  // Checked at launch; disconnected (or publishing switched off) since, the result says so.
  if (!account || !metaAppSecret(services.config)) {
    return { publication: { ...base, status: "failed", reason: "No social account was connected when the ad was finished" }, queue: null };
  }
  if (!result.finalVideo) return { publication: { ...base, status: "failed", reason: "This ad has no video to post" }, queue: null };
  // Restricted (or removed) by a moderation decision while it was being made: it does not leave the service.
  if (await isPublicationBlocked(services.prisma, job.id)) {
    return { publication: { ...base, status: "failed", reason: PUBLICATION_CANCELLED }, queue: null };
  }
  const row = await services.prisma.brandSchedule.findUnique({ where: { userId: job.userId } });
  const schedule = row?.schedule as BrandScheduleInput | undefined;
  const at = (schedule && nextSlot(schedule, now)) || now;
  return {
    publication: { ...base, status: "scheduled", scheduledFor: at.toISOString(), reason: null },
    queue: { message: { jobId: job.id, accountId: account.id }, startAfter: at },
  };
}

async function recordPublication(services: Services, jobId: string, patch: Partial<Publication>): Promise<void> {
  // One statement: the result's publication is replaced whole, so a concurrent reader never sees half of it.
  await services.prisma.$transaction(async (tx) => {
    const job = await tx.job.findUnique({ where: { id: jobId }, select: { result: true } });
    const result = job?.result as unknown as WorkflowResult | null;
    if (!result?.publication) return;
    const publication = { ...result.publication, ...patch };
    await tx.job.update({ where: { id: jobId }, data: { result: { ...result, publication } as unknown as Prisma.InputJsonValue } });
  });
}

export async function runPublication(services: Services, message: QueueMessage<PublishMessage>): Promise<void> {
  const { jobId, accountId } = message.data;
  const log = services.logger.child({ jobId });
  const [job, account] = await Promise.all([
    services.prisma.job.findUnique({ where: { id: jobId } }),
    services.prisma.socialAccount.findUnique({ where: { id: accountId } }),
  ]);
  const result = job?.result as unknown as WorkflowResult | null;
  if (job?.status !== "completed" || !result?.publication || result.publication.status !== "scheduled") return;
  const secret = metaAppSecret(services.config);
  if (!account || !secret) {
    await recordPublication(services, jobId, { status: "failed", reason: "The social account was disconnected before the post was due" });
    return;
  }
  if (!result.finalVideo) return;
  // A moderation decision since it was scheduled (restrict or remove) keeps it from being posted.
  if (await isPublicationBlocked(services.prisma, jobId)) {
    await recordPublication(services, jobId, { status: "failed", reason: PUBLICATION_CANCELLED });
    return;
  }
  const key = new URL(result.finalVideo).pathname.replace(/^\/api\/media\//, "jobs/");
  const storyboard = result.storyboard as { title?: string; scenes?: { cta?: string }[] } | undefined;
  const description = [storyboard?.title, storyboard?.scenes?.at(-1)?.cta].filter(Boolean).join(" · ");
  try {
    const postId = await postPageVideo(
      secret,
      { pageId: account.pageId, accessToken: account.accessToken },
      await services.media.localFile(key),
      description,
    );
    await recordPublication(services, jobId, { status: "posted", postId, postedAt: new Date().toISOString(), reason: null });
    log.info({ step: STEP.done, postId }, "publication posted");
  } catch (error) {
    const graph = error instanceof GraphError ? error : new GraphError((error as Error).message, true);
    log.warn({ error: graph.message, retry: graph.retry, attempt: message.retryCount + 1 }, "publication failed");
    if (graph.retry && message.retryCount + 1 < PUBLISH_TRIES) throw graph;
    await recordPublication(services, jobId, { status: "failed", reason: graph.message });
  }
}

/** Queues a planned publication to run at its time. */
export async function queuePublication(services: Services, planned: { message: PublishMessage; startAfter: Date }): Promise<void> {
  await services.queue.send(QUEUE.publish, planned.message, {
    startAfter: planned.startAfter,
    retryLimit: PUBLISH_TRIES - 1,
    retryDelay: 30,
  });
}
