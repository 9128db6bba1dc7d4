// The video service says a generation is done: the call is checked against the provider's documented
// signature (over the body's bytes as they arrived), matched to the job's clip, and the waiting job is
// resumed at once instead of at its next poll. Nothing is trusted from the body beyond which generation it
// names: the job asks the provider itself for the status and the clip.
import type { ClipWebhookInput, WebhookReceipt } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { warnOnce } from "../../../logging/warn-once.ts";
import type { PictureProvider } from "../../providers/picture-generator.ts";
import { wakeWaitingJob } from "./provider-wait.ts";

const KEY_NAMES: Record<PictureProvider, string> = { fal: "FAL_KEY", replicate: "REPLICATE_API_TOKEN" };

export async function receiveClipWebhook(services: Services, provider: PictureProvider, input: ClipWebhookInput): Promise<WebhookReceipt> {
  const generator = services.providers.clips.find((clips) => clips.provider === provider);
  if (!generator) {
    // The operator's to fix, not a fault of the call: said once, at warn; each call answers 503.
    warnOnce(
      services.logger,
      `clip-webhook-unconfigured-${provider}`,
      { provider },
      `clip webhook called for ${provider}, which has no key on this server (${KEY_NAMES[provider]}): answering 503 until it is set`,
    );
    throw new AppError("UNAVAILABLE", "This webhook is not configured on this server (its video service has no key)");
  }
  const headers = {
    "x-fal-webhook-request-id": input.requestId,
    "x-fal-webhook-user-id": input.userId,
    "x-fal-webhook-timestamp": input.timestamp,
    "x-fal-webhook-signature": input.signature,
    "webhook-id": input.webhookId,
    "webhook-timestamp": input.webhookTimestamp,
    "webhook-signature": input.webhookSignature,
  };
  const verified = await generator.verifyWebhook(Buffer.from(input.payload, "base64"), headers);
  if (!verified) {
    services.logger.warn({ provider }, "clip webhook refused: the signature does not verify");
    throw new AppError("BAD_REQUEST", "The webhook's signature does not verify (or a signature header is missing); nothing changed");
  }
  const task = await services.prisma.providerTask.findFirst({
    where: { provider, externalId: verified.id },
    select: { jobId: true, status: true },
  });
  if (!task) return { received: true, duplicate: false, outcome: "ignored" };
  if (task.status === "done") return { received: true, duplicate: true, outcome: "ignored" };
  await wakeWaitingJob(services, task.jobId);
  return { received: true, duplicate: false, outcome: "resumed" };
}
