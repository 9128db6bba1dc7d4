// An account's Web Push subscriptions: one row per browser endpoint. An endpoint belongs to one browser
// profile, so subscribing it again (another account signing in there) moves it to the new account.
import { PushSubscribeInput, PushUnsubscribeInput } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { requireUser } from "../auth/authenticate.ts";
import { assertStorableUrl } from "../net/safe-fetch.ts";
import { vapidKeys } from "./vapid-keys.ts";

export async function subscribePush(ctx: RequestContext, input: z.input<typeof PushSubscribeInput>) {
  const user = requireUser(ctx);
  const { subscription } = parseInput(PushSubscribeInput, input);
  // The service will POST to this address: it must be a public host, like any outbound request (checked
  // again at each delivery, so a name that does not resolve today is not refused for that).
  await assertStorableUrl(subscription.endpoint, { protocols: ["https:"], resolver: ctx.services.resolver });
  const data = { userId: user.id, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth };
  const row = await ctx.services.prisma.pushSubscription.upsert({
    where: { endpoint: subscription.endpoint },
    create: { endpoint: subscription.endpoint, ...data },
    update: data,
  });
  return {
    subscribed: true as const,
    endpoint: row.endpoint,
    vapidPublicKey: vapidKeys(ctx.services.config).publicKey,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function unsubscribePush(ctx: RequestContext, input: z.input<typeof PushUnsubscribeInput>) {
  const user = requireUser(ctx);
  const { endpoint } = parseInput(PushUnsubscribeInput, input);
  const { count } = await ctx.services.prisma.pushSubscription.deleteMany({
    where: { userId: user.id, ...(endpoint ? { endpoint } : {}) },
  });
  return { unsubscribed: true as const, removed: count };
}

/** The public key a browser needs to subscribe, and how many subscriptions the account has. */
export async function pushStatus(ctx: RequestContext) {
  const user = requireUser(ctx);
  const subscriptions = await ctx.services.prisma.pushSubscription.count({ where: { userId: user.id } });
  return { vapidPublicKey: vapidKeys(ctx.services.config).publicKey, subscriptions };
}
