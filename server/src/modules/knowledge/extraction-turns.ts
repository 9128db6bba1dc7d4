// Whose file is extracted next, fairly between accounts and across instances on one database. A queue
// message only wakes a lane (extraction-job.ts); the lane then claims the item whose account has waited
// longest since its latest extraction started (round robin), skipping accounts that already have an
// item claimed. So one account's nine slow files hold another account's file for one item's time at
// most, however many lanes run. Claims are taken one at a time under an advisory lock: two lanes cannot
// both pass the "none of this account's items is claimed" check. A claim older than the lease belongs to
// a lane that died, and is taken over (the start is counted, so a file that kills its lane twice ends
// `error` instead of taking lanes down for ever).
import type { KnowledgeItem as KnowledgeRow } from "@adgen/prisma";
import type { Services, Tx } from "../../request-context.ts";
import { extractionSandbox } from "./extraction-sandbox.ts";

/** Namespace of the claim lock (a two-key advisory lock, the second key 0). */
const CLAIM_LOCK = 4_277_017;
/** Extractions started for one item before it is given up. */
export const MAX_ATTEMPTS = 2;
export const STOPPED_TWICE = "Extraction stopped twice before it finished; split the file or upload its text instead";

/**
 * Seconds after which a claim is presumed a dead lane's: the child's time limit twice (a web page is
 * fetched first, a stored file may come from S3) and a minute more.
 */
export const claimLeaseSeconds = () => Math.ceil((2 * extractionSandbox.timeoutMs) / 1000) + 60;

type Prisma = Services["prisma"];

/** The next item to extract, claimed for this lane (its start counted), or null when none may start now. */
export async function claimNextExtraction(prisma: Prisma): Promise<KnowledgeRow | null> {
  const lease = claimLeaseSeconds();
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}::int, 0)`;
    for (;;) {
      const [next] = await tx.$queryRaw<{ id: string; extraction_attempts: number }[]>`
        SELECT k.id, k.extraction_attempts FROM knowledge_items k
        WHERE k.status = 'extracting'
          AND (k.extraction_claimed_at IS NULL OR k.extraction_claimed_at < now() - ${lease}::int * interval '1 second')
          AND NOT EXISTS (
            SELECT 1 FROM knowledge_items r
            WHERE r.user_id = k.user_id AND r.status = 'extracting' AND r.id <> k.id
              AND r.extraction_claimed_at >= now() - ${lease}::int * interval '1 second')
        ORDER BY (SELECT max(s.extraction_started_at) FROM knowledge_items s WHERE s.user_id = k.user_id) ASC NULLS FIRST,
          k.created_at, k.id
        LIMIT 1`;
      if (!next) return null;
      if (next.extraction_attempts >= MAX_ATTEMPTS) {
        await tx.knowledgeItem.update({
          where: { id: next.id },
          data: { status: "error", error: STOPPED_TWICE, extractionClaimedAt: null },
        });
        continue;
      }
      const now = new Date();
      return tx.knowledgeItem.update({
        where: { id: next.id },
        data: { extractionClaimedAt: now, extractionStartedAt: now, extractionAttempts: { increment: 1 } },
      });
    }
  });
}

/**
 * Gives a claim back: another lane may take the item. `uncounted` when the document was never read (its
 * stored file could not be fetched), so the start does not count against it.
 */
export async function releaseClaim(prisma: Prisma, id: string, { uncounted }: { uncounted: boolean }): Promise<void> {
  await prisma.knowledgeItem.updateMany({
    where: { id, status: "extracting", extractionClaimedAt: { not: null } },
    data: { extractionClaimedAt: null, ...(uncounted ? { extractionAttempts: { decrement: 1 } } : {}) },
  });
}

interface AccountTurn {
  user_id: string;
  waiting: number;
  claimed: number;
  last_started: Date | null;
  first_waiting: Date | null;
}

/** Does account `a` come before `b` in the round (as claimNextExtraction orders them)? */
function before(a: AccountTurn, b: AccountTurn): boolean {
  if ((a.last_started === null) !== (b.last_started === null)) return a.last_started === null;
  if (a.last_started && b.last_started && a.last_started.getTime() !== b.last_started.getTime()) {
    return a.last_started < b.last_started;
  }
  return (a.first_waiting?.getTime() ?? 0) < (b.first_waiting?.getTime() ?? 0);
}

/**
 * For each of one account's items that waits for its extraction: how many files, of any account, will
 * be read before it starts. The files being read now, then the round robin: the item that is this
 * account's p-th in line waits p rounds, and in each round every other account with files waiting
 * has one turn (one more, before it, when that account comes first in the round).
 */
export async function filesAhead(db: Tx, userId: string): Promise<Map<string, number>> {
  const lease = claimLeaseSeconds();
  const waitingSql = `status = 'extracting' AND (extraction_claimed_at IS NULL OR extraction_claimed_at < now() - ${lease} * interval '1 second')`;
  const mine = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM knowledge_items WHERE user_id = $1 AND ${waitingSql} ORDER BY created_at, id`,
    userId,
  );
  if (mine.length === 0) return new Map();
  const accounts = await db.$queryRawUnsafe<AccountTurn[]>(
    `SELECT user_id,
       (count(*) FILTER (WHERE ${waitingSql}))::int AS waiting,
       (count(*) FILTER (WHERE status = 'extracting' AND NOT (${waitingSql})))::int AS claimed,
       max(extraction_started_at) AS last_started,
       min(created_at) FILTER (WHERE ${waitingSql}) AS first_waiting
     FROM knowledge_items
     WHERE user_id IN (SELECT user_id FROM knowledge_items WHERE status = 'extracting')
     GROUP BY user_id`,
  );
  const own = accounts.find((a) => a.user_id === userId);
  const others = accounts.filter((a) => a.user_id !== userId && a.waiting > 0);
  const reading = accounts.reduce((sum, a) => sum + a.claimed, 0);
  const ahead = new Map<string, number>();
  mine.forEach(({ id }, place) => {
    const turns = others.reduce((sum, other) => sum + Math.min(other.waiting, place + (own && before(other, own) ? 1 : 0)), 0);
    ahead.set(id, reading + place + turns);
  });
  return ahead;
}
