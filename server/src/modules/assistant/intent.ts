// What the built-in assistant reads in a message: the intent it names (a tool and its arguments), or
// that it asks what the assistant can do. Apart from built-in.ts so that follow-up.ts can read a
// message the same way without importing the assistant that imports it.
import { WORKFLOWS, type WorkflowType } from "@adgen/schema";

function priceList(): string {
  const prices = WORKFLOWS.map((w) => `${w.name} (${w.type}) ${w.standard} credit${w.standard === 1 ? "" : "s"}`).join(", ");
  return `Name one: ${prices}.`;
}

/** The words that name each workflow, besides its type id and its name. */
const TYPE_WORDS: [WorkflowType, RegExp][] = [
  ["staticad", /\bstatic(\s*ads?)?\b|\bstills?\b/i],
  ["painpoint", /\bpain[\s-]?points?\b/i],
  ["cinematic", /\bcinematic\b|\bdirector\b/i],
  ["avatar", /\bavatar\b|\bpresenter\b/i],
  ["factory", /\bfactory\b|\bmulti[\s-]?format\b/i],
  ["clone", /\bclone\b|\binspiration\b/i],
  ["influencer", /\binfluencer\b|\bcreator\b/i],
  ["brand", /\bbrand (film|clone)\b/i],
  ["ad-optimizer", /\bad[\s-]?optimi[sz]er\b|\boptimi[sz]e\b/i],
  ["local-audit", /\blocal[\s-]?audit\b|\baudit\b/i],
];

export function workflowIn(message: string): WorkflowType | null {
  for (const [type, words] of TYPE_WORDS) if (words.test(message)) return type;
  return null;
}

const urlIn = (message: string) => message.match(/https?:\/\/[^\s<>"')]+/i)?.[0]?.replace(/[.,;]+$/, "");

/** The brief of a launch: what follows "about"/"for"/a colon, else the whole message. */
function conceptIn(message: string): string {
  const match = message.match(/(?:\babout\b|\bfor\b|:)\s+(.{3,})$/i);
  return (match?.[1] ?? message)
    .replace(/https?:\/\/\S+/gi, "")
    .trim()
    .slice(0, 2000);
}

type Intent =
  | { tool: "read_performance"; args: { days: number } }
  | { tool: "plan_campaign"; args: { weeks: number; budgetCredits?: number; goal: string; url?: string } }
  | { tool: "estimate_launch" | "launch_workflow"; args: { type: WorkflowType; concept: string; url?: string; quality?: "premium" } }
  | { tool: "search_knowledge"; args: { query: string } }
  | { tool: "project_status"; args: { projectId?: string } }
  | { tool: null; reply: string }
  /** Asked what it can do, or asked for something it cannot: answered with the account's own examples. */
  | { tool: null; help: "asked" | "cannot" };

const number = (re: RegExp, message: string) => {
  const found = message.match(re)?.[1];
  return found ? Number(found) : undefined;
};

const ASKS_WHAT_IT_CAN_DO =
  /^\s*(help|\?|hi|hello|hey)\b|\bwhat (can|could|do) you (do|help)|\bhow (can|do) you help\b|\bwhat are you\b|\b(your )?(capabilities|commands|features)\b/i;

export function recogniseIntent(message: string): Intent {
  const text = message.toLowerCase();
  const type = workflowIn(message);
  const url = urlIn(message);
  const quality = /\bpremium\b/.test(text) ? ("premium" as const) : undefined;
  const launchArgs = (t: WorkflowType) => ({
    type: t,
    concept: conceptIn(message),
    ...(url ? { url } : {}),
    ...(quality ? { quality } : {}),
  });
  if (/\b(launch|run|start|make|create|generate|produce)\b/.test(text) && !/\bplan\b/.test(text)) {
    if (type) return { tool: "launch_workflow", args: launchArgs(type) };
    return { tool: null, reply: `Which workflow should I launch? ${priceList()}` };
  }
  if (/\b(estimate|cost|costs|how much|price|credits? (would|will|does))\b/.test(text) && !/\b(plan|campaign)\b/.test(text)) {
    if (type) return { tool: "estimate_launch", args: launchArgs(type) };
    return { tool: null, reply: `Which workflow should I estimate? ${priceList()}` };
  }
  if (/\b(plan|campaign|schedule|calendar)\b/.test(text)) {
    const weeks = Math.min(12, Math.max(1, number(/(\d+)[\s-]*weeks?\b/, text) ?? (/\bmonth\b/.test(text) ? 4 : 4)));
    const budgetCredits = number(/(\d+)\s*credits?\b/, text);
    return {
      tool: "plan_campaign",
      args: { weeks, ...(budgetCredits ? { budgetCredits } : {}), goal: message.slice(0, 500), ...(url ? { url } : {}) },
    };
  }
  if (/\b(status|progress|queued|processing|finished|my projects|latest project|jobs?)\b/.test(text)) {
    const projectId = message.match(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i)?.[0];
    return { tool: "project_status", args: projectId ? { projectId } : {} };
  }
  if (/\b(perform\w*|results?|stats|statistics|analytics|how (are|is) (my|our)|doing|success rate|spent|spend)\b/.test(text)) {
    return { tool: "read_performance", args: { days: number(/(\d+)\s*days?\b/, text) ?? 30 } };
  }
  const knowledge = text.match(
    /\b(?:what do (?:we|i|you) know about|search (?:my |our |the )?(?:brand |knowledge )*(?:for|about)?|knowledge (?:about|on|of)|tell me about|facts? about)\s+(.+)$/,
  );
  if (knowledge?.[1] || /\b(knowledge|brand facts)\b/.test(text)) {
    const query = (knowledge?.[1] ?? text.replace(/\b(search|my|our|brand|knowledge|base|the|for|about|in)\b/g, " "))
      .replace(/[?!.]+$/, "")
      .trim();
    if (query) return { tool: "search_knowledge", args: { query } };
  }
  return { tool: null, help: ASKS_WHAT_IT_CAN_DO.test(text) ? "asked" : "cannot" };
}
