// Pictures from a remote text-to-image model, behind one interface: the fal queue API and Replicate
// predictions fill it, so the pipeline asks for "a picture of this scene" and never knows who drew it.
import type { AspectRatio } from "@adgen/schema";

export type PictureProvider = "fal" | "replicate";

export interface PictureRequest {
  prompt: string;
  aspect: AspectRatio;
  signal?: AbortSignal;
}

export interface PictureGenerator {
  readonly provider: PictureProvider;
  /** The picture's bytes (PNG, JPEG or WebP, as the model made it), or a ProviderError. */
  generate(request: PictureRequest): Promise<Buffer>;
}

export interface PollOptions {
  /** Between status checks. */
  pollMs: number;
  /** The whole generation, submit to file. */
  timeoutMs: number;
  /** One HTTP call (Replicate's create waits up to 60 s for a fast model). */
  callTimeoutMs: number;
  /** Tries of each transient failure. */
  tries: number;
}

export const DEFAULT_POLL: PollOptions = { pollMs: 1000, timeoutMs: 180_000, callTimeoutMs: 70_000, tries: 3 };

/** The largest picture a model may hand back (a 2048² PNG is well under this). */
export const MAX_PICTURE_BYTES = 25 * 1024 * 1024;

export const SERVICE = "The picture service";
