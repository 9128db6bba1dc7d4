// The credit ledger. A balance changes only here: one conditional UPDATE of the cached balance plus one
// ledger row, inside the caller's transaction. The condition (`balance + delta >= 0`) is checked by the
// database under the row lock, so concurrent debits can never overdraw.
import type { Tx } from "../../request-context.ts";
import { AppError } from "../../errors.ts";

export const LedgerReason = {
  signupGrant: "signup_grant",
  adminAdjustment: "admin_adjustment",
  workflowCharge: "workflow_charge",
  workflowRefund: "workflow_refund",
  purchase: "purchase",
  /** A plan's monthly allowance, granted when the plan is paid for. */
  planAllowance: "plan_allowance",
  /** Credits of a refunded or charged-back purchase taken back (never below zero). */
  purchaseReversal: "purchase_reversal",
} as const;
export type LedgerReason = (typeof LedgerReason)[keyof typeof LedgerReason];

export interface CreditChange {
  userId: string;
  delta: number;
  reason: LedgerReason;
  reference?: string | null;
  actorId?: string | null;
  note?: string | null;
}

export class InsufficientCreditsError extends AppError {
  constructor(
    readonly required: number,
    readonly available: number,
  ) {
    super("PAYMENT_REQUIRED", `Insufficient credits. Required: ${required}, available: ${available}`);
  }
}

export async function changeCredits(tx: Tx, change: CreditChange): Promise<{ balance: number; entryId: string }> {
  if (!Number.isInteger(change.delta) || change.delta === 0) throw new AppError("BAD_REQUEST", "amount must be a non-zero integer");
  const rows = await tx.$queryRaw<{ credits_balance: number }[]>`
    UPDATE users SET credits_balance = credits_balance + ${change.delta}, updated_at = now()
    WHERE id = ${change.userId} AND credits_balance + ${change.delta} >= 0
    RETURNING credits_balance`;
  const balance = rows[0]?.credits_balance;
  if (balance === undefined) {
    const user = await tx.user.findUnique({ where: { id: change.userId }, select: { creditsBalance: true } });
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    throw new InsufficientCreditsError(-change.delta, user.creditsBalance);
  }
  const entry = await tx.creditLedgerEntry.create({
    data: {
      userId: change.userId,
      delta: change.delta,
      balanceAfter: balance,
      reason: change.reason,
      reference: change.reference ?? null,
      actorId: change.actorId ?? null,
      note: change.note ?? null,
    },
    select: { id: true },
  });
  return { balance: Number(balance), entryId: entry.id };
}

/** The balance recomputed from the ledger alone (what the cached column must always equal). */
export async function ledgerBalance(tx: Tx, userId: string): Promise<number> {
  const result = await tx.creditLedgerEntry.aggregate({ where: { userId }, _sum: { delta: true } });
  return result._sum.delta ?? 0;
}
