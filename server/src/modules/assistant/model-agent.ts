// The assistant through a language model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): the model sees the
// thread (its latest messages, bounded) and the tools, asks for tool calls, gets their results, and
// answers. Every round is streamed: the text is passed on as the model writes it. A launch it asks for
// is only proposed (launch_workflow keeps it for the user's "yes"); the model cannot confirm one.
// A model that fails before saying anything leaves the answer to the built-in assistant; one that fails
// mid-answer ends it with an `error` event, and what it said stays on the thread.
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { LanguageModelError } from "../language-model/chat-completions.ts";
import type { ToolChatMessage } from "../language-model/tool-calling.ts";
import { streamChatWithTools } from "../language-model/tool-streaming.ts";
import type { AgentEvent, AgentTurn } from "./types.ts";
import { builtInTurn } from "./built-in.ts";
import { runTool, toolSpecs } from "./run-tool.ts";

/** Tool rounds per answer: enough for look up, estimate, propose; bounded so a loop cannot run on. */
const MAX_ROUNDS = 5;

/** The thread's earlier messages the model sees: the latest ones, within a character budget. */
const HISTORY_CHARS = 24_000;

export function boundedHistory(history: AgentTurn["history"]): AgentTurn["history"] {
  const kept: AgentTurn["history"] = [];
  let chars = 0;
  for (const message of [...history].reverse()) {
    chars += message.content.length;
    if (chars > HISTORY_CHARS) break;
    kept.unshift(message);
  }
  return kept;
}

const systemPrompt = () =>
  [
    "You are the assistant of AdGen, a service that makes video and still ads for social media.",
    "Answer briefly and use the tools for every figure: never invent numbers.",
    "launch_workflow only proposes a launch; tell the user to reply yes to launch it. Nothing is charged before that.",
    `Today is ${new Date().toISOString().slice(0, 10)}.`,
  ].join(" ");

export async function* modelTurn(
  services: Services,
  user: AssistantUser,
  turn: AgentTurn,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent> {
  const config = services.config.languageModel!;
  const messages: ToolChatMessage[] = [
    { role: "system", content: systemPrompt() },
    ...boundedHistory(turn.history).map((m) => ({ role: m.role, content: m.content }) as ToolChatMessage),
    { role: "user", content: turn.message },
  ];
  const tools = toolSpecs();
  let spoke = false;
  try {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const stream = streamChatWithTools(config, { messages, tools, signal });
      let step = await stream.next();
      while (!step.done) {
        spoke = true;
        yield { type: "text", text: step.value };
        step = await stream.next();
      }
      const answer = step.value;
      if (!answer.toolCalls.length) return;
      messages.push({
        role: "assistant",
        content: answer.content,
        tool_calls: answer.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      });
      for (const call of answer.toolCalls) {
        // The stream ended (the client left, or its credential was revoked): no tool runs on its behalf.
        signal.throwIfAborted();
        let args: unknown;
        try {
          args = JSON.parse(call.arguments || "{}");
        } catch {
          args = {};
        }
        const ran = await runTool(services, user, call.name, args, { threadId: turn.threadId });
        spoke = true;
        yield { type: "tool", tool: { name: call.name, ...ran } };
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(ran.result) });
      }
    }
    yield { type: "text", text: "I needed more steps than I allow myself for one answer; ask me again more narrowly." };
  } catch (error) {
    if (!(error instanceof LanguageModelError)) throw error;
    services.logger.warn(
      { err: error.message, kind: error.kind, midAnswer: spoke },
      spoke
        ? "assistant: the language model failed mid-answer"
        : "assistant: the language model failed; answering with the built-in assistant",
    );
    if (spoke) {
      yield {
        type: "error",
        message:
          "The language model stopped in the middle of its answer. What it said so far is kept on this thread; ask again to continue.",
      };
      return;
    }
    yield { type: "text", text: "The language model did not answer, so the built-in assistant answers instead. " };
    yield* builtInTurn(services, user, turn);
  }
}
