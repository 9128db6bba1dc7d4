// Clips through Replicate's predictions API (https://replicate.com/docs/reference/http): create with
// `POST https://api.replicate.com/v1/models/{owner}/{name}/predictions` (or `POST /v1/predictions` with a
// `version` when the model is pinned as `owner/name:version`), `Authorization: Bearer …`, body
// `{ input, webhook, webhook_events_filter: ["completed"] }`; `GET /v1/predictions/{id}` answers
// `{ id, status: starting | processing | succeeded | failed | canceled, output, error }`, `output` the MP4's
// URL (or a list of them). Webhooks follow Standard Webhooks, keyed by the account's secret from
// `GET /v1/webhooks/default/secret` (https://replicate.com/docs/topics/webhooks/verify-webhook).
//
// Models and their inputs (Replicate model pages, "Input schema"):
// - image-to-video, kwaivgi/kling-v2.1: `{ prompt, start_image, duration: 5 | 10, mode: "standard" | "pro" }`
//   (standard 720p, pro 1080p).
// - text-to-video, kwaivgi/kling-v1.6-standard and kwaivgi/kling-v2.1-master:
//   `{ prompt, duration: 5 | 10, aspect_ratio: "16:9" | "9:16" | "1:1" }`.
// - talking presenter, bytedance/omni-human: `{ image, audio }`.
// Files go in as URLs or data URIs, both of which Replicate takes for a file input.
import { z } from "zod";
import { CLIP_SERVICE, type ClipGenerator, type ClipHandle, type ClipRequest, type ClipStatus, MAX_CLIP_BYTES } from "./clip-generator.ts";
import {
  type ClipCallOptions,
  type ClipModels,
  cachedValue,
  checkedMp4,
  clipCall,
  DEFAULT_CLIP_CALLS,
  fiveOrTen,
  mediaReference,
  REFUSED_TEXT,
  required,
  videoAspect,
} from "./clip-inputs.ts";
import { ProviderError } from "./provider-error.ts";
import { providerBytes, providerJson } from "./provider-http.ts";
import { verifyStandardWebhook } from "./webhook-signatures.ts";

export const REPLICATE_CLIP_MODELS: ClipModels = {
  "image-to-video": { standard: "kwaivgi/kling-v2.1", premium: "kwaivgi/kling-v2.1" },
  "text-to-video": { standard: "kwaivgi/kling-v1.6-standard", premium: "kwaivgi/kling-v2.1-master" },
  "talking-presenter": { standard: "bytedance/omni-human", premium: "bytedance/omni-human" },
};

const API = "https://api.replicate.com/v1";

const Prediction = z.object({
  id: z.string().min(1),
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled"]),
  output: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  error: z.unknown().optional(),
  metrics: z.object({ video_output_duration_seconds: z.number().optional() }).passthrough().nullish(),
});
type Prediction = z.output<typeof Prediction>;
const Secret = z.object({ key: z.string().startsWith("whsec_") });
const WebhookBody = z.object({ id: z.string().min(1) });

export interface ReplicateClipOptions {
  models?: Partial<ClipModels>;
  calls?: Partial<ClipCallOptions>;
}

function replicateInput(request: ClipRequest): Record<string, unknown> {
  const duration = fiveOrTen(request.durationSec);
  switch (request.kind) {
    case "image-to-video":
      return {
        prompt: request.prompt,
        start_image: mediaReference(required(request.image, "a picture")),
        duration,
        mode: request.tier === "premium" ? "pro" : "standard",
      };
    case "text-to-video":
      return { prompt: request.prompt, duration, aspect_ratio: videoAspect(request.aspect) };
    case "talking-presenter":
      if (!request.image && request.avatarId) throw new ProviderError(`${CLIP_SERVICE} needs a photo of the presenter`, "refused");
      return {
        image: mediaReference(required(request.image, "a photo of the presenter")),
        audio: mediaReference(required(request.audio, "the voice-over")),
      };
  }
}

