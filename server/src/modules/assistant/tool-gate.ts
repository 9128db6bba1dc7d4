// A tool call is an operation call: each tool names the catalogue operations it stands for, and before it
// runs, the caller passes the same admission as a call of each of them (`AssistantUser.mayCall`, the
// invocation path's rule). A tool that launches stands for `workflow.launch`, so whoever may not launch
// over REST may not launch by asking either; the refusal is the tool's result, said in the chat.
import { AppError } from "../../errors.ts";
import type { AssistantUser } from "./assistant-user.ts";

/** A tool's name and the catalogue operations whose work it does. */
export interface ToolStandIn {
  name: string;
  standsFor: readonly string[];
}

/** The account's "yes" to a proposed launch (agent.ts): never offered to a model, which cannot confirm. */
export const CONFIRM_LAUNCH: ToolStandIn = { name: "confirm_launch", standsFor: ["workflow.launch"] };

/** A refused tool call's result: the operation's refusal, with its status, and what it was refused. */
export interface ToolRefusal {
  error: string;
  status: number;
  operation: string;
}

/** Null when the caller may run the tool; else the refusal to give as its result. */
export async function refusalOf(user: AssistantUser, tool: ToolStandIn): Promise<ToolRefusal | null> {
  for (const operation of tool.standsFor) {
    try {
      await user.mayCall(operation);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { error: error.message, status: error.status, operation };
    }
  }
  return null;
}

export const isRefusal = (result: unknown): result is ToolRefusal =>
  typeof result === "object" &&
  result !== null &&
  typeof (result as ToolRefusal).error === "string" &&
  typeof (result as ToolRefusal).status === "number" &&
  typeof (result as ToolRefusal).operation === "string";

const STATUS_WORDS: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" };

/** The refusal in the chat's words: the status as the operation would answer it, and that nothing happened. */
export function describeRefusal(refusal: ToolRefusal): string {
  const status = `${refusal.status}${STATUS_WORDS[refusal.status] ? ` ${STATUS_WORDS[refusal.status]}` : ""}`;
  return `Refused (${status}, as ${refusal.operation} answers this credential): ${refusal.error} Nothing was changed or charged.`;
}
