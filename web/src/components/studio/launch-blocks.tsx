// What stands between this account and a launch (no credits, an ended trial, a workflow its plan does
// not include), and what unlocks it. Billing does not exist yet, so nothing can be bought in the app:
// credits, plans and trial extensions all come from an administrator, and the words say so plainly.
import { RESERVED_WORKFLOW_PLANS, RESERVED_WORKFLOW_TYPES } from "@adgen/schema";
import { planName } from "../../lib/format.ts";
import type { LaunchProblem } from "../../lib/workflow.ts";

/** Whether the account's plan leaves this workflow type out (the server answers 403 to its launch). */
export function isReservedOn(type: string, planId: string | undefined): boolean {
  if (!planId) return false;
  return (RESERVED_WORKFLOW_TYPES as readonly string[]).includes(type) && (RESERVED_WORKFLOW_PLANS as readonly string[]).includes(planId);
}

/** "the Trial plan", for sentences. */
export function planPhrase(planId: string | undefined): string {
  return planId ? `the ${planName(planId)} plan` : "your plan";
}

/** One sentence: why a reserved workflow cannot be launched and what unlocks it. */
export function reservedReason(planId: string | undefined): string {
  return `Not included in ${planPhrase(planId)}. Any paid plan unlocks it; an administrator can change your plan.`;
}

/** What unlocks a blocked launch, in words: there is no checkout yet, so it names who can help. */
export function remedyFor(kind: LaunchProblem["kind"]): string | null {
  if (kind === "credits") {
    return "Credits cannot be bought in the app yet: an administrator adds them to your account. Ask yours for more credits, then launch again.";
  }
  if (kind === "trial") return "An administrator can extend your trial or move your account to a paid plan.";
  if (kind === "reserved") return "Any paid plan includes it. Plans cannot be bought in the app yet: an administrator can change yours.";
  return null;
}

/** The problem's title, message and remedy; used under the cost estimate and after a refused launch. */
export function LaunchBlockDetails({ problem, message }: { problem: LaunchProblem; message?: string }) {
  const remedy = remedyFor(problem.kind);
  return (
    <>
      <p className="alert-title">{problem.kind === "other" ? problem.message : problem.title}</p>
      {problem.kind !== "other" ? <p>{message ?? problem.message}</p> : null}
      {remedy ? (
        <p className="alert-hint" data-testid="launch-remedy">
          {remedy}
        </p>
      ) : null}
    </>
  );
}