/** The create call for a model: by name, or by version when pinned as `owner/name:version`. */
function createCall(model: string): { url: string; version?: string } {
  const [name, version] = model.split(":", 2);
  return version ? { url: `${API}/predictions`, version } : { url: `${API}/models/${name}/predictions` };
}

function statusOf(prediction: Prediction): ClipStatus {
  switch (prediction.status) {
    case "starting":
      return { state: "queued" };
    case "processing":
      return { state: "running" };
    case "succeeded":
      return { state: "done" };
    case "canceled":
      return { state: "failed", message: `${CLIP_SERVICE} stopped making the clip` };
    case "failed": {
      const reason = typeof prediction.error === "string" ? prediction.error : "";
      return REFUSED_TEXT.test(reason)
        ? { state: "refused", message: `${CLIP_SERVICE} refused the clip's content or input` }
        : { state: "failed", message: `${CLIP_SERVICE} could not make the clip` };
    }
  }
}

export function createReplicateClips(token: string, options: ReplicateClipOptions = {}): ClipGenerator {
  const models: ClipModels = { ...REPLICATE_CLIP_MODELS, ...options.models };
  const calls = { ...DEFAULT_CLIP_CALLS, ...options.calls };
  const headers = { authorization: `Bearer ${token}` };
  const secret = cachedValue(async () => {
    const body = await providerJson(`${API}/webhooks/default/secret`, Secret, {
      headers,
      timeoutMs: calls.callTimeoutMs,
      service: CLIP_SERVICE,
    });
    return body.key;
  }, 24 * 3600_000);
  const prediction = (handle: ClipHandle, signal?: AbortSignal) =>
    clipCall(`${API}/predictions/${encodeURIComponent(handle.id)}`, Prediction, { headers, signal, calls });

  return {
    provider: "replicate",
    kinds: ["image-to-video", "text-to-video", "talking-presenter"],
    stockAvatars: false,

    async submit(request) {
      const model = models[request.kind][request.tier];
      const { url, version } = createCall(model);
      const created = await clipCall(url, Prediction, {
        headers,
        json: {
          ...(version ? { version } : {}),
          input: replicateInput(request),
          ...(request.webhookUrl ? { webhook: request.webhookUrl, webhook_events_filter: ["completed"] } : {}),
        },
        signal: request.signal,
        calls,
      });
      return { provider: "replicate", id: created.id, model, submittedAt: new Date().toISOString() };
    },

    async check(handle, signal) {
      return statusOf(await prediction(handle, signal));
    },

    async fetchResult(handle, signal) {
      const done = await prediction(handle, signal);
      const status = statusOf(done);
      if (status.state === "refused") throw new ProviderError(status.message, "refused");
      if (status.state === "failed") throw new ProviderError(status.message, "unavailable");
      if (status.state !== "done") throw new ProviderError(`${CLIP_SERVICE} has not finished the clip yet`, "unavailable");
      const url = Array.isArray(done.output) ? done.output[0] : done.output;
      if (!url) throw new ProviderError(`${CLIP_SERVICE} finished without a clip`, "malformed");
      const bytes = checkedMp4(await providerBytes(url, { timeoutMs: 120_000, signal, service: CLIP_SERVICE, maxBytes: MAX_CLIP_BYTES }));
      const durationSec = done.metrics?.video_output_duration_seconds;
      return { bytes, ...(durationSec ? { durationSec } : {}) };
    },

    async verifyWebhook(rawBody, webhookHeaders) {
      let verified = verifyStandardWebhook(rawBody, webhookHeaders, await secret.get());
      if (!verified) {
        // The secret may have been rotated since we cached it: look once more (at most once a minute).
        const fresh = await secret.refresh();
        verified = fresh ? verifyStandardWebhook(rawBody, webhookHeaders, fresh) : null;
      }
      if (!verified) return null;
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        return null;
      }
      const parsed = WebhookBody.safeParse(body);
      return parsed.success ? { id: parsed.data.id } : null;
    },
  };
}
