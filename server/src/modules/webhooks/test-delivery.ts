// A test delivery to the account's webhook endpoint: the same signing and sending path as a job event,
// sent at once (not queued, no retries) so the settings page can show the receiver's answer.
import { auditSourceOf } from "../../request-context.ts";
import { type WebhookDelivery, WEBHOOK_TEST_EVENT } from "@adgen/schema";
import type { RequestContext } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";
import { deliverWebhook, webhookSecretFor } from "./deliver.ts";
import { toDeliverySummary } from "./endpoint.ts";

export async function sendTestWebhook(ctx: RequestContext): Promise<WebhookDelivery> {
  const user = requireUser(ctx);
  const { prisma } = ctx.services;
  await webhookSecretFor(ctx.services, user.id);
  const endpoint = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { userId: user.id } });
  if (!endpoint.url) throw new AppError("BAD_REQUEST", "Save a webhook URL first, then send a test delivery to it.");
  const now = new Date();
  const delivery = await prisma.webhookDelivery.create({
    data: {
      userId: user.id,
      jobId: null,
      url: endpoint.url,
      eventKind: WEBHOOK_TEST_EVENT,
      payload: { type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { message: "A test delivery from AdGen settings." } },
    },
  });
  // retryLimit 0: one attempt, recorded as delivered or failed, never re-queued.
  await deliverWebhook(ctx.services, { deliveryId: delivery.id }, 0, 0);
  await recordAudit(prisma, auditSourceOf(ctx), { action: "webhook.test_sent", targetType: "user", targetId: user.id });
  return toDeliverySummary(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }));
}
