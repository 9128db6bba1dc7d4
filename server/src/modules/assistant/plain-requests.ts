// Plain requests the built-in assistant answers before its keyword intents (follow-up.ts asks this first):
// an answer to its own question ("Which workflow should I launch?" → "a static ad please"), and questions
// about credits, brands and the account's ads in the words people use ("how many credits do I have left",
// "which brands do I have", "where are my videos"). Answers link to what they name ([name](/path)).
import { WORKFLOWS, type WorkflowType } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { listBrands } from "../brand/brand-profile.ts";
import type { HistoryMessage } from "./context.ts";
import { workflowIn } from "./intent.ts";

export type PlainReading =
  | { tool: "launch_workflow" | "estimate_launch"; args: { type: WorkflowType; concept?: string; url?: string } }
  | { tool: "project_status"; args: Record<string, never> }
  | { tool: null; reply: string };

/** The question the assistant asked in its last answer, when it asked which workflow to launch or estimate. */
const ASKED_WHICH = /Which workflow should I (launch|estimate)\?/;

/** A workflow named by its display name as well as its words ("Static Ad", "Multi-Format", "Presenter"). */
function workflowNamedIn(message: string): WorkflowType | null {
  const text = message.toLowerCase().replace(/[^a-z0-9]+/g, " ");
  const byName = WORKFLOWS.find((w) =>
    text.includes(
      w.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim(),
    ),
  );
  return byName?.type ?? workflowIn(message);
}

const CREDITS =
  /\b(how many|how much|what'?s|what is|check|show|see|tell me)\b.*\b(credits?|balance)\b|\b(credits?|balance)\b.*\b(left|remaining|have|got|now)\b|^\s*(my )?(credits?|balance)\s*\??\s*$/i;
const BRANDS = /\b(which|what|list|show|see|my|our)\b.*\bbrands?\b(?!\s+(film|clone))|\bbrands?\b.*\b(do i have|have i got|saved)\b/i;
const MY_ADS =
  /\b(where|show|see|list|find|open)\b.*\b(my|our)\b.*\b(videos?|ads?|projects?|jobs?|results?|renders?|downloads?)\b|\b(is|are) my (ad|ads|video|videos|job|jobs) (ready|done|finished)\b|\bwhat (did|have) i (made|make|created|create)\b/i;

const WANTS = /\b(please|i want|i'?d like|i would like|give me|can i (get|have)|can you do|let'?s (do|try|go with))\b/i;

/** The user's message before the assistant's last answer (what they asked to be launched). */
function earlierRequest(history: readonly HistoryMessage[]): string | null {
  const lastAnswer = history.map((m) => m.role).lastIndexOf("assistant");
  return lastAnswer > 0 ? (history[lastAnswer - 1]?.role === "user" ? history[lastAnswer - 1]!.content : null) : null;
}

export async function plainRequest(
  services: Services,
  user: AssistantUser,
  message: string,
  history: readonly HistoryMessage[],
): Promise<PlainReading | null> {
  const lastAnswer = [...history].reverse().find((m) => m.role === "assistant");
  const asked = lastAnswer?.content.match(ASKED_WHICH)?.[1];
  if (asked) {
    const type = workflowNamedIn(message);
    if (type) {
      const earlier = earlierRequest(history);
      const url = `${earlier ?? ""} ${message}`.match(/https?:\/\/[^\s<>"')]+/i)?.[0]?.replace(/[.,;]+$/, "");
      const concept = earlier
        ?.replace(/https?:\/\/\S+/gi, "")
        .replace(/^\s*(please\s+)?(launch|run|start|make|create|generate|produce)\s+(me\s+)?(an?\s+)?(ad|ads|video|something)?\s*/i, "")
        .trim();
      const tool = asked === "launch" ? "launch_workflow" : "estimate_launch";
      return {
        tool,
        args: { type, ...(concept && concept.length >= 3 ? { concept: concept.slice(0, 2000) } : {}), ...(url ? { url } : {}) },
      };
    }
  }
  if (CREDITS.test(message) && !/\b(cost|costs|price|would|will)\b/i.test(message) && !workflowIn(message)) {
    const account = await services.prisma.user.findUnique({ where: { id: user.id }, select: { creditsBalance: true } });
    const n = account?.creditsBalance ?? 0;
    return {
      tool: null,
      reply: `You have ${n} credit${n === 1 ? "" : "s"}. A Static Ad costs ${WORKFLOWS.find((w) => w.type === "staticad")?.standard ?? 1}; [buy more credits](/billing) when you need them.`,
    };
  }
  if (BRANDS.test(message) && !/\b(doing|perform|results?)\b/i.test(message)) {
    const brands = (await listBrands(services, user)).map((b) => b.brandName || b.name || "Unnamed brand");
    return {
      tool: null,
      reply: brands.length
        ? `Your brand${brands.length === 1 ? " is" : "s are"} ${brands.join(", ")} (the first is the default). Change them on the [Brand page](/brand).`
        : "You have no brand yet: add one on the [Brand page](/brand), and ads will use its name, colours and logo.",
    };
  }
  if (MY_ADS.test(message)) return { tool: "project_status", args: {} };
  // "A static ad please", "I'd like a Presenter ad": a request for a workflow without the word launch.
  const wanted = WANTS.test(message) ? workflowNamedIn(message) : null;
  if (wanted && !/\b(cost|costs|price|how much|estimate)\b/i.test(message)) return { tool: "launch_workflow", args: { type: wanted } };
  return null;
}
