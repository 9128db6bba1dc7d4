// An inbound provider webhook, in CONTRACT's order: no secret configured → 503; a missing or bad signature
// → 400 and nothing changes; a body that is not an event → 400; then the event is applied once
// (apply-payment-event.ts). The signature is checked over the body's bytes exactly as they arrived.
import { warnOnce } from "../../logging/warn-once.ts";
import type { ProviderWebhookInput, WebhookReceipt } from "@adgen/schema";
import type { Config } from "../../config/env.ts";
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { applyPaymentEvent } from "./apply-payment-event.ts";
import { MalformedEventError, parseEventBody, readProviderEvent } from "./provider-events.ts";
import { SignatureError, verifySignature, type WebhookProvider } from "./signatures.ts";

const SECRET_NAMES: Record<WebhookProvider, string> = {
  stripe: "STRIPE_WEBHOOK_SECRET",
  paddle: "PADDLE_WEBHOOK_SECRET",
  lemonsqueezy: "LEMONSQUEEZY_WEBHOOK_SECRET",
  meta: "META_APP_SECRET",
};

export async function receiveWebhook(services: Services, provider: WebhookProvider, input: ProviderWebhookInput): Promise<WebhookReceipt> {
  const { config, logger } = services;
  const secret = config.payments.webhookSecrets[provider];
  if (!secret) {
    warnOnce(
      logger,
      `payment-webhook-unconfigured-${provider}`,
      { provider },
      `${provider} webhook called, but ${SECRET_NAMES[provider]} is not set: answering 503`,
    );
    throw new AppError("UNAVAILABLE", `The ${provider} webhook is not configured on this server (${SECRET_NAMES[provider]} is not set)`);
  }
  const body = Buffer.from(input.payload, "base64");
  try {
    verifySignature(provider, secret, body, input.signature);
    const event = readProviderEvent(provider, parseEventBody(provider, body));
    const applied = await applyPaymentEvent(services, event);
    return { received: true, duplicate: applied.duplicate, outcome: applied.outcome };
  } catch (error) {
    if (error instanceof SignatureError || error instanceof MalformedEventError) {
      logger.warn({ provider, reason: error.message }, "webhook refused");
      throw new AppError("BAD_REQUEST", error.message);
    }
    throw error;
  }
}

/** Meta's subscription check: the challenge back, as plain text, when the verify token matches. */
export function answerMetaChallenge(
  config: Config,
  input: { "hub.mode"?: string; "hub.verify_token"?: string; "hub.challenge"?: string },
): string {
  const expected = config.payments.metaVerifyToken;
  const given = input["hub.verify_token"];
  if (!expected || input["hub.mode"] !== "subscribe" || given !== expected) {
    throw new AppError("FORBIDDEN", "The verify token does not match (or META_VERIFY_TOKEN is not set)");
  }
  return input["hub.challenge"] ?? "";
}
