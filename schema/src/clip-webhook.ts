// The video service calling back when a generated clip is done, so a waiting job resumes at once. The body is passed as it
// arrived, so its signature can be checked over the exact bytes; the signature headers travel beside it.
import { z } from "zod";

const header = (what: string) => z.string().max(2000).optional().describe(what);

export const ClipWebhookInput = z.object({
  payload: z.string().describe("The delivery's body, base64-encoded (REST: the raw body itself)"),
  requestId: header("fal: X-Fal-Webhook-Request-Id"),
  userId: header("fal: X-Fal-Webhook-User-Id"),
  timestamp: header("fal: X-Fal-Webhook-Timestamp"),
  signature: header("fal: X-Fal-Webhook-Signature"),
  webhookId: header("Standard Webhooks: webhook-id"),
  webhookTimestamp: header("Standard Webhooks: webhook-timestamp"),
  webhookSignature: header("Standard Webhooks: webhook-signature"),
});
export type ClipWebhookInput = z.infer<typeof ClipWebhookInput>;
