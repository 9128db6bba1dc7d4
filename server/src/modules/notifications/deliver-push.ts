// Sending one message to every subscription of an account. web-push encrypts the payload (aes128gcm,
// RFC 8291) and signs the VAPID header; the request itself goes through the SSRF-safe fetcher, like
// every outbound request. A 404 or 410 means the browser dropped the subscription: its row is deleted.
import type { PushMessage, PushSendResult } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { safeFetch } from "../net/safe-fetch.ts";
import { vapidKeys } from "./vapid-keys.ts";

/** How long a push service keeps an undelivered message (the browser may be offline). */
const TTL_SECONDS = 24 * 3600;

export async function pushToUser(services: Services, userId: string, message: PushMessage): Promise<PushSendResult> {
  const rows = await services.prisma.pushSubscription.findMany({ where: { userId } });
  // Loaded on the first push, not at start-up: a service that never pushes never holds it.
  const { default: webpush } = await import("web-push");
  const keys = vapidKeys(services.config);
  const payload = JSON.stringify(message);
  const result: PushSendResult = { sent: 0, failed: 0, pruned: 0 };
  await Promise.all(
    rows.map(async (row) => {
      const request = webpush.generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, payload, {
        vapidDetails: keys,
        TTL: TTL_SECONDS,
        contentEncoding: "aes128gcm",
      });
      try {
        const response = await safeFetch(request.endpoint, {
          method: "POST",
          body: request.body,
          headers: request.headers as Record<string, string>,
          protocols: ["https:"],
          maxRedirects: 0,
          timeoutMs: 10_000,
          maxBytes: 64 * 1024,
          resolver: services.resolver,
        });
        if (response.status === 404 || response.status === 410) {
          await services.prisma.pushSubscription.deleteMany({ where: { id: row.id } });
          result.pruned += 1;
        } else if (response.status >= 200 && response.status < 300) {
          result.sent += 1;
        } else {
          result.failed += 1;
          services.logger.warn({ userId, status: response.status }, "push: the push service refused a message");
        }
      } catch (error) {
        result.failed += 1;
        services.logger.warn({ userId, error: (error as Error).message }, "push: could not reach the push service");
      }
    }),
  );
  return result;
}
