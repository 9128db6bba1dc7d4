// Clips through fal's queue API (https://docs.fal.ai/model-apis/model-endpoints/queue):
// `POST https://queue.fal.run/{model}` (`Authorization: Key …`, the model's JSON input, `?fal_webhook=` for a
// callback) answers `{ request_id, status_url, response_url, cancel_url }`; `GET status_url` answers
// `{ status: IN_QUEUE | IN_PROGRESS | COMPLETED, error? }`; `GET response_url` answers the model's output,
// `{ video: { url, content_type, file_size } }` for the video models used here. Webhooks are signed with
// ED25519 by a key from fal's JWKS (https://docs.fal.ai/model-apis/model-endpoints/webhooks).
//
// Models and their inputs (fal model pages, "Input Schema"):
// - image-to-video, Kling 2.1 (fal-ai/kling-video/v2.1/standard|pro/image-to-video):
//   `{ prompt, image_url, duration: "5" | "10", aspect_ratio }`.
// - text-to-video, Kling 1.6 (fal-ai/kling-video/v1.6/standard|pro/text-to-video):
//   `{ prompt, duration: "5" | "10", aspect_ratio: "16:9" | "9:16" | "1:1" }`.
// - talking presenter, OmniHuman (fal-ai/bytedance/omnihuman, …/v1.5): `{ image_url, audio_url }`, the
//   person in the photo speaking the audio; without a photo, one of VEED Avatars' stock presenters
//   (veed/avatars/audio-to-video): `{ avatar_id, audio_url }`.
// Another model id may be configured per kind and tier, as long as it takes the same input.
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
import { type Jwk, verifyFalSignature } from "./webhook-signatures.ts";

export const FAL_CLIP_MODELS: ClipModels = {
  "image-to-video": {
    standard: "fal-ai/kling-video/v2.1/standard/image-to-video",
    premium: "fal-ai/kling-video/v2.1/pro/image-to-video",
  },
  "text-to-video": {
    standard: "fal-ai/kling-video/v1.6/standard/text-to-video",
    premium: "fal-ai/kling-video/v1.6/pro/text-to-video",
  },
  "talking-presenter": { standard: "fal-ai/bytedance/omnihuman", premium: "fal-ai/bytedance/omnihuman/v1.5" },
};

/**
 * A stock presenter by id, speaking given audio: VEED Avatars (veed/avatars/audio-to-video:
 * `{ avatar_id, audio_url }`, ids such as "emily_vertical_primary" on its model page).
 */
export const FAL_STOCK_AVATAR_MODEL = "veed/avatars/audio-to-video";

export const FAL_JWKS_URL = "https://rest.alpha.fal.ai/.well-known/jwks.json";

const Submitted = z.object({ request_id: z.string().min(1), status_url: z.string().url(), response_url: z.string().url() });
const Status = z.object({ status: z.string(), error: z.string().nullish() });
const Output = z.object({
  video: z.object({ url: z.string(), content_type: z.string().optional(), file_size: z.number().nullish() }),
  duration: z.number().optional(),
});
const Jwks = z.object({ keys: z.array(z.object({ kty: z.string(), crv: z.string().optional(), x: z.string().optional() })) });

export interface FalClipOptions {
  models?: Partial<ClipModels>;
  calls?: Partial<ClipCallOptions>;
  /** Where fal's webhook keys are published. */
  jwksUrl?: string;
}

/** The model's JSON input for a request (the direction text goes in `prompt`; nothing else of the job does). */
function falInput(request: ClipRequest): Record<string, unknown> {
  const duration = String(fiveOrTen(request.durationSec));
  const aspect_ratio = videoAspect(request.aspect);
  switch (request.kind) {
    case "image-to-video":
      return { prompt: request.prompt, image_url: mediaReference(required(request.image, "a picture")), duration, aspect_ratio };
    case "text-to-video":
      return { prompt: request.prompt, duration, aspect_ratio };
    case "talking-presenter":
      // One of the provider's stock presenters speaks the voice-over (VEED Avatars on fal).
      if (!request.image && request.avatarId)
        return { avatar_id: request.avatarId, audio_url: mediaReference(required(request.audio, "the voice-over")) };
      return {
        image_url: mediaReference(required(request.image, "a photo of the presenter")),
        audio_url: mediaReference(required(request.audio, "the voice-over")),
      };
  }
}

