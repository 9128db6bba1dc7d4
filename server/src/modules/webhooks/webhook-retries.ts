// The webhook-retries agent. Deliveries are retried with backoff by the queue itself; this agent catches
// the ones the queue lost (a message deleted with its queue, a process that died between writing the
// delivery and sending its message, a message that failed for a reason other than the endpoint): a
// delivery still pending with no live message gets a fresh one.
import type { Services } from "../../request-context.ts";
import { QUEUE } from "../../queue/queue.ts";
import type { WebhookMessage } from "./deliver.ts";

/** A delivery younger than this may still be between its row and its first message. */
const GRACE_SECONDS = 60;

export async function requeueLostWebhookDeliveries(services: Services): Promise<{ pending: number; requeued: number }> {
  const { prisma } = services;
  const pending = await prisma.webhookDelivery.findMany({
    where: { status: "pending", createdAt: { lt: new Date(Date.now() - GRACE_SECONDS * 1000) } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: 200,
  });
  if (pending.length === 0) return { pending: 0, requeued: 0 };
  const ids = pending.map((delivery) => delivery.id);
  const live = await prisma.$queryRaw<{ id: string }[]>`
    SELECT data->>'deliveryId' AS id FROM pgboss.job
    WHERE name = ${QUEUE.webhook} AND state IN ('created', 'retry', 'active') AND data->>'deliveryId' = ANY(${ids})`;
  const alive = new Set(live.map((row) => row.id));
  let requeued = 0;
  for (const id of ids) {
    if (alive.has(id)) continue;
    await services.queue.send<WebhookMessage>(QUEUE.webhook, { deliveryId: id });
    requeued += 1;
  }
  return { pending: ids.length, requeued };
}
