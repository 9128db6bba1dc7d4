// The account's default webhook endpoint and its signing secret.
import type { WebhookDelivery as WebhookDeliveryRow } from "@adgen/prisma";
import { type WebhookDelivery, WebhookSettingsInput } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { assertStorableUrl } from "../net/safe-fetch.ts";
import { newWebhookSecret, webhookSecretFor } from "./deliver.ts";

export { WebhookSettingsInput };

export async function getWebhookSettings(services: Services, userId: string) {
  const secret = await webhookSecretFor(services, userId);
  const endpoint = await services.prisma.webhookEndpoint.findUniqueOrThrow({ where: { userId } });
  const recent = await services.prisma.webhookDelivery.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    take: 20,
  });
  return {
    url: endpoint.url,
    secret,
    signature: "Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256, base64)",
    recentDeliveries: recent.map(toDeliverySummary),
  };
}

export function toDeliverySummary(d: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    jobId: d.jobId,
    eventKind: d.eventKind,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}

export async function saveWebhookSettings(services: Services, user: ActingAccount, input: z.input<typeof WebhookSettingsInput>) {
  const { url, rotateSecret } = parseInput(WebhookSettingsInput, input);
  // Checked again at each delivery (deliver.ts): a name that does not resolve today is not refused for that.
  if (url) await assertStorableUrl(url, { resolver: services.resolver, protocols: ["https:", "http:"] });
  await webhookSecretFor(services, user.id);
  await services.prisma.webhookEndpoint.update({
    where: { userId: user.id },
    data: { ...(url !== undefined ? { url: url || null } : {}), ...(rotateSecret ? { secret: newWebhookSecret() } : {}) },
  });
  await recordAudit(services.prisma, auditSourceFor(user), {
    action: "webhook.settings_saved",
    targetType: "user",
    targetId: user.id,
    metadata: { url: url ?? null, rotated: Boolean(rotateSecret) },
  });
  return getWebhookSettings(services, user.id);
}
