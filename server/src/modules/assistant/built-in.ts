// The built-in assistant (no language model configured): it recognises the main intents by their words,
// calls the same tools a model would, and answers from their results with the real numbers. Asked what
// it can do, or for something it cannot, it answers with what it can do (capabilities.ts).
import { type WorkflowType, workflowName } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import type { AgentEvent, AgentTurn } from "./types.ts";
import { readInContext } from "./follow-up.ts";
import { runTool } from "./run-tool.ts";
import { describeRefusal, isRefusal } from "./tool-gate.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const percent = (value: number | null) => (value === null ? "n/a" : `${(value * 100).toFixed(2)} %`);
const times = (value: number | null) => (value === null ? "n/a" : `${value.toFixed(2)}×`);

/** The ads' figures in words: the totals, each creative's CTR and ROAS, and the decaying ones. */
function adsSummary(ads: { totals: any; creatives: any[] } | undefined): string {
  if (!ads?.creatives.length) return "";
  const { totals } = ads;
  const each = ads.creatives
    .map(
      (c) =>
        `${c.name ?? c.creativeId}: ${c.impressions} impressions, CTR ${percent(c.ctr)}, ROAS ${times(c.roas)}${c.decaying ? " (decaying)" : ""}${c.stopped ? " (stopped)" : ""}`,
    )
    .join("; ");
  const decaying = ads.creatives.filter((c) => c.decaying);
  const warning = decaying.length ? ` ${decaying.map((c) => `${c.name ?? c.creativeId} is decaying: ${c.decayReason}`).join(" ")}` : "";
  return `Your ads had ${totals.impressions} impressions, ${totals.clicks} clicks and ${totals.conversions} conversions (CTR ${percent(totals.ctr)}), spent ${totals.spend.toFixed(2)} and brought ${totals.revenue.toFixed(2)} (ROAS ${times(totals.roas)}). ${each}.${warning} `;
}

