// notifications.*: Web Push. A browser subscribes with its PushSubscription; finished and failed jobs
// and moderation decisions notify the account; `send` tries it (an admin may notify any account).
import {
  PushSendInput,
  PushSendResult,
  PushStatus,
  PushSubscribeInput,
  PushSubscribeResult,
  PushUnsubscribeInput,
  PushUnsubscribeResult,
} from "@adgen/schema";
import { sendNotification } from "../modules/notifications/send-notification.ts";
import { pushStatus, subscribePush, unsubscribePush } from "../modules/notifications/subscriptions.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { actingAccount, signedIn } from "./signed-in.ts";

const tag = "Notifications";

export const notificationsOperations = {
  status: defineOperation({
    summary: "The service's VAPID public key (applicationServerKey) and how many browsers of yours are subscribed",
    access: "user",
    kind: "query",
    input: NoInput,
    output: PushStatus,
    rest: { method: "GET", path: "/notifications/subscribe", tag },
    handler: (ctx) => pushStatus(ctx.services, signedIn(ctx).id),
  }),
  subscribe: defineOperation({
    summary: "Subscribe this browser to push notifications (a Web Push subscription: https endpoint, p256dh and auth keys)",
    access: "user",
    kind: "mutation",
    input: PushSubscribeInput,
    output: PushSubscribeResult,
    rest: { method: "POST", path: "/notifications/subscribe", tag },
    handler: (ctx, input) => subscribePush(ctx.services, signedIn(ctx).id, input),
  }),
  unsubscribe: defineOperation({
    summary: "Unsubscribe one endpoint, or every browser of the account when none is given",
    access: "user",
    kind: "mutation",
    input: PushUnsubscribeInput,
    output: PushUnsubscribeResult,
    rest: { method: "DELETE", path: "/notifications/subscribe", tag },
    handler: (ctx, input) => unsubscribePush(ctx.services, signedIn(ctx).id, input),
  }),
  send: defineOperation({
    summary: "Send a push notification to yourself, or (admin) to any account by userId",
    access: "user",
    kind: "mutation",
    input: PushSendInput,
    output: PushSendResult,
    rest: {
      method: "POST",
      path: "/notifications/send",
      tag,
      errors: { 403: "admin access required to notify another account", 404: "User not found" },
    },
    handler: (ctx, input) => sendNotification(ctx.services, actingAccount(ctx), input),
  }),
};
