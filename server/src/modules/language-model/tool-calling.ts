// Tool calling through the same OpenAI-compatible chat-completions endpoint as chat-completions.ts
// (https://platform.openai.com/docs/api-reference/chat/create): the request offers `tools` (functions
// with JSON Schema parameters) and the answer's message carries either text or `tool_calls`, whose
// results go back as `role: "tool"` messages naming the call's id. chatWithTools asks for one round at
// once; the assistant streams each round instead (tool-streaming.ts), with the same request.
import { z } from "zod";
import { type LanguageModelConfig, LanguageModelError, postChatCompletion } from "./chat-completions.ts";

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text, unvalidated). */
  arguments: string;
}

export type ToolChatMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolRoundAnswer {
  content: string | null;
  toolCalls: ModelToolCall[];
}

const Completion = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string().default("{}") }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

/** The request of one round, streamed or not: the messages and the tools offered as functions. */
export function toolRequestBody(request: { messages: ToolChatMessage[]; tools: ToolSpec[] }) {
  return {
    messages: request.messages,
    tools: request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
    tool_choice: "auto",
    temperature: 0.3,
  };
}

/** A whole (not streamed) completion's answer: text, or tool calls; anything else is a LanguageModelError. */
export function readToolRound(body: unknown): ToolRoundAnswer {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) throw new LanguageModelError("answered without a chat completion", "malformed");
  const message = parsed.data.choices[0]!.message;
  if (message.refusal) throw new LanguageModelError("refused the request", "refused");
  const toolCalls = (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
  if (!toolCalls.length && !message.content) throw new LanguageModelError("answered an empty message", "malformed");
  return { content: message.content ?? null, toolCalls };
}

/** One round: the model answers text, or asks for tool calls (the assistant streams: tool-streaming.ts). */
export async function chatWithTools(
  config: LanguageModelConfig,
  request: { messages: ToolChatMessage[]; tools: ToolSpec[]; signal?: AbortSignal; timeoutMs?: number },
): Promise<ToolRoundAnswer> {
  const body = await postChatCompletion(config, toolRequestBody(request), {
    ...(request.signal ? { signal: request.signal } : {}),
    timeoutMs: request.timeoutMs ?? 60_000,
  });
  return readToolRound(body);
}