/** The answer to a tool's result, in words, with its numbers. */
export function describeResult(tool: string, result: any): string {
  if (isRefusal(result)) return describeRefusal(result);
  if (result && typeof result === "object" && typeof result.error === "string") return `I could not do that: ${result.error}.`;
  switch (tool) {
    case "read_performance": {
      const types = Object.entries(result.projectsByType as Record<string, { total: number; completed: number }>)
        .map(([type, t]) => `${workflowName(type as WorkflowType)}: ${t.completed} of ${t.total} completed`)
        .join("; ");
      const ads = adsSummary(result.ads);
      if (result.totalProjects === 0)
        return `${ads}In the last ${result.days} days you made no projects${ads ? "" : ", so there is nothing to measure yet. Launch a first ad and ask me again"}.`;
      const rate = result.successRate === null ? "none finished yet" : `${Math.round(result.successRate * 100)} % succeeded`;
      return `${ads}In the last ${result.days} days you made ${plural(result.totalProjects, "project")}: ${result.completed} completed, ${result.failed} failed, ${result.inProgress} in progress (${rate}). You used ${plural(result.creditsUsed, "credit")} (${result.creditsCharged} charged, ${result.creditsRefunded} refunded). By workflow: ${types}.`;
    }
    case "plan_campaign": {
      const weeks = (result.weeks as any[])
        .map(
          (w) =>
            `Week ${w.week} (from ${w.startsOn}), ${w.focus}: ${w.launches.map((l: any) => `${l.workflow} in ${l.formats.join(", ")} on ${l.day}, ${plural(l.credits, "credit")}`).join("; ") || "nothing within the budget"}.`,
        )
        .join("\n");
      const left = result.leftOut.length
        ? ` Left out to stay within ${result.budgetCredits} credits: ${result.leftOut.map((l: any) => `${l.workflow} (week ${l.week}, ${l.credits})`).join(", ")}.`
        : "";
      return `Here is a ${result.weeks.length}-week plan for ${plural(result.totalCredits, "credit")} (budget ${result.budgetCredits}, from ${result.budgetFrom}; your balance is ${result.balance}).\n${weeks}\n${left.trim()}`.trim();
    }
    case "estimate_launch": {
      const base = `${workflowName(result.type)} (${result.quality}) in ${result.formats.join(", ")} costs ${plural(result.cost, "credit")}; your balance is ${result.balance}.`;
      return result.blockedBy ? `${base} It would not go through now: ${result.message}` : `${base} You can launch it now.`;
    }
    case "launch_workflow":
      if (!result.proposed) return `I can't launch that now: ${result.message ?? "it is blocked"}.`;
      return `Ready to launch ${result.summary}; your balance is ${result.estimate.balance}. Nothing is charged yet: reply "yes" to launch it, or anything else to drop it.`;
    case "confirm_launch":
      return result.launched
        ? `Launched: ${result.message} [Open the project](/studio/jobs/${result.jobId}) to follow it; it is ${result.status}.`
        : `I could not launch it: ${result.error}`;
    case "search_knowledge":
      if (!result.passages.length)
        return `Your brand knowledge has nothing about "${result.query}". Add files or pages under Brand → Knowledge and ask again.`;
      return `From your brand knowledge about "${result.query}": ${result.passages.map((p: any) => `"${p.passage}" (${p.source})`).join(" ")}`;
    case "project_status": {
      if (!result.projects.length) return "You have no projects yet.";
      return `Your ${result.projects.length === 1 ? "project" : `latest ${result.projects.length} projects`}: ${result.projects
        .map(
          (p: any) =>
            `[${p.name}](/studio/jobs/${p.id}) (${p.workflow}) is ${p.status}${p.status === "processing" ? ` at ${p.progress} %` : ""}, ${plural(p.creditsUsed, "credit")}${p.refunded ? " refunded" : ""}`,
        )
        .join("; ")}.`;
    }
    default:
      return JSON.stringify(result);
  }
}

/** One ad of a performance answer, picked by a follow-up ("the second one"), with its fresh figures. */
function describeFocus(result: any, focus: { creativeId: string; position: string }): string {
  if (result && typeof result.error === "string") return describeResult("read_performance", result);
  const ad = (result.ads?.creatives as any[] | undefined)?.find((c) => c.creativeId === focus.creativeId);
  if (!ad) return `The ${focus.position} ad (${focus.creativeId}) has no figures in the last ${result.days} days.`;
  const verdict = ad.decaying ? `It is decaying: ${ad.decayReason}` : ad.decayReason;
  return `The ${focus.position} ad, ${ad.name ?? ad.creativeId}, in the last ${result.days} days: ${ad.impressions} impressions, ${ad.clicks} clicks and ${ad.conversions} conversions (CTR ${percent(ad.ctr)}); it spent ${ad.spend.toFixed(2)} and brought ${ad.revenue.toFixed(2)} (ROAS ${times(ad.roas)}).${ad.stopped ? " It is stopped." : ""} ${verdict}`;
}

/**
 * The built-in assistant's turn: the message read in its thread (a follow-up, a pick from the last list,
 * a revision, or a question of its own), its tool call, and the answer from the tool's result.
 */
export async function* builtInTurn(services: Services, user: AssistantUser, turn: AgentTurn): AsyncGenerator<AgentEvent> {
  const reading = await readInContext(services, user, turn.message, turn.history);
  if (reading.tool === null) {
    yield { type: "text", text: reading.reply };
    return;
  }
  const call = await runTool(services, user, reading.tool, reading.args, { threadId: turn.threadId });
  yield { type: "tool", tool: { name: reading.tool, ...call } };
  const answer = reading.focus ? describeFocus(call.result, reading.focus) : describeResult(reading.tool, call.result);
  yield { type: "text", text: `${reading.preface ?? ""}${answer}` };
}
