// The words of an ad from a language model, when one is configured (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL).
// The built-in director plans the ad first (beats, timing, colours, pictures, motion); the model then
// rewrites each scene's on-screen copy from the same brief, and the built-in plan keeps everything else.
// Its answer must follow the storyboard's shape and limits and name the product; anything else is refused
// and the built-in director's copy is rendered, with a warning in the result. Without a model, nothing
// here runs and the built-in director stays deterministic.
import { z } from "zod";
import { workflowName } from "@adgen/schema";
import { type LanguageModel, LanguageModelError } from "../../language-model/chat-completions.ts";
import type { Scene } from "../../render/types.ts";
import type { ArtDirectionInput } from "./art-direction.ts";
import type { ArtDirection } from "./step-types.ts";
import { briefForWriter } from "./brief-reading.ts";
import { BODY_MAX, HEADLINE_MAX } from "./copy.ts";
import { fitScene } from "./scene-fit.ts";
import { scoreStoryboard } from "./creative-score.ts";
import { ownCapitals } from "./copy-grammar.ts";
import { lineProblem } from "./line-check.ts";
import { lineDefect } from "./screen-defects.ts";

const CTA_MAX = 30;
const TITLE_MAX = 60;

/** What the model answers: a title and, for each scene of the plan in order, its copy. */
function answerSchema(sceneCount: number) {
  const text = (max: number) => z.string().trim().min(1).max(max);
  return z.object({
    title: text(TITLE_MAX),
    scenes: z
      .array(z.object({ headline: text(HEADLINE_MAX), body: text(BODY_MAX).nullable(), cta: text(CTA_MAX).nullable() }))
      .length(sceneCount),
  });
}

/** The same shape as JSON Schema, for `response_format` (strict mode: every key required, no others). */
function answerJsonSchema(sceneCount: number): Record<string, unknown> {
  const nullable = (max: number) => ({ type: ["string", "null"], maxLength: max });
  return {
    type: "object",
    additionalProperties: false,
    required: ["title", "scenes"],
    properties: {
      title: { type: "string", maxLength: TITLE_MAX },
      scenes: {
        type: "array",
        minItems: sceneCount,
        maxItems: sceneCount,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["headline", "body", "cta"],
          properties: { headline: { type: "string", maxLength: HEADLINE_MAX }, body: nullable(BODY_MAX), cta: nullable(CTA_MAX) },
        },
      },
    },
  };
}

const INSTRUCTIONS = [
  "You write the on-screen copy of a short social video ad, scene by scene.",
  "Use only facts the brief gives: never invent prices, numbers, awards, guarantees or claims.",
  "The brief's notOnScreen direction and tone say how the ad looks and sounds: never write them on screen.",
  "Keep each scene's role and order. The first scene stops the scroll; the last scene names the product and carries the call to action.",
  `Headlines at most ${HEADLINE_MAX} characters, supporting lines at most ${BODY_MAX}, calls to action at most ${CTA_MAX}. Plain words, no hashtags, no emoji.`,
  "Answer only the JSON the schema asks for.",
].join("\n");

function brief(input: ArtDirectionInput, direction: ArtDirection, product: string) {
  const { request, brand, page, knowledge } = input;
  return {
    product,
    workflow: workflowName(request.type),
    framework: direction.framework,
    // Direction and tone sentences are notes, apart from the lines the ad may say.
    ...briefForWriter(request),
    seasonal: request.seasonal ?? null,
    brand: brand
      ? {
          name: brand.brandName ?? brand.name ?? null,
          tone: brand.brandVoice ?? brand.tone ?? null,
          values: brand.brandValues ?? null,
          product: brand.productDescription ?? null,
          audience: brand.targetAudience ?? null,
        }
      : null,
    page: page ? { title: page.title, description: page.description } : null,
    facts: knowledge ?? [],
    draft: direction.storyboard.scenes.map((scene) => ({
      role: scene.id.replace(/^scene-\d+-/, ""),
      headline: scene.headline,
      body: scene.body ?? null,
      cta: scene.cta ?? null,
    })),
  };
}

export interface WrittenDirection<D extends ArtDirection> {
  direction: D;
  /** Said in the result when the model's copy could not be used. */
  warning?: string;
}

const FALLBACK = "The language model's copy could not be used";

/** The plan with the model's copy, or the plan as the built-in director wrote it and a warning. */
export async function writeWithModel<D extends ArtDirection>(
  model: LanguageModel,
  input: ArtDirectionInput,
  direction: D,
  signal?: AbortSignal,
): Promise<WrittenDirection<D>> {
  const planned = direction.storyboard;
  const product = planned.brand.name;
  const count = planned.scenes.length;
  let answer: unknown;
  try {
    answer = await model.structured({
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: JSON.stringify(brief(input, direction, product)) },
      ],
      schemaName: "ad_copy",
      schema: answerJsonSchema(count),
      signal,
    });
  } catch (error) {
    if (!(error instanceof LanguageModelError)) throw error;
    return { direction, warning: `${FALLBACK} (the model ${error.message}); the built-in director wrote this ad` };
  }
  const parsed = answerSchema(count).safeParse(answer);
  if (!parsed.success) {
    return { direction, warning: `${FALLBACK} (its answer did not follow the storyboard's shape); the built-in director wrote this ad` };
  }
  const copy = parsed.data;
  const named = copy.scenes
    .map((s) => `${s.headline} ${s.body ?? ""}`)
    .join(" ")
    .toLowerCase();
  if (!named.includes(product.toLowerCase())) {
    return { direction, warning: `${FALLBACK} (it never named ${product}); the built-in director wrote this ad` };
  }
  // The model's lines are judged like the built-in copywriter's: a line that is not English a copywriter
  // would sign (a cut clause, a glued question, a list of values, wrong case), or that says again what an
  // earlier scene said, is replaced by the built-in director's line for that scene.
  const names = [product, ...ownCapitals([input.request.concept, input.brand?.productDescription, input.page?.description])];
  const said = new Set<string>();
  const judged = (line: string | null, fallback: string | undefined): string | undefined => {
    const key = (text: string) => text.toLowerCase().replace(/[.!?]+$/, "");
    const ok = line && !lineProblem(line, names) && !lineDefect(line) && !said.has(key(line));
    const chosen = ok ? line : fallback;
    if (chosen && key(chosen) !== key(product)) said.add(key(chosen));
    return chosen ?? undefined;
  };
  const scenes: Scene[] = planned.scenes.map((scene, i) => {
    const raw = copy.scenes[i]!;
    const headline = judged(raw.headline, scene.headline) ?? scene.headline;
    const line = { ...raw, headline, body: raw.body === null ? null : (judged(raw.body, scene.body) ?? null) };
    const { body: _body, cta: _cta, ...rest } = scene;
    // The closing scene always asks for the action, in the model's words or the plan's.
    const cta = line.cta ?? (i === count - 1 ? scene.cta : undefined);
    const written = { ...rest, headline: line.headline, ...(line.body ? { body: line.body } : {}), ...(cta ? { cta } : {}) };
    // The model's lines are fitted like the director's (no ellipsis, cut only where a clause ends); a scene
    // whose line cannot fit keeps the plan's.
    return fitScene(written, planned.brand, direction.formats) ?? scene;
  });
  const storyboard = { ...planned, title: copy.title, scenes };
  return { direction: { ...direction, storyboard, creativeScore: scoreStoryboard(storyboard, direction.formats, product) } };
}
