// Video clips from a remote model, behind one interface: image-to-video (animate a product photo or a
// generated picture), text-to-video (b-roll for a scene without a picture) and talking presenters (a
// lip-synced person speaking the voice-over, from a photo or a provider's stock avatar). fal's queue API
// and Replicate predictions fill it.
//
// A generation takes minutes, so the interface is split in three and nothing in it waits: `submit` starts
// one and returns its handle (stored with the job), `check` asks once how it is doing, and `fetchResult`
// brings the finished clip's bytes. A worker submits, stores the handle and lets go of the job; the job is
// picked up again later (or sooner, when the provider's webhook says it is done), so no worker sits blocked
// on a provider and a restart loses nothing. No provider is ever named in anything a user reads.
import type { AspectRatio } from "@adgen/schema";
import type { PictureProvider } from "./picture-generator.ts";

export type ClipKind = "image-to-video" | "text-to-video" | "talking-presenter";

export interface ClipRequest {
  kind: ClipKind;
  /** What happens in the clip: the scene's camera direction and subject (the prompt builder's video prompts). */
  prompt: string;
  aspect: AspectRatio;
  /** Seconds of clip wanted (models round to what they offer, 5 or 10 s for most). */
  durationSec: number;
  /** Standard or premium: premium asks for the model's higher resolution or better model. */
  tier: "standard" | "premium";
  /**
   * The picture to animate (image-to-video) or the presenter's face (talking-presenter): a URL the provider
   * can fetch (a signed link to our media) or the bytes, sent as a data URI.
   */
  image?: { url: string } | { bytes: Buffer; mime: string };
  /** talking-presenter: the voice-over the presenter speaks (WAV or MP3), as for `image`. */
  audio?: { url: string } | { bytes: Buffer; mime: string };
  /** talking-presenter without a photo: the provider's stock avatar id. */
  avatarId?: string;
  /** Where the provider should call back when it is done (our webhook route), when the instance has a public URL. */
  webhookUrl?: string;
  signal?: AbortSignal;
}

/** A started generation, as stored with the job (plain JSON). */
export interface ClipHandle {
  provider: PictureProvider;
  /** The provider's id of the generation. */
  id: string;
  /** The model it runs on (for the cost record; never shown to a user). */
  model: string;
  /** URLs the provider answered for status and result, when it gives them (fal). */
  statusUrl?: string;
  resultUrl?: string;
  submittedAt: string;
}

export type ClipStatus =
  | { state: "queued" | "running" }
  | { state: "done" }
  /** Refused (content, bad input): not worth another try; `message` names no provider. */
  | { state: "refused"; message: string }
  /** Failed at the provider in a way another submit may not repeat. */
  | { state: "failed"; message: string };

export interface ClipResult {
  /** An MP4 (H.264) as the model made it. */
  bytes: Buffer;
  /** Seconds of video, when the provider says. */
  durationSec?: number;
}

export interface ClipGenerator {
  readonly provider: PictureProvider;
  /** Which kinds this provider's configured models can make. */
  readonly kinds: readonly ClipKind[];
  /** Whether a talking presenter can be one of the provider's stock presenters (`avatarId`) instead of a photo. */
  readonly stockAvatars: boolean;
  /** Starts a generation; a ProviderError when the provider refuses or cannot be reached. */
  submit(request: ClipRequest): Promise<ClipHandle>;
  /** One look at how the generation is doing (no waiting). */
  check(handle: ClipHandle, signal?: AbortSignal): Promise<ClipStatus>;
  /** The finished clip; call after `check` said done. */
  fetchResult(handle: ClipHandle, signal?: AbortSignal): Promise<ClipResult>;
  /**
   * Whether a webhook call (its raw body and headers) really comes from this provider, by the signature the
   * provider documents; and which generation it is about.
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | undefined>): Promise<{ id: string } | null>;
}

/** The largest clip a model may hand back. */
export const MAX_CLIP_BYTES = 200 * 1024 * 1024;

export const CLIP_SERVICE = "The video service";
