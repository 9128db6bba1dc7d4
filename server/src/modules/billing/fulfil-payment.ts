// A confirmed payment's effect, inside the event's transaction: the order becomes paid (once: a
// conditional update, so two different events for one order cannot both grant), a pack's credits or a
// plan (with its monthly allowance) are granted through the ledger, and the invoice is issued.
import type { Order as OrderRow } from "@adgen/prisma";
import type { PlanId } from "@adgen/schema";
import type { Config } from "../../config/env.ts";
import type { Tx } from "../../request-context.ts";
import { changeCredits, LedgerReason } from "../credits/ledger.ts";
import { issueInvoice } from "./invoices.ts";
import { packProduct, planProduct, type Product } from "./products.ts";
import type { CompletedPayment, EventEffect } from "./types.ts";
import { flagUnmatchedPayment } from "./unmatched-payment.ts";

const ignore = (note: string, extra: Partial<EventEffect> = {}): EventEffect => ({ outcome: "ignored", note, ...extra });

function productOf(event: Pick<CompletedPayment, "packId" | "planId" | "interval">): Product | null {
  if (event.packId) return packProduct(event.packId);
  if (event.planId) return planProduct(event.planId, event.interval === "yearly" ? "yearly" : "monthly");
  return null;
}

/** Namespace of the per-payment locks (a two-key advisory lock: this and a hash of provider and payment id). */
const PAYMENT_LOCK = 0x1ab1;

/**
 * The order this payment pays: the one that already carries its payment id (a resend of the same
 * payment under another event id, e.g. Stripe's invoice.paid and invoice.payment_succeeded); ours
 * (metadata orderId); or one made now for a payment started elsewhere (a renewal, a provider's own checkout).
 */
async function orderFor(tx: Tx, event: CompletedPayment): Promise<OrderRow | string> {
  if (event.paymentId) {
    const paid = await tx.order.findFirst({ where: { provider: event.provider, providerPaymentId: event.paymentId } });
    if (paid) return paid;
  }
  if (event.orderId) {
    const order = await tx.order.findUnique({ where: { id: event.orderId } });
    if (order) {
      if (event.userId && event.userId !== order.userId) return `order ${order.id} belongs to another account than the event names`;
      return order;
    }
    // An order id this service never made, beside metadata that names what was bought: fulfil from that.
    if (!event.userId) return `order ${event.orderId} does not exist`;
  }
  if (!event.userId) return "the event's metadata names no userId";
  const product = productOf(event);
  if (!product) return "the event's metadata names no known packId or planId";
  const user = await tx.user.findUnique({ where: { id: event.userId }, select: { id: true } });
  if (!user) return `account ${event.userId} does not exist`;
  return tx.order.create({
    data: {
      userId: user.id,
      provider: event.provider,
      kind: product.kind,
      packId: product.packId,
      planId: product.planId,
      interval: product.interval,
      credits: product.credits,
      amountCents: event.amountCents ?? product.amountCents,
      currency: event.currency ?? product.currency,
    },
  });
}

/**
 * A later payment of a paid plan (a subscription's renewal: another payment id, same metadata) is a new
 * order for the same plan, so its allowance is granted and invoiced again.
 */
async function renewalOf(tx: Tx, paid: OrderRow, event: CompletedPayment): Promise<OrderRow | null> {
  // A refunded first period still renews: the subscription goes on charging, and each charge is paid for.
  if (paid.kind !== "plan" || (paid.status !== "paid" && paid.status !== "refunded")) return null;
  if (!event.paymentId || !paid.providerPaymentId || event.paymentId === paid.providerPaymentId) return null;
  return tx.order.create({
    data: {
      userId: paid.userId,
      provider: event.provider,
      kind: "plan",
      planId: paid.planId,
      interval: paid.interval,
      credits: paid.credits,
      amountCents: event.amountCents ?? paid.amountCents,
      currency: event.currency ?? paid.currency,
    },
  });
}

export async function fulfilPayment(tx: Tx, config: Config, event: CompletedPayment): Promise<EventEffect> {
  // Deliveries of one payment under different event ids (which the event record does not hold apart)
  // take turns here, so the second finds the first's order and grants nothing.
  if (event.paymentId) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${PAYMENT_LOCK}::int, hashtext(${`${event.provider}:${event.paymentId}`}))`;
  }
  const named = await orderFor(tx, event);
  if (typeof named === "string") return flagUnmatchedPayment(tx, event, named);
  const found = (await renewalOf(tx, named, event)) ?? named;
  const paid = await tx.order.updateMany({
    where: { id: found.id, status: { in: ["pending", "failed"] } },
    data: {
      status: "paid",
      paidAt: new Date(),
      provider: event.provider,
      providerPaymentId: event.paymentId ?? found.providerPaymentId,
      providerSessionId: event.sessionId ?? found.providerSessionId,
      ...(event.amountCents !== null ? { amountCents: event.amountCents } : {}),
      ...(event.currency ? { currency: event.currency } : {}),
    },
  });
  if (paid.count === 0) return ignore(`order ${found.id} is already ${found.status}`, { orderId: found.id, userId: found.userId });
  const order = await tx.order.findUniqueOrThrow({ where: { id: found.id }, include: { user: { select: { id: true, email: true } } } });

  let reason: string = LedgerReason.purchase;
  if (order.kind === "plan" && order.planId) {
    reason = LedgerReason.planAllowance;
    await tx.user.update({ where: { id: order.userId }, data: { currentPlanId: order.planId as PlanId, trialEndsAt: null } });
  }
  const change =
    order.credits > 0
      ? await changeCredits(tx, { userId: order.userId, delta: order.credits, reason: reason as LedgerReason, reference: order.id })
      : null;
  await issueInvoice(tx, config, order, order.user);
  return {
    outcome: "fulfilled",
    orderId: order.id,
    userId: order.userId,
    ...(change ? { balance: { userId: order.userId, balance: change.balance, delta: order.credits, reason } } : {}),
  };
}
