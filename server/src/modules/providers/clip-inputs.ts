// What the fal and Replicate clip adapters share: how a picture or a voice-over is handed to a model, how
// our durations and formats map to what the video models offer, one HTTP call with retries, and a small
// cache for a provider's signing keys.
import type { AspectRatio } from "@adgen/schema";
import type { z } from "zod";
import { CLIP_SERVICE, type ClipKind, type ClipRequest } from "./clip-generator.ts";
import { ProviderError } from "./provider-error.ts";
import { providerJson, withRetries } from "./provider-http.ts";

/** The model id for each kind and tier (configurable; each adapter documents the input its defaults take). */
export type ClipModels = Record<ClipKind, { standard: string; premium: string }>;

export interface ClipCallOptions {
  /** One HTTP call. */
  callTimeoutMs: number;
  /** Tries of each transient failure (5xx, 429, timeout). */
  tries: number;
  /** Before the second try; doubles after. */
  backoffMs: number;
}

export const DEFAULT_CLIP_CALLS: ClipCallOptions = { callTimeoutMs: 30_000, tries: 3, backoffMs: 1000 };

/** A picture or a voice-over as the models take it: a URL as is, bytes as a data URI (both providers accept them). */
export function mediaReference(media: NonNullable<ClipRequest["image"]>): string {
  return "url" in media ? media.url : `data:${media.mime};base64,${media.bytes.toString("base64")}`;
}

/** The media a request must carry, or a refusal naming what is missing. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ProviderError(`${CLIP_SERVICE} needs ${what} for this clip`, "refused");
  return value;
}

/** Most video models make 5 or 10 seconds; the nearer one, never under what was asked when 10 fits. */
export function fiveOrTen(durationSec: number): 5 | 10 {
  return durationSec > 5 ? 10 : 5;
}

/** The nearest of the three frames video models offer (a 4:5 feed ad is cropped from a square clip). */
export function videoAspect(aspect: AspectRatio): "16:9" | "9:16" | "1:1" {
  if (aspect === "16:9" || aspect === "9:16") return aspect;
  return "1:1";
}

/** One JSON exchange with the video service, retried on transient failures. */
export function clipCall<S extends z.ZodType>(
  url: string,
  shape: S,
  request: { headers: Record<string, string>; json?: unknown; signal?: AbortSignal; calls: ClipCallOptions },
): Promise<z.output<S>> {
  const { calls, signal } = request;
  return withRetries(
    () =>
      providerJson(url, shape, {
        headers: request.headers,
        json: request.json,
        timeoutMs: calls.callTimeoutMs,
        signal,
        service: CLIP_SERVICE,
      }),
    { tries: calls.tries, backoffMs: calls.backoffMs, signal },
  );
}

/**
 * A value loaded at most once per `ttlMs` (a provider's webhook keys). `refresh` loads again, but not more
 * than once a minute, so a stream of forged calls cannot make us hammer the provider.
 */
export function cachedValue<T>(load: () => Promise<T>, ttlMs: number) {
  let value: { data: T; at: number } | null = null;
  let pending: Promise<T> | null = null;
  const fetchNow = async (): Promise<T> => {
    pending ??= load()
      .then((data) => {
        value = { data, at: Date.now() };
        return data;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  return {
    async get(): Promise<T> {
      if (value && Date.now() - value.at < ttlMs) return value.data;
      return fetchNow();
    },
    /** Loads again when the cached value is over a minute old; null when it is not. */
    async refresh(): Promise<T | null> {
      if (value && Date.now() - value.at < 60_000) return null;
      return fetchNow();
    },
  };
}

/** Whether a provider's error text says the content or the input was refused (not worth another try). */
export const REFUSED_TEXT = /nsfw|safety|unsafe|sensitive|flagged|policy|content|moderat|invalid|validation|422|E005/i;

/** The bytes, when they are an ISO media file (an MP4 starts with a box whose type is `ftyp`); else malformed. */
export function checkedMp4(bytes: Buffer): Buffer {
  if (bytes.length < 12 || bytes.toString("latin1", 4, 8) !== "ftyp")
    throw new ProviderError(`${CLIP_SERVICE} answered a clip that is not a video`, "malformed");
  return bytes;
}
