// chat.*: the assistant (SPEC 4.7). A question is answered as a stream (SSE on REST, a tRPC and a
// GraphQL subscription): text as it is produced, each tool call, then `done` with the thread id.
import { ChatHistory, ChatQueryInput, ChatStreamEvent } from "@adgen/schema";
import { startChatTurn } from "../modules/assistant/agent.ts";
import { chatHistory } from "../modules/assistant/threads.ts";
import { assistantCaller } from "./assistant-caller.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const tag = "Assistant";

export const chatOperations = {
  query: defineOperation({
    summary:
      "Ask the assistant: SSE events text (pieces of the answer), tool (name, arguments, result), error (the answer broke off) and done (the thread id)",
    access: "user",
    kind: "subscription",
    // A question is a request, not a standing connection: it counts in the API budget.
    rateLimit: "api",
    input: ChatQueryInput,
    output: ChatStreamEvent,
    rest: { method: "POST", path: "/chat/query", tag, errors: { 404: "Thread not found" } },
    handler: async (ctx, input, call) => {
      // The question is a read; each tool it leads to is admitted as its own operation call.
      const events = await startChatTurn(ctx.services, assistantCaller(ctx, call), input, call.signal);
      return (async function* () {
        let id = 0;
        for await (const event of events) {
          id += 1;
          yield { id, event: event.type, data: event };
        }
      })();
    },
  }),
  history: defineOperation({
    summary: "Your conversations with the assistant, most recent first, with their messages and tool calls",
    access: "user",
    kind: "query",
    input: NoInput,
    output: ChatHistory,
    rest: { method: "GET", path: "/chat/history", tag },
    handler: (ctx) => chatHistory(ctx.services, signedIn(ctx)),
  }),
};
