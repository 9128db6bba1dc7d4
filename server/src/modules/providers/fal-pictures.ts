// Pictures through fal's queue API (https://docs.fal.ai/model-apis/model-endpoints/queue): submit to
// `POST https://queue.fal.run/{model}` with `Authorization: Key …`, poll the answered `status_url` until
// `COMPLETED`, read `response_url` for `{ images: [{ url, width, height }], has_nsfw_concepts }`, fetch
// the image. A flagged picture is refused content, not retried.
import { z } from "zod";
import { ProviderError } from "./provider-error.ts";
import { providerBytes, providerJson, withRetries } from "./provider-http.ts";
import { DEFAULT_POLL, MAX_PICTURE_BYTES, type PictureGenerator, type PollOptions, SERVICE } from "./picture-generator.ts";

const Submitted = z.object({ request_id: z.string(), status_url: z.string().url(), response_url: z.string().url() });
const Status = z.object({ status: z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]), error: z.string().nullish() });
const Output = z.object({
  images: z.array(z.object({ url: z.string() })).min(1),
  has_nsfw_concepts: z.array(z.boolean()).optional(),
});

/** fal's image_size presets nearest each format. */
const IMAGE_SIZE = { "9:16": "portrait_16_9", "4:5": "portrait_4_3", "1:1": "square_hd", "16:9": "landscape_16_9" } as const;

export function createFalPictures(key: string, options: { model?: string; poll?: Partial<PollOptions> } = {}): PictureGenerator {
  const model = options.model ?? "fal-ai/flux/schnell";
  const poll = { ...DEFAULT_POLL, ...options.poll };
  const headers = { authorization: `Key ${key}` };
  return {
    provider: "fal",
    async generate({ prompt, aspect, signal }) {
      const deadline = Date.now() + poll.timeoutMs;
      const call = <S extends z.ZodType>(url: string, shape: S, json?: unknown) =>
        withRetries(() => providerJson(url, shape, { headers, json, timeoutMs: poll.callTimeoutMs, signal, service: SERVICE }), {
          tries: poll.tries,
          backoffMs: poll.pollMs,
          signal,
        });
      const submitted = await call(`https://queue.fal.run/${model}`, Submitted, {
        prompt,
        image_size: IMAGE_SIZE[aspect],
        num_images: 1,
        enable_safety_checker: true,
      });
      for (;;) {
        const status = await call(submitted.status_url, Status);
        if (status.status === "COMPLETED") {
          if (status.error) throw new ProviderError(`${SERVICE} could not make the picture`, "refused");
          break;
        }
        if (Date.now() > deadline) throw new ProviderError(`${SERVICE} did not finish within ${poll.timeoutMs / 1000} s`, "timeout");
        await new Promise((resolve) => setTimeout(resolve, poll.pollMs));
      }
      const output = await call(submitted.response_url, Output);
      if (output.has_nsfw_concepts?.[0]) throw new ProviderError(`${SERVICE} refused the picture's content`, "refused");
      return withRetries(
        () => providerBytes(output.images[0]!.url, { timeoutMs: 60_000, signal, service: SERVICE, maxBytes: MAX_PICTURE_BYTES }),
        {
          tries: poll.tries,
          backoffMs: poll.pollMs,
          signal,
        },
      );
    },
  };
}
