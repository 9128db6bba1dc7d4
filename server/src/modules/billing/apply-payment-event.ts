// The one path every confirmed payment, refund and chargeback takes, from any provider's webhook and from
// the sandbox checkout alike: in ONE transaction, the event's record (unique per provider and event id)
// and its effect (and any links it states between a payment's ids). A repeated event finds its record already there and changes nothing, however many
// deliveries arrive at once: the insert of the second waits for the first to commit, then does nothing.
import { randomUUID } from "node:crypto";
import type { Services, Tx } from "../../request-context.ts";
import { balanceEventIn } from "../credits/balance-updates.ts";
import { fulfilPayment } from "./fulfil-payment.ts";
import { recordPaymentLinks } from "./payment-references.ts";
import type { EventEffect, PaymentEvent } from "./types.ts";
import { reversePayment } from "./reverse-payment.ts";

export interface AppliedEvent {
  duplicate: boolean;
  outcome: string;
  orderId: string | null;
}

async function recordEvent(tx: Tx, event: PaymentEvent): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO payment_events (id, provider, event_id, type, outcome)
    VALUES (${randomUUID()}, ${event.provider}, ${event.eventId}, ${event.type}, 'received')
    ON CONFLICT (provider, event_id) DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

async function effectOf(tx: Tx, services: Services, event: PaymentEvent): Promise<EventEffect> {
  switch (event.action) {
    case "completed":
      return fulfilPayment(tx, services.config, event);
    case "reversed":
      return reversePayment(tx, event);
    case "ignored":
      return { outcome: "ignored", note: event.note };
  }
}

export async function applyPaymentEvent(services: Services, event: PaymentEvent): Promise<AppliedEvent> {
  const result = await services.prisma.$transaction(
    async (tx) => {
      const recordId = await recordEvent(tx, event);
      if (!recordId) return null;
      if (event.links?.length) await recordPaymentLinks(tx, event.provider, event.links);
      const effect = await effectOf(tx, services, event);
      await tx.paymentEvent.update({
        where: { id: recordId },
        data: { outcome: effect.outcome, note: effect.note ?? null, orderId: effect.orderId ?? null, userId: effect.userId ?? null },
      });
      if (!effect.balance) return { ...effect, announce: null };
      const { userId, ...change } = effect.balance;
      return { ...effect, announce: await balanceEventIn(tx, services, userId, change) };
    },
    // Many deliveries of one event wait on each other's insert; give them time rather than fail.
    { maxWait: 20_000, timeout: 30_000 },
  );
  if (!result) {
    const previous = await services.prisma.paymentEvent.findUnique({
      where: { provider_eventId: { provider: event.provider, eventId: event.eventId } },
      select: { outcome: true, orderId: true },
    });
    return { duplicate: true, outcome: previous?.outcome ?? "received", orderId: previous?.orderId ?? null };
  }
  result.announce?.();
  const log = result.outcome === "unmatched" ? services.logger.warn.bind(services.logger) : services.logger.info.bind(services.logger);
  log(
    {
      provider: event.provider,
      eventId: event.eventId,
      type: event.type,
      outcome: result.outcome,
      orderId: result.orderId ?? null,
      note: result.note,
    },
    result.outcome === "unmatched"
      ? "payment event matched no order, pack or plan: the customer paid for nothing"
      : "payment event applied",
  );
  return { duplicate: false, outcome: result.outcome, orderId: result.orderId ?? null };
}
