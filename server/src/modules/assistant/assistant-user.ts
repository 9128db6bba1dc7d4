// The account the assistant acts for, as its handlers pass it (the signed-in account, read once the
// invocation let the call through): its id and role, and what a launch checks (plan, trial, balance);
// with the credential it asked with, and the invocation path's admission for that credential, since a
// tool call is an operation call and passes the same rule as the operation it stands for.
import type { ApiKeyScope } from "@adgen/schema";
import type { LaunchAccount } from "../workflows/launch/admission.ts";

/** How the caller proved who it is: a session (cookie or JWT), or an API key of a scope. */
export type AssistantCredential = { kind: "session" } | { kind: "api_key"; scope: ApiKeyScope };

/** The account alone, for what reads or keeps its own rows (threads, voice sessions) and runs no tool. */
export type AssistantAccount = LaunchAccount & { role: string };

export type AssistantUser = AssistantAccount & {
  credential: AssistantCredential;
  /**
   * Resolves when this caller may call the catalogue operation of that name (`workflow.launch`), else
   * throws that operation's refusal (403 for a read-only key, 503 in maintenance). Given by the
   * operations layer (operations/assistant-caller.ts): the rule is invoke.ts's `admit`, not a copy.
   */
  mayCall(operation: string): Promise<void>;
};
