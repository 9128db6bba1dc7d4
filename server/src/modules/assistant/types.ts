// Types the assistant's files share: a turn and the events an answer is made of (agent.ts drives them,
// built-in.ts and model-agent.ts produce them) and a launch as the tools take it (tools.ts reads it,
// pending-launch.ts holds it until confirmed). Types only, so those files need not import each other.
import type { ToolCallView, WorkflowType } from "@adgen/schema";
import type { HistoryMessage } from "./context.ts";

export interface AgentTurn {
  threadId: string;
  message: string;
  /** The thread before this message, oldest first, with the tool calls each answer made. */
  history: HistoryMessage[];
}

export type AgentEvent =
  | { type: "text"; text: string }
  | { type: "tool"; tool: ToolCallView }
  /** The answer could not be finished (a model failed mid-answer): said in words, then `done`. */
  | { type: "error"; message: string };

/** A launch as the tools take it: the fields of POST /api/workflow a conversation can fill (tools.ts validates them). */
export interface LaunchArgs {
  type: WorkflowType;
  concept?: string | undefined;
  url?: string | undefined;
  quality?: "standard" | "premium" | undefined;
  formats?: string[] | undefined;
  /** The brand to launch for (one of the account's brand ids); the default brand when left out. */
  brand?: string | undefined;
}
