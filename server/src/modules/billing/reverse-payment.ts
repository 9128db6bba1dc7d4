// A refund or chargeback, inside the event's transaction: the order's credits are taken back through the
// ledger, never below zero. What was already spent cannot be taken back: the account is flagged for an
// admin (account_flags, and the audit log). A fully refunded plan payment that pays for the current period
// (the first one, or the latest renewal) ends the plan: the account returns to the free plan.
import type { Order as OrderRow } from "@adgen/prisma";
import type { Tx } from "../../request-context.ts";
import { changeCredits, LedgerReason } from "../credits/ledger.ts";
import { orderOfReversal } from "./payment-references.ts";
import type { EventEffect, ReversedPayment } from "./types.ts";

/**
 * Whether a plan order pays for the account's current period: no later payment of a plan (a renewal)
 * stands after it. Refunding an older period's payment takes its credits back but leaves the plan.
 */
async function paysCurrentPeriod(tx: Tx, order: OrderRow): Promise<boolean> {
  const later = await tx.order.count({
    where: { userId: order.userId, kind: "plan", status: "paid", id: { not: order.id }, paidAt: { gt: order.paidAt ?? new Date(0) } },
  });
  return later === 0;
}

export async function reversePayment(tx: Tx, event: ReversedPayment): Promise<EventEffect> {
  const order = await orderOfReversal(tx, event);
  if (!order) return { outcome: "ignored", note: `no paid order matches payment ${event.paymentId ?? event.orderId ?? "?"}` };
  if (order.status !== "paid" && order.status !== "refunded") {
    return { outcome: "ignored", note: `order ${order.id} is ${order.status}`, orderId: order.id, userId: order.userId };
  }
  // Credits this reversal settles: the refunded share of the order's credits, less what earlier ones settled.
  const owed = Math.min(order.credits, Math.round(order.credits * event.share)) - order.creditsReversed;
  if (owed <= 0 && order.status === "refunded") {
    return { outcome: "ignored", note: `order ${order.id} is already refunded`, orderId: order.id, userId: order.userId };
  }
  // Locks the account's row: the balance read here is the one the debit below applies to.
  const [user] = await tx.$queryRaw<{ credits_balance: number; current_plan_id: string }[]>`
    SELECT credits_balance, current_plan_id::text AS current_plan_id FROM users WHERE id = ${order.userId} FOR UPDATE`;
  const balance = Number(user?.credits_balance ?? 0);
  const taken = Math.max(0, Math.min(owed, balance));
  const change =
    taken > 0
      ? await changeCredits(tx, {
          userId: order.userId,
          delta: -taken,
          reason: LedgerReason.purchaseReversal,
          reference: order.id,
          note: event.reason,
        })
      : null;
  const unrecovered = Math.max(0, owed - taken);
  if (unrecovered > 0) {
    const message = `${event.reason === "chargeback" ? "Chargeback" : "Refund"} of order ${order.id} (${order.credits} credits): ${unrecovered} credit${unrecovered === 1 ? " was" : "s were"} already spent and could not be taken back.`;
    await tx.accountFlag.create({ data: { userId: order.userId, kind: `${event.reason}_after_spend`, message, orderId: order.id } });
    await tx.auditLog.create({
      data: {
        action: "billing.reversal_after_spend",
        actorId: null,
        targetType: "user",
        targetId: order.userId,
        ip: null,
        metadata: { orderId: order.id, reason: event.reason, owed, taken, unrecovered, provider: event.provider, eventId: event.eventId },
      },
    });
  }
  if (
    order.kind === "plan" &&
    order.planId &&
    user?.current_plan_id === order.planId &&
    event.share >= 1 &&
    (await paysCurrentPeriod(tx, order))
  ) {
    await tx.user.update({ where: { id: order.userId }, data: { currentPlanId: "free" } });
  }
  const settled = order.creditsReversed + Math.max(owed, 0);
  const full = event.share >= 1 || settled >= order.credits;
  await tx.order.update({
    where: { id: order.id },
    data: {
      creditsReversed: settled,
      ...(full ? { status: "refunded", refundedAt: new Date() } : {}),
    },
  });
  return {
    outcome: "refunded",
    note: unrecovered > 0 ? `${unrecovered} credits already spent; account flagged` : `${taken} credits taken back`,
    orderId: order.id,
    userId: order.userId,
    ...(change ? { balance: { userId: order.userId, balance: change.balance, delta: -taken, reason: LedgerReason.purchaseReversal } } : {}),
  };
}
