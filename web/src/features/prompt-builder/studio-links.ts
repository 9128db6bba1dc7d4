// Where a built prompt goes next: the studio, opened with it as the run's direction notes or as a
// generation model's prompt.
import { LAUNCH_PROMPT_MODEL, LAUNCH_TEXT_MAX, type LaunchPromptKind } from "@adgen/schema";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc.ts";

/** The studio workflow a builder's prompt suits: a still for the image builder, a filmed ad otherwise. */
const STUDIO_TYPE: Record<string, string> = { image: "staticad", "video-cinematic": "cinematic", "video-ugc": "cinematic" };
/** The generation model's prompt a builder's prompt suits: a picture's for the image builder, a clip's otherwise. */
const MODEL_PROMPT: Record<string, LaunchPromptKind> = { image: "picture", "video-cinematic": "clip", "video-ugc": "clip" };

/**
 * The studio, opened with the subject as the concept and this prompt as the run's direction notes, or (where
 * the instance has the generation model) as its picture or clip prompt. Lengths are the launch's own.
 */
export function studioHref(builder: string, subject: string, prompt: string, as: "direction" | LaunchPromptKind = "direction"): string {
  const params = new URLSearchParams({
    type: STUDIO_TYPE[builder] ?? "cinematic",
    concept: subject.trim().slice(0, LAUNCH_TEXT_MAX.concept),
    ...(as === "direction"
      ? { direction: prompt.slice(0, LAUNCH_TEXT_MAX.direction) }
      : { [`${as}Prompt`]: prompt.slice(0, LAUNCH_TEXT_MAX.prompt) }),
  });
  return `/studio?${params.toString()}`;
}

/** Which model prompt this builder's prompt can feed here: only where a provider key gives the instance that model. */
export function useModelPrompt(builder: string): LaunchPromptKind | null {
  const trpc = useTRPC();
  const studio = useQuery(trpc.public.studio.queryOptions());
  const kind = MODEL_PROMPT[builder];
  if (!kind || !studio.data) return null;
  const { kind: modelKind, model } = LAUNCH_PROMPT_MODEL[kind];
  return studio.data.models[modelKind].some((m) => m.id === model) ? kind : null;
}
