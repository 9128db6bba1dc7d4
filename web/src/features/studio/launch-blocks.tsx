// What stands between this account and a launch (no credits, an ended trial, a workflow its plan does
// not include), and what unlocks it: credits and plans are bought on the Billing page, linked from here.
import { RESERVED_WORKFLOW_PLANS, RESERVED_WORKFLOW_TYPES } from "@adgen/schema";
import { Link } from "wouter";
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
  return `Not included in ${planPhrase(planId)}. Any paid plan unlocks it: choose one on the Billing page.`;
}

/** What unlocks a blocked launch, in words; the details below add the link to Billing. */
export function remedyFor(kind: LaunchProblem["kind"]): string | null {
  if (kind === "credits") return "Buy a credit pack or choose a plan on the Billing page, then launch again.";
  if (kind === "trial") return "Choose a plan or buy credits on the Billing page to keep launching workflows.";
  if (kind === "reserved") return "Any paid plan includes it: choose one on the Billing page.";
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
          {remedy}{" "}
          <Link href={problem.kind === "credits" ? "/billing" : "/billing#plans"} data-testid="launch-remedy-billing">
            Go to Billing
          </Link>
        </p>
      ) : null}
    </>
  );
}
