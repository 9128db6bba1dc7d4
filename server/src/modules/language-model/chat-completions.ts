// A language model behind an OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_API_KEY,
// LLM_MODEL): OpenAI, Azure OpenAI, OpenRouter, vLLM, Ollama and most hosted models speak it. One call asks
// for JSON that follows a JSON Schema (`response_format: json_schema`) and answers the parsed object; the
// caller validates it with its own zod schema, since a model may still answer something else.
import { z } from "zod";
import type { LanguageModelConfig } from "../../config/env.ts";

// Declared with the configuration that reads it from the environment (the configuration sits below the domain).
export type { LanguageModelConfig };

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface StructuredRequest {
  messages: ChatMessage[];
  /** Names the schema for the model (letters, digits, `_`, `-`). */
  schemaName: string;
  /** A JSON Schema of the answer. */
  schema: Record<string, unknown>;
  temperature?: number;
  signal?: AbortSignal;
}

export interface LanguageModel {
  /** The parsed JSON the model answered (unvalidated), or a LanguageModelError. */
  structured(request: StructuredRequest): Promise<unknown>;
}

/** Why a model's answer could not be had: said to the operator in logs, and as a plain warning to users. */
export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly kind: "timeout" | "unavailable" | "refused" | "malformed",
  ) {
    super(message);
    this.name = "LanguageModelError";
  }
}

/** The part of a chat-completions answer this client reads (OpenAI's documented shape). */
const Completion = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
});

const TIMEOUT_MS = 60_000;

/**
 * One chat-completions call: POST `<baseUrl>/chat/completions` with `body` (the model is added), within
 * `timeoutMs`; answers the parsed JSON of a 2xx answer, or a LanguageModelError saying what went wrong.
 */
export async function postChatCompletion(
  config: LanguageModelConfig,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<unknown> {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${config.apiKey}` },
      body: JSON.stringify({ model: config.model, ...body }),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timeout.aborted) throw new LanguageModelError(`no answer within ${options.timeoutMs / 1000} s`, "timeout");
    throw new LanguageModelError(`could not be reached (${(error as Error).message})`, "unavailable");
  }
  const text = await response.text();
  if (!response.ok) {
    const kind = response.status === 400 || response.status === 422 ? "refused" : "unavailable";
    throw new LanguageModelError(`answered HTTP ${response.status}`, kind);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LanguageModelError("answered something that is not JSON", "malformed");
  }
}

export function createLanguageModel(config: LanguageModelConfig, options: { timeoutMs?: number } = {}): LanguageModel {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return {
    async structured({ messages, schemaName, schema, temperature = 0.7, signal }) {
      const body = await postChatCompletion(
        config,
        { messages, temperature, response_format: { type: "json_schema", json_schema: { name: schemaName, schema, strict: true } } },
        { ...(signal ? { signal } : {}), timeoutMs },
      );
      const completion = Completion.safeParse(body);
      if (!completion.success) throw new LanguageModelError("answered without a chat completion", "malformed");
      const choice = completion.data.choices[0]!;
      if (choice.message.refusal) throw new LanguageModelError("refused the request", "refused");
      if (choice.finish_reason === "content_filter") throw new LanguageModelError("refused the content", "refused");
      const content = choice.message.content;
      if (!content) throw new LanguageModelError("answered an empty message", "malformed");
      try {
        // Some endpoints wrap the JSON in a Markdown fence even when asked for a schema.
        return JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ""));
      } catch {
        throw new LanguageModelError("answered text that is not the JSON asked for", "malformed");
      }
    },
  };
}
