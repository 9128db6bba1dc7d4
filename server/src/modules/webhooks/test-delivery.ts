// A test delivery to the account's webhook endpoint: the same signing and sending path as a job event,
// sent at once (not queued, no retries) so the settings page can show the receiver's answer.
import { type WebhookDelivery, WEBHOOK_TEST_EVENT } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { deliverWebhook, webhookSecretFor } from "./deliver.ts";
import { toDeliverySummary } from "./endpoint.ts";

export async function sendTestWebhook(services: Services, user: ActingAccount): Promise<WebhookDelivery> {
  const { prisma } = services;
  await webhookSecretFor(services, user.id);
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
  await deliverWebhook(services, { deliveryId: delivery.id }, 0, 0);
  await recordAudit(prisma, auditSourceFor(user), { action: "webhook.test_sent", targetType: "user", targetId: user.id });
  return toDeliverySummary(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }));
}
