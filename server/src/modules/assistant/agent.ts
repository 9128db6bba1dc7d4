// One turn of a conversation: the account's message in, a stream of events out (text pieces as the
// answer is produced, each tool call with its result, then `done` with the thread id), both saved on
// the thread. A pending launch is settled here, before any assistant runs: the user's "yes" launches
// it; any other message drops it, so nothing launches without an explicit confirmation. The "yes" is
// itself a tool call (confirm_launch, a `workflow.launch`): a caller that may not launch is refused it,
// whoever proposed the launch.
import { ChatQueryInput, type ChatStreamEvent, type ToolCallView } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { AppError, parseInput } from "../../errors.ts";
import { builtInTurn, describeResult } from "./built-in.ts";
import { modelTurn } from "./model-agent.ts";
import { claimPendingLaunch, confirmsLaunch, declinesLaunch, launchConfirmed } from "./pending-launch.ts";
import { previousToolCall } from "./context.ts";
import { CONFIRM_LAUNCH, refusalOf } from "./tool-gate.ts";
import { addMessage, createThread, findOwnThread, threadMessages, toMessageView } from "./threads.ts";
import type { AgentEvent, AgentTurn } from "./types.ts";

/** Pieces of an answer as a reader would take them in: sentence by sentence. */
export function textPieces(text: string): string[] {
  return text.match(/[^.!?\n]*(?:[.!?]+|\n+|$)\s*/g)?.filter((p) => p.length > 0) ?? (text ? [text] : []);
}

/** Checks the request and opens (or starts) the thread before the stream begins, so refusals are 4xx. */
export async function startChatTurn(
  services: Services,
  user: AssistantUser,
  input: z.input<typeof ChatQueryInput>,
  signal: AbortSignal,
): Promise<AsyncIterable<ChatStreamEvent>> {
  const { message, threadId } = parseInput(ChatQueryInput, input);
  const thread = threadId ? await findOwnThread(services, user, threadId) : await createThread(services, user, message);
  const history = (await threadMessages(services, thread.id, 40)).map((m) => {
    const view = toMessageView(m);
    return { role: view.role, content: view.content, toolCalls: view.toolCalls };
  });
  const asked = await addMessage(services, thread.id, { role: "user", content: message });
  return runTurn(services, user, { threadId: thread.id, message, history }, asked, signal);
}

async function* settlePendingLaunch(
  services: Services,
  user: AssistantUser,
  turn: AgentTurn,
  messageId: string,
): AsyncGenerator<AgentEvent, boolean> {
  const confirming = confirmsLaunch(turn.message);
  const pending = await claimPendingLaunch(services, turn.threadId);
  if (!pending) {
    // "yes, launch it" right after an estimate asks for that launch: the assistant proposes it.
    if (!confirming || previousToolCall(turn.history)?.name === "estimate_launch") return false;
    yield { type: "text", text: "There is nothing waiting for your confirmation. Ask me to launch a workflow first." };
    return true;
  }
  if (!confirming) {
    if (declinesLaunch(turn.message)) {
      yield { type: "text", text: `Dropped: I did not launch ${pending.summary}, and nothing was charged.` };
      return true;
    }
    yield { type: "text", text: `I did not launch ${pending.summary}. ` };
    return false;
  }
  let result: unknown = await refusalOf(user, CONFIRM_LAUNCH);
  try {
    result ??= await launchConfirmed(services, user, pending, messageId);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    result = { launched: false, error: error.message };
  }
  yield { type: "tool", tool: { name: CONFIRM_LAUNCH.name, arguments: { ...pending.request }, result } };
  yield { type: "text", text: describeResult(CONFIRM_LAUNCH.name, result) };
  return true;
}

async function* runTurn(
  services: Services,
  user: AssistantUser,
  turn: AgentTurn,
  asked: { id: string; createdAt: Date },
  signal: AbortSignal,
): AsyncGenerator<ChatStreamEvent> {
  const toolCalls: ToolCallView[] = [];
  let answer = "";
  const relay = function* (event: AgentEvent): Generator<ChatStreamEvent> {
    if (event.type === "tool") {
      toolCalls.push(event.tool);
      yield { type: "tool", threadId: turn.threadId, tool: event.tool };
      return;
    }
    if (event.type === "error") {
      yield { type: "error", threadId: turn.threadId, error: event.message };
      return;
    }
    for (const piece of textPieces(event.text)) {
      answer += piece;
      yield { type: "text", threadId: turn.threadId, text: piece };
    }
  };
  const settling = settlePendingLaunch(services, user, turn, asked.id);
  let step = await settling.next();
  while (!step.done) {
    yield* relay(step.value);
    step = await settling.next();
  }
  if (!step.value) {
    const assistant = services.config.languageModel ? modelTurn(services, user, turn, signal) : builtInTurn(services, user, turn);
    for await (const event of assistant) yield* relay(event);
  }
  const saved = await addMessage(services, turn.threadId, { role: "assistant", content: answer.trim(), toolCalls }, asked.createdAt);
  yield { type: "done", threadId: turn.threadId, messageId: saved.id, text: answer.trim() };
}

/** A whole turn at once (voice): the reply's text, with the thread it was saved on. */
export async function askAssistant(services: Services, user: AssistantUser, input: z.input<typeof ChatQueryInput>, signal: AbortSignal) {
  let done: ChatStreamEvent | null = null;
  const toolCalls: ToolCallView[] = [];
  for await (const event of await startChatTurn(services, user, input, signal)) {
    if (event.type === "tool" && event.tool) toolCalls.push(event.tool);
    if (event.type === "done") done = event;
  }
  return { threadId: done!.threadId, reply: done!.text ?? "", toolCalls };
}
