// What can be bought: the credit packs and paid plans of the price table (@adgen/schema), in cents, with
// the words an order, a checkout page and an invoice use for them.
import { type BillingInterval, CREDIT_PACKS, PLANS, type PlanInfo } from "@adgen/schema";

export const STORE_CURRENCY = "USD";

export interface Product {
  kind: "pack" | "plan";
  packId: string | null;
  planId: string | null;
  interval: BillingInterval | null;
  /** Credits granted on payment: the pack's, or the plan's monthly allowance. */
  credits: number;
  amountCents: number;
  currency: string;
  description: string;
}

const cents = (amount: number) => Math.round(amount * 100);

export function packProduct(packId: string): Product | null {
  const pack = CREDIT_PACKS.find((p) => p.id === packId);
  if (!pack) return null;
  return {
    kind: "pack",
    packId: pack.id,
    planId: null,
    interval: null,
    credits: pack.credits,
    amountCents: cents(pack.price),
    currency: pack.currency,
    // Words a buyer reads on the invoice and the checkout page; the pack id stays in the order.
    description: `${pack.credits}-credit pack`,
  };
}

export function paidPlan(planId: string): PlanInfo | null {
  const plan = PLANS.find((p) => p.id === planId);
  return plan && plan.monthly > 0 ? plan : null;
}

export function planProduct(planId: string, interval: BillingInterval): Product | null {
  const plan = paidPlan(planId);
  if (!plan) return null;
  return {
    kind: "plan",
    packId: null,
    planId: plan.id,
    interval,
    credits: plan.monthlyCredits,
    amountCents: cents(interval === "yearly" ? plan.yearly : plan.monthly),
    currency: STORE_CURRENCY,
    description: `${plan.name} plan, ${interval} (${plan.monthlyCredits} credits a month)`,
  };
}

/** An order's line in words (orders store ids; the words come from the price table). */
export function describeOrder(order: { kind: string; packId: string | null; planId: string | null; interval: string | null }): string {
  if (order.kind === "pack") return packProduct(order.packId ?? "")?.description ?? `Credit pack ${order.packId}`;
  const interval = order.interval === "yearly" ? "yearly" : "monthly";
  return planProduct(order.planId ?? "", interval)?.description ?? `Plan ${order.planId}`;
}
