// webhook.*: the account's outbound webhook endpoint for job events.
import { WebhookSettings, WebhookSettingsInput } from "@adgen/schema";
import { getWebhookSettings, saveWebhookSettings } from "../modules/webhooks/endpoint.ts";
import { defineOperation, NoInput } from "./operation.ts";

export const webhookOperations = {
  get: defineOperation({
    summary: "Your default webhook endpoint, its signing secret and recent deliveries",
    access: "user",
    kind: "query",
    input: NoInput,
    output: WebhookSettings,
    rest: { method: "GET", path: "/user/webhook", tag: "Webhooks" },
    handler: (ctx) => getWebhookSettings(ctx),
  }),
  save: defineOperation({
    summary: "Set (or clear with null) your default webhook URL; `rotateSecret: true` issues a new secret",
    access: "user",
    kind: "mutation",
    input: WebhookSettingsInput,
    output: WebhookSettings,
    rest: { method: "POST", path: "/user/webhook", tag: "Webhooks" },
    handler: (ctx, input) => saveWebhookSettings(ctx, input),
  }),
};
