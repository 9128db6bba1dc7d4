// The rule that makes a removal real: a project whose current moderation decision is `remove` has no
// media. Every path that serves a job's files (the media route, export by URL, the projects ZIP) asks here.
import type { Tx } from "../../context.ts";
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
