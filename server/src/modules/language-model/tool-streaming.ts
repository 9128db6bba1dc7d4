// One tool-calling round, streamed: the same OpenAI-compatible chat-completions request as
// tool-calling.ts with `stream: true`, answered as server-sent events
// (https://platform.openai.com/docs/api-reference/chat-streaming): each `data:` line is a chunk whose
// `choices[0].delta` carries a piece of `content`, or pieces of `tool_calls` (by `index`: the id and the
// function name in the first piece, the arguments' JSON text in pieces), and `data: [DONE]` ends it.
// Text pieces are yielded as they arrive; the tool calls are assembled and returned at the end.
import { z } from "zod";
import { type LanguageModelConfig, LanguageModelError } from "./chat-completions.ts";
import {
  type ModelToolCall,
  readToolRound,
  type ToolChatMessage,
  type ToolRoundAnswer,
  type ToolSpec,
  toolRequestBody,
} from "./tool-calling.ts";

const Chunk = z.object({
  error: z.object({ message: z.string().optional() }).passthrough().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().min(0).optional(),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    )
    .default([]),
});

/** How long the model may stay silent between two pieces before the round is given up. */
const IDLE_MS = 60_000;

/** Splits a byte stream into SSE `data:` payloads (other fields and comments are ignored). */
async function* dataLines(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    onChunk();
    buffer += decoder.decode(bytes, { stream: true });
    let newline = buffer.search(/\r?\n/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline).replace(/^\r?\n/, "");
      if (line.startsWith("data:")) yield line.slice(5).trim();
      newline = buffer.search(/\r?\n/);
    }
  }
  if (buffer.startsWith("data:")) yield buffer.slice(5).trim();
}

/**
 * One streamed round: yields each piece of text as the model writes it, and returns the whole answer
 * (its text and the assembled tool calls). A failure before or during the stream is a LanguageModelError.
 */
export async function* streamChatWithTools(
  config: LanguageModelConfig,
  request: { messages: ToolChatMessage[]; tools: ToolSpec[]; signal?: AbortSignal; idleMs?: number },
): AsyncGenerator<string, ToolRoundAnswer> {
  const idleMs = request.idleMs ?? IDLE_MS;
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), idleMs);
  const stillTalking = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), idleMs);
  };
  const signal = request.signal ? AbortSignal.any([request.signal, idle.signal]) : idle.signal;
  const failed = (error: unknown, what: string): never => {
    if (request.signal?.aborted) throw error;
    if (idle.signal.aborted) throw new LanguageModelError(`went silent for ${idleMs / 1000} s ${what}`, "timeout");
    throw new LanguageModelError(`${what} (${(error as Error).message})`, "unavailable");
  };
  try {
    let response: Response;
    try {
      response = await fetch(`${config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${config.apiKey}` },
        body: JSON.stringify({ model: config.model, ...toolRequestBody(request), stream: true }),
        signal,
      });
    } catch (error) {
      return failed(error, "could not be reached");
    }
    if (!response.ok) {
      await response.text().catch(() => "");
      const kind = response.status === 400 || response.status === 422 ? "refused" : "unavailable";
      throw new LanguageModelError(`answered HTTP ${response.status}`, kind);
    }
    // An endpoint that ignores `stream` answers the whole completion at once.
    if (!response.headers.get("content-type")?.includes("text/event-stream") || !response.body) {
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new LanguageModelError("answered something that is neither a stream nor JSON", "malformed");
      }
      const answer = readToolRound(body);
      if (answer.content) yield answer.content;
      return answer;
    }

    let content = "";
    const calls: ModelToolCall[] = [];
    let finished = false;
    try {
      for await (const data of dataLines(response.body, stillTalking)) {
        if (data === "[DONE]") {
          finished = true;
          break;
        }
        if (!data) continue;
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch {
          throw new LanguageModelError("streamed a piece that is not JSON", "malformed");
        }
        const chunk = Chunk.safeParse(json);
        if (!chunk.success) throw new LanguageModelError("streamed a piece that is not a chat completion chunk", "malformed");
        if (chunk.data.error) throw new LanguageModelError("reported an error in the middle of its answer", "unavailable");
        const choice = chunk.data.choices[0];
        if (!choice) continue;
        if (choice.finish_reason) finished = true;
        if (choice.finish_reason === "content_filter") throw new LanguageModelError("refused the content", "refused");
        const delta = choice.delta;
        if (delta?.refusal) throw new LanguageModelError("refused the request", "refused");
        for (const piece of delta?.tool_calls ?? []) {
          const index = piece.index ?? calls.length;
          calls[index] ??= { id: "", name: "", arguments: "" };
          const call = calls[index]!;
          if (piece.id) call.id = piece.id;
          if (piece.function?.name) call.name = piece.function.name;
          if (piece.function?.arguments) call.arguments += piece.function.arguments;
        }
        if (delta?.content) {
          content += delta.content;
          yield delta.content;
        }
      }
    } catch (error) {
      if (error instanceof LanguageModelError) throw error;
      failed(error, "stopped in the middle of its answer");
    }
    if (!finished) throw new LanguageModelError("stopped in the middle of its answer", "unavailable");
    const toolCalls = calls.filter(Boolean).map((call, i) => ({ ...call, id: call.id || `call_${i}` }));
    if (toolCalls.some((call) => !call.name)) throw new LanguageModelError("streamed a tool call without a name", "malformed");
    if (!toolCalls.length && !content) throw new LanguageModelError("answered an empty message", "malformed");
    return { content: content || null, toolCalls };
  } finally {
    clearTimeout(timer);
  }
}
