// A launch the assistant proposed waits on its thread until the account answers: "yes" (or "confirm",
// "go ahead") launches it through the normal launch path, charged like any launch; anything else drops
// it. Claiming the pending launch clears it in one statement (answering the value it had), so two quick "yes" launch it once.
import type { Prisma } from "@adgen/prisma";
import { WorkflowRequest, workflowName } from "@adgen/schema";
import { parseInput } from "../../errors.ts";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { estimateWorkflow, launchWorkflow } from "../workflows/launch/launch-workflow.ts";
import type { LaunchArgs } from "./types.ts";

export interface PendingLaunch {
  request: LaunchArgs & { async: true };
  cost: number;
  summary: string;
}

/** The whole message must be a yes ("yes", "Yes, launch it!", "confirm"): "launch a static ad" is a new request. */
const AFFIRMATIVE =
  /^\s*(yes|yeah|yep|yup|y|sure|ok|okay|confirm(ed)?|go( ahead)?|do it|please do)\b[\s,.!]*((please )?(launch|do|run) it|go ahead|please|thanks?( you)?|now)?[\s.!]*$/i;

export const confirmsLaunch = (message: string) => AFFIRMATIVE.test(message);

/** A plain "no" (the SPA's "Drop it" sends one): the launch is dropped and nothing else is asked. */
const NEGATIVE =
  /^\s*(no|nope|nah|n|cancel|stop|drop( it)?|don'?t|do not|not now|never ?mind)\b[\s,.!]*(thanks?( you)?|please|launch( it)?)?[\s.!]*$/i;

export const declinesLaunch = (message: string) => NEGATIVE.test(message);

/** Estimates the launch and, when it could go through, keeps it on the thread for the user's "yes". */
export async function proposeLaunch(services: Services, user: AssistantUser, threadId: string, args: LaunchArgs) {
  const request = { ...args, async: true as const };
  const estimate = await estimateWorkflow(services, user, parseInput(WorkflowRequest, request));
  if (estimate.blockedBy) return { proposed: false, estimate, message: estimate.message };
  const summary = `${workflowName(estimate.type)} (${estimate.quality}) in ${estimate.formats.join(", ")} for ${estimate.cost} credit${estimate.cost === 1 ? "" : "s"}`;
  const pending: PendingLaunch = { request, cost: estimate.cost, summary };
  await services.prisma.chatThread.update({
    where: { id: threadId },
    data: { pendingLaunch: pending as unknown as Prisma.InputJsonValue },
  });
  return { proposed: true, awaitingConfirmation: true, estimate, summary, message: `Reply "yes" to launch ${summary}.` };
}

/** Takes the thread's pending launch (clearing it), if there is one. */
export async function claimPendingLaunch(services: Services, threadId: string): Promise<PendingLaunch | null> {
  const rows = await services.prisma.$queryRaw<{ pending_launch: unknown }[]>`
    UPDATE chat_threads t SET pending_launch = NULL, updated_at = now()
    FROM (SELECT id, pending_launch FROM chat_threads WHERE id = ${threadId} AND pending_launch IS NOT NULL FOR UPDATE) old
    WHERE t.id = old.id RETURNING old.pending_launch`;
  const value = rows[0]?.pending_launch;
  if (!value) return null;
  return (typeof value === "string" ? JSON.parse(value) : value) as PendingLaunch;
}

/** Launches a confirmed launch; the idempotency key ties the charge to this confirmation. */
export async function launchConfirmed(services: Services, user: AssistantUser, pending: PendingLaunch, confirmationId: string) {
  const request = parseInput(WorkflowRequest, pending.request);
  const outcome = await launchWorkflow(services, user, request, { idempotencyKey: `assistant-${confirmationId}` });
  return { launched: true, jobId: outcome.data.jobId, status: outcome.data.status, creditsCharged: outcome.cost, message: outcome.message };
}
