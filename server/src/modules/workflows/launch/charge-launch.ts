// A launch's write in one statement: the charge (a conditional UPDATE of the cached balance, checked by
// the database under the row lock, so concurrent launches never overdraw), its ledger row and the job.
// One statement is one transaction: all three happen or none does, in one round trip, as a named
// prepared statement outside a transaction. Prisma's interactive transaction took five round trips and
// its query compiler cost more than the queries themselves. When events travel through the database the
// balance event is published by the same statement (sent at its commit), saving the launch another trip.
import type { Tx } from "../../../request-context.ts";
import type { Sql } from "../../../db/database.ts";
import { AppError } from "../../../errors.ts";
import type { EventBus } from "../../../bus/bus.ts";
import { InsufficientCreditsError, LedgerReason } from "../../credits/ledger.ts";
import { BALANCE_EVENT } from "../../credits/balance-updates.ts";

/** `$12`, when the statement publishes the balance event: the event's kind. */
const chargeSql = (publish: EventBus["publishInSql"]) => `WITH charged AS (
    UPDATE users SET credits_balance = credits_balance - $2::int, updated_at = now()
    WHERE id = $1 AND credits_balance - $2::int >= 0
    RETURNING credits_balance),
  entry AS (
    INSERT INTO credit_ledger (id, user_id, delta, balance_after, reason, reference)
    SELECT $3, $1, -$2::int, credits_balance, '${LedgerReason.workflowCharge}', $4 FROM charged
    RETURNING id),
  job AS (
    INSERT INTO jobs (id, user_id, type, name, quality, input, credits_used, charge_entry_id, hitl, batch_id, callback_url, updated_at)
    SELECT $4, $1, $5, $6, $7, $8::jsonb, $2::int, entry.id, $9::boolean, $10, $11, now() FROM entry
    RETURNING id)${
      publish
        ? `,
  published AS (
    SELECT ${publish({
      kind: "$12::text",
      userId: "$1::text",
      data: `json_build_object('balance', credits_balance, 'delta', -$2::int, 'reason', '${LedgerReason.workflowCharge}')`,
    })} FROM charged)`
        : ""
    }
  SELECT (SELECT credits_balance FROM charged) AS balance,
    (SELECT id FROM job) AS job_id,
    (SELECT credits_balance FROM users WHERE id = $1) AS available${publish ? ",\n    (SELECT count(*)::int FROM published) AS published" : ""}`;

export interface NewJob {
  id: string;
  userId: string;
  type: string;
  name: string;
  quality: string;
  input: unknown;
  cost: number;
  hitl: boolean;
  batchId: string | null;
  callbackUrl: string | null;
}

interface Charged {
  balance: number | null;
  job_id: string | null;
  /** The balance in this statement's snapshot; null when the account does not exist. */
  available: number | null;
}

const PLAIN = chargeSql(undefined);
/**
 * The statement that also publishes the event, made on first use. Every bus that can publish in SQL makes
 * the same text (the PostgreSQL bus's NOTIFY), as the one prepared statement name for it requires.
 */
let withEvent: string | undefined;

const params = (job: NewJob, entryId: string) => [
  job.userId,
  job.cost,
  entryId,
  job.id,
  job.type,
  job.name,
  job.quality,
  JSON.stringify(job.input),
  job.hitl,
  job.batchId,
  job.callbackUrl,
];

const BALANCE_NOW = "SELECT credits_balance AS available FROM users WHERE id = $1";

type Db = { sql: Sql } | { tx: Tx };

function run<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  return "sql" in db ? db.sql.prepared<T>(name, text, values) : db.tx.$queryRawUnsafe<T[]>(text, ...values);
}

/**
 * Charges the account and creates the job, atomically; 402 when the balance is short, and then nothing is
 * written. `published` says whether the statement also published the balance event (else the caller does).
 */
export async function chargeAndCreateJob(db: Db, events: EventBus, job: NewJob, entryId: string) {
  const publish = events.publishInSql;
  let text = PLAIN;
  if (publish) {
    withEvent ??= chargeSql(publish);
    text = withEvent;
  }
  const name = publish ? "launch_charge_and_create_job_with_event" : "launch_charge_and_create_job";
  const values = publish ? [...params(job, entryId), BALANCE_EVENT] : params(job, entryId);
  for (let attempt = 1; ; attempt++) {
    const [row] = await run<Charged>(db, name, text, values);
    if (row?.available === null || row?.available === undefined) throw new AppError("NOT_FOUND", "User not found");
    if (row.balance !== null && row.job_id !== null) return { balance: Number(row.balance), entryId, published: publish !== undefined };
    // Refused. On PostgreSQL the statement's snapshot can predate a charge it waited behind: READ
    // COMMITTED re-checks the UPDATE's row after the wait, but the SELECT still sees the old balance.
    // So the refusal reports the balance read afresh, and a credit that arrived meanwhile is used.
    const [now] = await run<{ available: number }>(db, "launch_balance_now", BALANCE_NOW, [job.userId]);
    const available = Number(now?.available ?? 0);
    if (available < job.cost || attempt === 3) throw new InsufficientCreditsError(job.cost, available);
  }
}
