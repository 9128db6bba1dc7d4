// The rule that makes a removal real: a project whose current moderation decision is `remove` has no
// media. Every path that serves a job's files (the media route, export by URL, the projects ZIP) asks here.
import type { Tx } from "../../request-context.ts";
import { AppError } from "../../errors.ts";

/** The decision in force for a project: the newest one (an appeal's outcome rewrites its action). */
export async function currentDecision(db: Tx, jobId: string) {
  return db.moderationDecision.findFirst({ where: { jobId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

export async function isMediaRemoved(db: Tx, jobId: string): Promise<boolean> {
  return (await currentDecision(db, jobId))?.action === "remove";
}

/** 404 for a removed project's files, saying why, so its owner is not left guessing. */
export async function assertMediaOnline(db: Tx, jobId: string): Promise<void> {
  if (await isMediaRemoved(db, jobId)) {
    throw new AppError(
      "NOT_FOUND",
      "File not found: this project was removed after a moderation decision (see the project page to appeal)",
    );
  }
}

/**
 * What `restrict` does (and `remove`, which goes further): the project may no longer leave the service.
 * Its media stay with its owner and the admins (no media of this service are public), but it is not
 * published: a scheduled post is cancelled, a post that comes due is not made, and a `publish: true`
 * launch built on it is refused (social/social-accounts.ts, social/publish.ts ask here).
 */
export const NOT_PUBLISHABLE =
  "This project is restricted after a moderation decision: it cannot be published to a social platform (see the project page to appeal)";

export async function isPublicationBlocked(db: Tx, jobId: string): Promise<boolean> {
  const action = (await currentDecision(db, jobId))?.action;
  return action === "restrict" || action === "remove";
}

/** 403 (SPEC: "restricted resource") for a project a moderation decision keeps from being published. */
export async function assertPublishable(db: Tx, jobId: string): Promise<void> {
  if (await isPublicationBlocked(db, jobId)) {
    throw new AppError("FORBIDDEN", NOT_PUBLISHABLE, { fields: [{ field: "publish", message: NOT_PUBLISHABLE }] });
  }
}
