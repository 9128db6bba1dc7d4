// webhook.*: the account's outbound webhook endpoint for job events.
import { WebhookDelivery, WebhookSettings, WebhookSettingsInput } from "@adgen/schema";
import { getWebhookSettings, saveWebhookSettings } from "../modules/webhooks/endpoint.ts";
import { sendTestWebhook } from "../modules/webhooks/test-delivery.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { actingAccount, signedIn } from "./signed-in.ts";

export const webhookOperations = {
  get: defineOperation({
    summary: "Your default webhook endpoint, its signing secret and recent deliveries",
    access: "user",
    kind: "query",
    input: NoInput,
    output: WebhookSettings,
    rest: { method: "GET", path: "/user/webhook", tag: "Webhooks" },
    handler: (ctx) => getWebhookSettings(ctx.services, signedIn(ctx).id),
  }),
  save: defineOperation({
    summary: "Set (or clear with null) your default webhook URL; `rotateSecret: true` issues a new secret",
    access: "user",
    kind: "mutation",
    input: WebhookSettingsInput,
    output: WebhookSettings,
    rest: { method: "POST", path: "/user/webhook", tag: "Webhooks" },
    handler: (ctx, input) => saveWebhookSettings(ctx.services, actingAccount(ctx), input),
  }),
  sendTest: defineOperation({
    summary: "Send a signed test event (`webhook.test`) to your webhook URL now and answer the delivery's outcome",
    access: "user",
    kind: "mutation",
    // Auth class (a small per-client budget): each call makes an outbound request.
    rateLimit: "auth",
    input: NoInput,
    output: WebhookDelivery,
    rest: { method: "POST", path: "/user/webhook/test", tag: "Webhooks", errors: { 400: "no webhook URL is set" } },
    handler: (ctx) => sendTestWebhook(ctx.services, actingAccount(ctx)),
  }),
};