/** A finished generation's error as a status: refused input or content, else a failure at the provider. */
function unsuccessful(error: string | null | undefined): ClipStatus {
  if (error && REFUSED_TEXT.test(error)) return { state: "refused", message: `${CLIP_SERVICE} refused the clip's content or input` };
  return { state: "failed", message: `${CLIP_SERVICE} could not make the clip` };
}

export function createFalClips(key: string, options: FalClipOptions = {}): ClipGenerator {
  const models: ClipModels = { ...FAL_CLIP_MODELS, ...options.models };
  const calls = { ...DEFAULT_CLIP_CALLS, ...options.calls };
  const headers = { authorization: `Key ${key}` };
  const jwks = cachedValue(async () => {
    const body = await providerJson(options.jwksUrl ?? FAL_JWKS_URL, Jwks, { timeoutMs: calls.callTimeoutMs, service: CLIP_SERVICE });
    return body.keys as Jwk[];
  }, 24 * 3600_000);

  return {
    provider: "fal",
    kinds: ["image-to-video", "text-to-video", "talking-presenter"],
    stockAvatars: true,

    async submit(request) {
      const stock = request.kind === "talking-presenter" && !request.image && request.avatarId;
      const model = stock ? FAL_STOCK_AVATAR_MODEL : models[request.kind][request.tier];
      const input = falInput(request);
      const query = request.webhookUrl ? `?fal_webhook=${encodeURIComponent(request.webhookUrl)}` : "";
      const submitted = await clipCall(`https://queue.fal.run/${model}${query}`, Submitted, {
        headers,
        json: input,
        signal: request.signal,
        calls,
      });
      return {
        provider: "fal",
        id: submitted.request_id,
        model,
        statusUrl: submitted.status_url,
        resultUrl: submitted.response_url,
        submittedAt: new Date().toISOString(),
      };
    },

    async check(handle, signal) {
      const { status, error } = await clipCall(statusUrl(handle), Status, { headers, signal, calls });
      if (status === "IN_QUEUE") return { state: "queued" };
      if (status === "IN_PROGRESS") return { state: "running" };
      if (status === "COMPLETED" && !error) return { state: "done" };
      return unsuccessful(error);
    },

    async fetchResult(handle, signal) {
      const output = await clipCall(resultUrl(handle), Output, { headers, signal, calls });
      if (output.video.file_size && output.video.file_size > MAX_CLIP_BYTES)
        throw new ProviderError(`${CLIP_SERVICE}'s clip is larger than ${MAX_CLIP_BYTES} bytes`, "malformed");
      const bytes = checkedMp4(
        await providerBytes(output.video.url, {
          timeoutMs: 120_000,
          signal,
          service: CLIP_SERVICE,
          maxBytes: MAX_CLIP_BYTES,
        }),
      );
      return { bytes, ...(output.duration ? { durationSec: output.duration } : {}) };
    },

    async verifyWebhook(rawBody, webhookHeaders) {
      const id = verifyFalSignature(rawBody, webhookHeaders, await jwks.get());
      if (id) return { id };
      // fal may have rotated its keys since we cached them: look once more (at most once a minute).
      const fresh = await jwks.refresh();
      const retried = fresh ? verifyFalSignature(rawBody, webhookHeaders, fresh) : null;
      return retried ? { id: retried } : null;
    },
  };
}

/** fal answers these URLs at submit; a handle stored without them falls back to the documented layout. */
function statusUrl(handle: ClipHandle): string {
  return handle.statusUrl ?? `https://queue.fal.run/${appId(handle.model)}/requests/${handle.id}/status`;
}

function resultUrl(handle: ClipHandle): string {
  return handle.resultUrl ?? `https://queue.fal.run/${appId(handle.model)}/requests/${handle.id}`;
}

/** The queue addresses a request by the model's app (owner/name), not its sub-path. */
function appId(model: string): string {
  return model.split("/").slice(0, 2).join("/");
}
