// The line that opens an ad, of more than one kind: a question to the viewer, a bold claim, a number, a
// "POV:" line for a creator's post, a problem statement for a pain-point ad. Which kind comes first is the
// type's and the framework's: a pain-point ad names the problem, a creator speaks in the first person, a
// static ad leads with its figure. Every hook is made from the ad's own lines and passes the line checks.
import type { AdCopy } from "./copy.ts";
import { asQuestion } from "./copy-grammar.ts";
import { lineProblem } from "./line-check.ts";
import { is, parse } from "./sentence-parse.ts";

export type HookKind = "question" | "claim" | "number" | "pov" | "problem";

export interface Hook {
  kind: HookKind;
  line: string;
  /** The copy line it was made from (used up with it, so the ad does not say it again). */
  from: string | null;
}

/** Longest hook: it is a headline. */
const HOOK_MAX = 48;

const ORDER_OF_TYPE: Record<string, HookKind[]> = {
  influencer: ["pov", "question", "number", "claim"],
  painpoint: ["problem", "question", "number", "claim"],
  "local-audit": ["question", "problem", "claim", "number"],
  staticad: ["number", "claim", "question"],
  avatar: ["question", "claim", "number"],
  factory: ["claim", "question", "number", "problem", "pov"],
};
const ORDER_OF_FRAMEWORK: Record<string, HookKind[]> = {
  pas: ["problem", "question", "number", "claim"],
  bant: ["question", "problem", "number", "claim"],
  uvp: ["number", "claim", "question"],
};
const DEFAULT_ORDER: HookKind[] = ["claim", "number", "question", "problem"];

/** The kinds of hook a type and framework open with, best first. */
export function hookOrder(type: string, framework: string): HookKind[] {
  return ORDER_OF_TYPE[type] ?? ORDER_OF_FRAMEWORK[framework] ?? DEFAULT_ORDER;
}

const hasVerb = (line: string) => parse(line).some((w, i) => i > 0 && is(w, "Verb") && !is(w, "Gerund"));
const short = (line: string) => line.length <= HOOK_MAX;

/** Every hook the copy can make, by kind, each checked as a line. */
export function hooksOf(copy: AdCopy): Hook[] {
  const names = copy.names;
  const found: Hook[] = [];
  const add = (kind: HookKind, line: string | null | undefined, from: string | null) => {
    if (!line || !short(line) || lineProblem(line, names)) return;
    if (found.some((hook) => hook.line.toLowerCase() === line.toLowerCase())) return;
    found.push({ kind, line, from });
  };
  if (copy.tagline) add("claim", copy.tagline, copy.tagline);
  for (const benefit of copy.benefits.filter(hasVerb)) add("claim", benefit.replace(/\.$/, ""), benefit);
  // A rating with its count is proof, kept for the proof scene; other figures may open the ad.
  for (const line of [...copy.proofs, ...copy.benefits, ...copy.offers].filter(
    (l) => /\d/.test(l) && !/\b(rated|reviews?|stars?)\b/i.test(l),
  ))
    add("number", line.replace(/\.$/, ""), line);
  for (const pain of copy.pains) {
    if (pain.endsWith("?")) add("question", pain, pain);
    else if (hasVerb(pain)) add("problem", pain, pain);
    add("question", asQuestion(pain, "pain", names), pain);
  }
  const premise = copy.premise;
  if (premise) add("question", asQuestion(premise, copy.pains.includes(premise) ? "pain" : "benefit", names), null);
  for (const benefit of copy.benefits.slice(0, 2)) add("question", asQuestion(benefit, "benefit", names), benefit);
  // A creator's first person: what they did, said to the viewer as their point of view.
  const thing = copy.introduction.replace(/^Meet\s+/, "");
  add("pov", `POV: you finally tried ${thing}`, null);
  return found;
}

/** The hooks in the order the type and framework want them: one of each kind first, then the rest. */
export function rankHooks(hooks: readonly Hook[], order: readonly HookKind[]): Hook[] {
  const firsts = order.map((kind) => hooks.find((hook) => hook.kind === kind)).filter((hook): hook is Hook => !!hook);
  return [...firsts, ...hooks.filter((hook) => !firsts.includes(hook) && order.includes(hook.kind))];
}
