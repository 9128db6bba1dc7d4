// Outbound webhooks (SPEC 6.1): each job event goes to the launch's callback URL, else the account's
// default endpoint, signed the Standard Webhooks way (webhook-id, webhook-timestamp,
// webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">), retried with backoff by the
// queue, and never sent to a private or local address.
import { createHmac, randomBytes } from "node:crypto";
import type { Prisma } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { QUEUE } from "../../queue/queue.ts";
import { SafeFetchError, safeFetch } from "../net/safe-fetch.ts";

export interface WebhookMessage {
  deliveryId: string;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export async function webhookSecretFor(services: Services, userId: string): Promise<string> {
  const existing = await services.prisma.webhookEndpoint.findUnique({ where: { userId } });
  if (existing) return existing.secret;
  const created = await services.prisma.webhookEndpoint.upsert({
    where: { userId },
    create: { userId, secret: newWebhookSecret() },
    update: {},
  });
  return created.secret;
}

/** Queues a delivery of each event to the job's callback URL or the account's endpoint, if any. */
export async function scheduleWebhooks(
  services: Services,
  events: { seq: number; jobId: string; userId: string; kind: string; data: unknown; createdAt: Date }[],
): Promise<void> {
  if (events.length === 0) return;
  const first = events[0]!;
  const [job, endpoint] = await Promise.all([
    services.prisma.job.findUnique({ where: { id: first.jobId }, select: { callbackUrl: true } }),
    services.prisma.webhookEndpoint.findUnique({ where: { userId: first.userId } }),
  ]);
  const url = job?.callbackUrl ?? endpoint?.url ?? null;
  if (!url) return;
  for (const event of events) {
    const payload = {
      type: event.kind,
      timestamp: event.createdAt.toISOString(),
      data: { jobId: event.jobId, seq: event.seq, ...(event.data as object) },
    };
    const delivery = await services.prisma.webhookDelivery.create({
      data: { userId: event.userId, jobId: event.jobId, url, eventKind: event.kind, payload: payload as Prisma.InputJsonValue },
    });
    await services.queue.send<WebhookMessage>(QUEUE.webhook, { deliveryId: delivery.id });
  }
}

/** Only the host of a webhook URL is logged (its path or query may be the secret). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export async function deliverWebhook(services: Services, message: WebhookMessage, retryCount: number, retryLimit: number): Promise<void> {
  const { prisma } = services;
  const delivery = await prisma.webhookDelivery.findUnique({ where: { id: message.deliveryId } });
  if (delivery?.status !== "pending") return;
  const secret = await webhookSecretFor(services, delivery.userId);
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  let status: number | null = null;
  let error: string | null = null;
  let permanent = false;
  let reason: string | null = null;
  try {
    const response = await safeFetch(delivery.url, {
      method: "POST",
      body,
      maxRedirects: 0,
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      resolver: services.resolver,
      headers: {
        "content-type": "application/json",
        "user-agent": "AdGen-Webhooks/1.0",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(secret, delivery.id, timestamp, body),
      },
    });
    status = response.status;
    if (status < 200 || status >= 300) error = `endpoint answered ${status}`;
  } catch (e) {
    error = (e as Error).message;
    // For the log, the reason without the URL: a webhook URL may carry a secret in its path.
    reason = e instanceof SafeFetchError ? e.detail : error;
    // A URL that is private, local or malformed will never become deliverable.
    permanent = e instanceof SafeFetchError && e.reason === "unsafe_url";
  }
  const attempts = delivery.attempts + 1;
  if (!error) {
    await prisma.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "delivered", attempts, lastStatus: status, lastError: null, deliveredAt: new Date() },
    });
    return;
  }
  const lastAttempt = permanent || retryCount >= retryLimit;
  services.logger.warn(
    {
      deliveryId: delivery.id,
      jobId: delivery.jobId,
      event: delivery.eventKind,
      host: hostOf(delivery.url),
      ...(status !== null ? { status } : {}),
      error: reason ?? error,
      attempt: attempts,
      final: lastAttempt,
    },
    "webhook delivery failed",
  );
  await prisma.webhookDelivery.update({
    where: { id: delivery.id },
    data: { status: lastAttempt ? "failed" : "pending", attempts, lastStatus: status, lastError: error.slice(0, 500) },
  });
  if (!lastAttempt) throw new Error(`webhook ${delivery.id}: ${error}`);
}
