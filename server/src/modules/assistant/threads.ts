// Chat threads and their messages: each account sees only its own (another account's thread is 404,
// the same answer as one that does not exist).
import type { ChatMessage, ChatThread, Prisma } from "@adgen/prisma";
import type { ChatMessageView, ChatThreadView, ToolCallView } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AssistantAccount } from "./assistant-user.ts";
import { Errors } from "../../errors.ts";
import type { PendingLaunch } from "./pending-launch.ts";

const TITLE_MAX = 80;

export async function findOwnThread(services: Services, user: AssistantAccount, threadId: string): Promise<ChatThread> {
  const thread = await services.prisma.chatThread.findUnique({ where: { id: threadId } });
  if (!thread || thread.userId !== user.id) throw Errors.notFound("Thread");
  return thread;
}

/** A new thread, titled by its first message. */
export async function createThread(services: Services, user: AssistantAccount, firstMessage: string): Promise<ChatThread> {
  const flat = firstMessage.replace(/\s+/g, " ").trim();
  const title = flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1).replace(/\s+\S*$/, "")}…` : flat;
  return services.prisma.chatThread.create({ data: { userId: user.id, title } });
}

export async function addMessage(
  services: Services,
  threadId: string,
  message: { role: "user" | "assistant"; content: string; toolCalls?: ToolCallView[] },
  /** The message it answers: an answer is stored strictly after it, so history keeps their order. */
  after?: Date,
): Promise<ChatMessage> {
  const createdAt = new Date(Math.max(Date.now(), (after?.getTime() ?? 0) + 1));
  const [saved] = await services.prisma.$transaction([
    services.prisma.chatMessage.create({
      data: {
        threadId,
        createdAt,
        role: message.role,
        content: message.content,
        toolCalls: (message.toolCalls ?? []) as Prisma.InputJsonValue,
      },
    }),
    services.prisma.chatThread.update({ where: { id: threadId }, data: { updatedAt: new Date() } }),
  ]);
  return saved;
}

/** The thread's messages, oldest first (the model's context and the history). */
export async function threadMessages(services: Services, threadId: string, limit = 200): Promise<ChatMessage[]> {
  const newest = await services.prisma.chatMessage.findMany({
    where: { threadId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return newest.reverse();
}

export const toMessageView = (m: ChatMessage): ChatMessageView => ({
  id: m.id,
  role: m.role === "assistant" ? "assistant" : "user",
  content: m.content,
  toolCalls: (m.toolCalls ?? []) as ToolCallView[],
  createdAt: m.createdAt.toISOString(),
});

function pendingView(value: unknown): ChatThreadView["pendingLaunch"] {
  if (!value || typeof value !== "object") return null;
  const pending = value as PendingLaunch;
  return { type: pending.request.type, cost: pending.cost, summary: pending.summary };
}

/** The account's threads, most recently active first, each with its messages. */
export async function chatHistory(services: Services, user: AssistantAccount): Promise<{ threads: ChatThreadView[] }> {
  const threads = await services.prisma.chatThread.findMany({
    where: { userId: user.id },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: 100,
    include: { messages: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 500 } },
  });
  return {
    threads: threads.map((t) => ({
      id: t.id,
      title: t.title,
      pendingLaunch: pendingView(t.pendingLaunch),
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
      messages: t.messages.map(toMessageView),
    })),
  };
}
