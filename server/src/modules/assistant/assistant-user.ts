// The account the assistant acts for, as its handlers pass it (the signed-in account, read once the
// invocation let the call through): its id and role, and what a launch checks (plan, trial, balance).
import type { LaunchAccount } from "../workflows/launch/admission.ts";

export type AssistantUser = LaunchAccount & { role: string };
