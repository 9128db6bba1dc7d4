// Pictures through Replicate's predictions API (https://replicate.com/docs/reference/http): create with
// `POST https://api.replicate.com/v1/models/{owner}/{name}/predictions` (`Authorization: Bearer …`,
// `Prefer: wait` so a fast model answers at once), poll `urls.get` until `succeeded`, `failed` or
// `canceled`, then fetch `output` (a URL or a list of URLs). A failure that names unsafe content is
// refused content, not retried.
import { z } from "zod";
import { ProviderError } from "./provider-error.ts";
import { providerBytes, providerJson, withRetries } from "./provider-http.ts";
import { DEFAULT_POLL, MAX_PICTURE_BYTES, type PictureGenerator, type PollOptions, SERVICE } from "./picture-generator.ts";

const Prediction = z.object({
  id: z.string(),
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled"]),
  output: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  error: z.unknown().optional(),
  urls: z.object({ get: z.string().url() }),
});

const UNSAFE = /nsfw|safety|unsafe|sensitive|flagged/i;

export function createReplicatePictures(token: string, options: { model?: string; poll?: Partial<PollOptions> } = {}): PictureGenerator {
  const model = options.model ?? "black-forest-labs/flux-schnell";
  const poll = { ...DEFAULT_POLL, ...options.poll };
  const headers = { authorization: `Bearer ${token}` };
  return {
    provider: "replicate",
    async generate({ prompt, aspect, signal }) {
      const deadline = Date.now() + poll.timeoutMs;
      const call = (url: string, json?: unknown, extra: Record<string, string> = {}) =>
        withRetries(
          () =>
            providerJson(url, Prediction, {
              headers: { ...headers, ...extra },
              json,
              timeoutMs: poll.callTimeoutMs,
              signal,
              service: SERVICE,
            }),
          {
            tries: poll.tries,
            backoffMs: poll.pollMs,
            signal,
          },
        );
      let prediction = await call(
        `https://api.replicate.com/v1/models/${model}/predictions`,
        { input: { prompt, aspect_ratio: aspect, output_format: "png", num_outputs: 1 } },
        { prefer: "wait=60" },
      );
      while (prediction.status === "starting" || prediction.status === "processing") {
        if (Date.now() > deadline) throw new ProviderError(`${SERVICE} did not finish within ${poll.timeoutMs / 1000} s`, "timeout");
        await new Promise((resolve) => setTimeout(resolve, poll.pollMs));
        prediction = await call(prediction.urls.get);
      }
      if (prediction.status !== "succeeded") {
        const reason = typeof prediction.error === "string" ? prediction.error : "";
        throw new ProviderError(
          UNSAFE.test(reason) ? `${SERVICE} refused the picture's content` : `${SERVICE} could not make the picture`,
          UNSAFE.test(reason) || prediction.status === "canceled" ? "refused" : "unavailable",
        );
      }
      const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
      if (!url) throw new ProviderError(`${SERVICE} finished without a picture`, "malformed");
      return withRetries(() => providerBytes(url, { timeoutMs: 60_000, signal, service: SERVICE, maxBytes: MAX_PICTURE_BYTES }), {
        tries: poll.tries,
        backoffMs: poll.pollMs,
        signal,
      });
    },
  };
}
