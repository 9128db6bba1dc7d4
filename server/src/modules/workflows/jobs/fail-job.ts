// Every failure path ends here: the job becomes `failed` and its credits come back exactly once.
// The conditional update on `refunded_at` and the refund's ledger row share one transaction, so two
// callers racing (a dead-letter worker and a cancel, say) refund once between them.
// A refunded job keeps no media: after the commit its folder is deleted (and media.file answers 404 for
// it whatever lingers); a worker that stores a file after this checks `discardRefundedJobMedia`.
import { isCancelled, refundNote } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { jobMediaPrefix } from "../../../media/storage.ts";
import { changeCredits, LedgerReason } from "../../credits/ledger.ts";
import { balanceEventIn } from "../../credits/balance-updates.ts";
import { appendJobEvent, publishJobEvents } from "./job-events.ts";

export interface FailOptions {
  /** Recorded as the review outcome (reject or expiry). */
  reviewDecision?: "rejected" | "expired";
  reviewFeedback?: string | null;
  /** Fail only a job still in this state (a review decision must not override one made meanwhile). */
  onlyIfStatus?: "awaiting_review";
}

/** Returns true when this call failed and refunded the job; false when it was already finished. */
export async function failAndRefund(services: Services, jobId: string, message: string, options: FailOptions = {}): Promise<boolean> {
  const outcome = await services.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ user_id: string; credits_used: number; progress: number; current_step: string | null }[]>`
      UPDATE jobs SET status = 'failed', error = ${message}, finished_at = now(), refunded_at = now(), updated_at = now()
      WHERE id = ${jobId} AND refunded_at IS NULL AND status <> 'completed'
        AND (${options.onlyIfStatus ?? null}::text IS NULL OR status::text = ${options.onlyIfStatus ?? null}::text)
      RETURNING user_id, credits_used, progress, current_step`;
    const row = rows[0];
    if (!row) return null;
    // A cancel says what it gave back: "Cancelled by the user; 3 credits refunded".
    let stated = message;
    if (isCancelled({ status: "failed", error: message }) && row.credits_used > 0) {
      stated = `${message}${refundNote(row.credits_used)}`;
      await tx.$executeRaw`UPDATE jobs SET error = ${stated} WHERE id = ${jobId}`;
    }
    if (options.reviewDecision) {
      await tx.job.update({
        where: { id: jobId },
        data: { reviewDecision: options.reviewDecision, reviewFeedback: options.reviewFeedback ?? null, reviewedAt: new Date() },
      });
    }
    const refund =
      row.credits_used > 0
        ? await changeCredits(tx, {
            userId: row.user_id,
            delta: row.credits_used,
            reason: LedgerReason.workflowRefund,
            reference: jobId,
            note: stated,
          })
        : null;
    const announceRefund = refund
      ? await balanceEventIn(tx, services, row.user_id, {
          balance: refund.balance,
          delta: row.credits_used,
          reason: LedgerReason.workflowRefund,
        })
      : null;
    const event = await appendJobEvent(tx, { id: jobId, userId: row.user_id }, "workflow.failed", {
      step: row.current_step,
      status: "failed",
      progress: row.progress,
      error: stated,
      result: { refunded: row.credits_used },
    });
    return { userId: row.user_id, refund, credits: row.credits_used, event, stated, announceRefund };
  });
  if (!outcome) return false;
  const cause = options.reviewDecision ?? (isCancelled({ status: "failed", error: message }) ? "cancelled" : "failed");
  // A person's decision (cancel, reject) is routine; a fault or an expired review is worth a look.
  const level = cause === "cancelled" || cause === "rejected" ? "info" : "warn";
  services.logger[level]({ jobId, userId: outcome.userId, cause, reason: outcome.stated }, "job failed");
  if (outcome.refund) {
    services.logger.info(
      { jobId, userId: outcome.userId, credits: outcome.credits, balance: outcome.refund.balance, cause, reason: outcome.stated },
      "credits refunded",
    );
  }
  await removeJobMedia(services, jobId);
  publishJobEvents(services, [{ ...outcome.event, userId: outcome.userId }]);
  outcome.announceRefund?.();
  return true;
}

/** Deletes every stored file of the job (renders, thumbnails, review previews). Never throws. */
async function removeJobMedia(services: Services, jobId: string): Promise<void> {
  try {
    await services.media.remove(jobMediaPrefix(jobId));
  } catch (error) {
    services.logger.error({ jobId, error: (error as Error).message }, "media: could not delete a refunded job's media");
  }
}

/**
 * For a worker that stored files while the job may have been refunded meanwhile (a cancel during a
 * render): deletes the job's media when it is refunded. Call it after the files are stored; the refund's
 * own deletion ran before them or this one sees the refund. Answers whether the job is refunded.
 */
export async function discardRefundedJobMedia(services: Services, jobId: string): Promise<boolean> {
  const job = await services.prisma.job.findUnique({ where: { id: jobId }, select: { refundedAt: true } });
  if (job && !job.refundedAt) return false;
  await removeJobMedia(services, jobId);
  return true;
}
