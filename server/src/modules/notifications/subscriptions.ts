// An account's Web Push subscriptions: one row per browser endpoint. An endpoint belongs to one browser
// profile, so subscribing it again (another account signing in there) moves it to the new account.
import { PushSubscribeInput, PushUnsubscribeInput } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { assertStorableUrl } from "../net/safe-fetch.ts";
import { vapidKeys } from "./vapid-keys.ts";

export async function subscribePush(services: Services, userId: string, input: z.input<typeof PushSubscribeInput>) {
  const { subscription } = parseInput(PushSubscribeInput, input);
  // The service will POST to this address: it must be a public host, like any outbound request (checked
  // again at each delivery, so a name that does not resolve today is not refused for that).
  await assertStorableUrl(subscription.endpoint, { protocols: ["https:"], resolver: services.resolver });
  const data = { userId, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth };
  const row = await services.prisma.pushSubscription.upsert({
    where: { endpoint: subscription.endpoint },
    create: { endpoint: subscription.endpoint, ...data },
    update: data,
  });
  return {
    subscribed: true as const,
    endpoint: row.endpoint,
    vapidPublicKey: vapidKeys(services.config).publicKey,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function unsubscribePush(services: Services, userId: string, input: z.input<typeof PushUnsubscribeInput>) {
  const { endpoint } = parseInput(PushUnsubscribeInput, input);
  const { count } = await services.prisma.pushSubscription.deleteMany({
    where: { userId, ...(endpoint ? { endpoint } : {}) },
  });
  return { unsubscribed: true as const, removed: count };
}

/** The public key a browser needs to subscribe, and how many subscriptions the account has. */
export async function pushStatus(services: Services, userId: string) {
  const subscriptions = await services.prisma.pushSubscription.count({ where: { userId } });
  return { vapidPublicKey: vapidKeys(services.config).publicKey, subscriptions };
}
