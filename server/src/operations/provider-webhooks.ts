// providerWebhook.*: payment providers and the social platform calling in (SPEC 4.11, CONTRACT "Webhook
// signatures"). REST hands each handler the body's exact bytes (`rawBody`) and the signature header, so
// the signature is checked over what was sent; the rules live in modules/billing/receive-webhook.ts.
import { ClipWebhookInput, MetaChallengeInput, ProviderWebhookInput, WebhookReceipt } from "@adgen/schema";
import { receiveClipWebhook } from "../modules/workflows/jobs/clip-webhook.ts";
import { answerMetaChallenge, receiveWebhook } from "../modules/billing/receive-webhook.ts";
import type { WebhookProvider } from "../modules/billing/signatures.ts";
import { defineOperation, type FileResult } from "./operation.ts";

const ERRORS = {
  400: "Missing or bad signature, or a body that is not an event; nothing changed",
  503: "The webhook's secret is not configured",
};

function providerWebhook(provider: WebhookProvider, header: string, summary: string) {
  return defineOperation({
    summary,
    access: "public",
    kind: "mutation",
    input: ProviderWebhookInput,
    output: WebhookReceipt,
    rest: {
      method: "POST",
      path: `/webhook/${provider}`,
      tag: "Inbound webhooks",
      rawBody: "payload",
      headers: { signature: header },
      errors: ERRORS,
    },
    handler: (ctx, input) => receiveWebhook(ctx, provider, input),
  });
}

const CLIP_ERRORS = {
  400: "Missing or bad signature; nothing changed",
  503: "The video service has no key on this server",
};

const clipHeaders = {
  requestId: "x-fal-webhook-request-id",
  userId: "x-fal-webhook-user-id",
  timestamp: "x-fal-webhook-timestamp",
  signature: "x-fal-webhook-signature",
  webhookId: "webhook-id",
  webhookTimestamp: "webhook-timestamp",
  webhookSignature: "webhook-signature",
};

/** The video service calling back when a generated clip is done (fal: ED25519 over JWKS; Replicate: Standard Webhooks). */
function clipWebhook(provider: "fal" | "replicate", summary: string) {
  return defineOperation({
    summary,
    access: "public",
    kind: "mutation",
    input: ClipWebhookInput,
    output: WebhookReceipt,
    rest: {
      method: "POST",
      path: `/webhook/clips/${provider}`,
      tag: "Inbound webhooks",
      rawBody: "payload",
      headers: clipHeaders,
      errors: CLIP_ERRORS,
    },
    handler: (ctx, input) => receiveClipWebhook(ctx.services, provider, input),
  });
}

export const providerWebhookOperations = {
  clipsFal: clipWebhook("fal", "fal queue callbacks: a generated clip is done, and the job waiting for it resumes now"),
  clipsReplicate: clipWebhook(
    "replicate",
    "Replicate prediction callbacks: a generated clip is done, and the job waiting for it resumes now",
  ),
  stripe: providerWebhook(
    "stripe",
    "stripe-signature",
    "Stripe events: a completed checkout pays its order; refunds and disputes take credits back",
  ),
  paddle: providerWebhook(
    "paddle",
    "paddle-signature",
    "Paddle events: a completed transaction pays its order; refund and chargeback adjustments take credits back",
  ),
  lemonsqueezy: providerWebhook(
    "lemonsqueezy",
    "x-signature",
    "Lemon Squeezy events: a paid order_created pays its order; order_refunded takes credits back",
  ),
  meta: providerWebhook("meta", "x-hub-signature-256", "Meta platform events, verified and recorded once"),
  metaChallenge: defineOperation({
    summary: "Meta's webhook registration check: answers hub.challenge as plain text when hub.verify_token matches",
    access: "public",
    kind: "download",
    input: MetaChallengeInput,
    output: null,
    rest: {
      method: "GET",
      path: "/webhook/meta",
      tag: "Inbound webhooks",
      produces: ["text/plain"],
      errors: { 403: "The verify token does not match" },
    },
    trpc: { none: "a plain-text challenge answer: Meta calls it over REST only" },
    graphql: { none: "a plain-text challenge answer: Meta calls it over REST only" },
    handler: async (ctx, input): Promise<FileResult> => ({
      kind: "file",
      filename: "challenge.txt",
      contentType: "text/plain; charset=utf-8",
      body: answerMetaChallenge(ctx, input),
      disposition: "inline",
    }),
  }),
};
