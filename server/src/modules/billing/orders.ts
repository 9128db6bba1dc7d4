// Orders as the API shows them, and looking up the signed-in account's own.
import type { Order as OrderRow } from "@adgen/prisma";
import type { Order } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { Errors } from "../../errors.ts";
import { describeOrder } from "./products.ts";

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    provider: row.provider,
    kind: row.kind === "plan" ? "plan" : "pack",
    packId: row.packId,
    planId: row.planId,
    interval: row.interval === "monthly" || row.interval === "yearly" ? row.interval : null,
    credits: row.credits,
    // Bounded by MAX_AMOUNT_CENTS on the way in, so an exact number.
    amount: Number(row.amountCents) / 100,
    amountCents: Number(row.amountCents),
    currency: row.currency,
    status: row.status as Order["status"],
    description: describeOrder(row),
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

/** The account's own order; another account's is a 404, like one that does not exist. */
export async function ownOrder(services: Services, userId: string, orderId: string): Promise<OrderRow> {
  const order = await services.prisma.order.findFirst({ where: { id: orderId, userId } });
  if (!order) throw Errors.notFound("Order");
  return order;
}
