// Whether Launch is on, and why not: the server would refuse it whatever the form says when the type is
// not on the plan (known up front), the Ad Optimizer has no finished ad to improve, or the current
// estimate says credits or the trial stand in the way.
import { useQuery } from "@tanstack/react-query";
import type { WorkflowType } from "@adgen/schema";
import { useTRPC } from "../../trpc.ts";
import type { CostEstimateState } from "./cost-estimate.tsx";
import { isReservedOn, remedyFor } from "./launch-blocks.tsx";

export type LaunchBlock = "reserved" | "no-project" | "credits" | "trial" | null;

export function useLaunchGate(type: WorkflowType, typeName: string, planId: string | undefined, estimate: CostEstimateState) {
  const trpc = useTRPC();
  const reserved = isReservedOn(type, planId);
  // The Ad Optimizer improves one of the account's finished ads: with none there is nothing to launch.
  const projects = useQuery({ ...trpc.projects.list.queryOptions(), enabled: type === "ad-optimizer" });
  const nothingToImprove = type === "ad-optimizer" && projects.data !== undefined && !projects.data.some((p) => p.status === "completed");
  const blockedBy: LaunchBlock = reserved
    ? "reserved"
    : nothingToImprove
      ? "no-project"
      : estimate.problem && estimate.problem.kind !== "other"
        ? estimate.problem.kind
        : null;
  return { blockedBy, nothingToImprove, launchNote: launchNoteFor(blockedBy, typeName) };
}

/** The reason in short beside the button; the estimate above says it in full, with what unlocks it. */
function launchNoteFor(blockedBy: LaunchBlock, typeName: string): string | null {
  switch (blockedBy) {
    case "credits":
      return "Launch is off: your balance does not cover this run.";
    case "trial":
      return "Launch is off: your trial has ended.";
    case "reserved":
      return `Launch is off: ${typeName} is not on your plan. ${remedyFor("reserved")}`;
    case "no-project":
      return "Launch is off: the Ad Optimizer improves one of your finished ads, and you have none yet. Make an ad with another workflow (a Static Ad is ready in about a minute), then come back to improve it.";
    default:
      return null;
  }
}
