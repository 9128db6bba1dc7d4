// The assistant (SPEC 4.7): a question answered over a stream, the threads it keeps, and the tool calls
// it made on the way (name, arguments, result), shared by the server, the transports and the SPA.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

export const CHAT_MESSAGE_MAX = 2000;

export const ChatQueryInput = z.object({
  message: z
    .string({ error: "message is required: what you want to ask the assistant" })
    .trim()
    .min(1, { error: "message is required: what you want to ask the assistant" })
    .max(CHAT_MESSAGE_MAX, { error: `message must be at most ${CHAT_MESSAGE_MAX} characters` }),
  threadId: z.string({ error: "threadId must be the id of one of your threads" }).trim().min(1).max(100).optional(),
});
export type ChatQueryInput = z.input<typeof ChatQueryInput>;

/** One tool call as the assistant made it: the tool, what it was asked, what it answered. */
export const ToolCallView = z
  .object({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    result: z.unknown(),
  })
  .meta({ title: "AssistantToolCall" });
export type ToolCallView = z.infer<typeof ToolCallView>;

/**
 * One event of an answer's stream. SSE names it by `type`: `text` (a piece of the answer, in order),
 * `tool` (a tool call with its result), `error` (the answer could not be finished: `error` says why in
 * words; what was said is kept), `done` (last: the thread and the whole answer).
 */
export const ChatStreamEvent = z
  .object({
    type: z.enum(["text", "tool", "error", "done"]),
    threadId: z.string(),
    text: z.string().optional(),
    tool: ToolCallView.optional(),
    error: z.string().optional(),
    messageId: z.string().optional(),
  })
  .meta({ title: "AssistantEvent" });
export type ChatStreamEvent = z.infer<typeof ChatStreamEvent>;

export const ChatMessageView = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    content: z.string(),
    toolCalls: z.array(ToolCallView),
    createdAt: IsoDateTime,
  })
  .meta({ title: "AssistantMessage" });
export type ChatMessageView = z.infer<typeof ChatMessageView>;

export const ChatThreadView = z
  .object({
    id: z.string(),
    title: z.string(),
    /** A launch proposed and not yet confirmed: what it would run and cost. */
    pendingLaunch: z.object({ type: z.string(), cost: z.number().int(), summary: z.string() }).nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
    messages: z.array(ChatMessageView),
  })
  .meta({ title: "AssistantThread" });
export type ChatThreadView = z.infer<typeof ChatThreadView>;

export const ChatHistory = z.object({ threads: z.array(ChatThreadView) }).meta({ title: "AssistantHistory" });
export type ChatHistory = z.infer<typeof ChatHistory>;
