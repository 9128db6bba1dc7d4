// The line that opens an ad, of more than one kind: a question to the viewer, a bold claim, a number, a
// "POV:" line for a creator's post, a problem statement for a pain-point ad. Which kind comes first is the
// type's and the framework's: a pain-point ad names the problem, a creator speaks in the first person, a
// static ad leads with its figure. Every hook is made from the ad's own lines and passes the line checks.
import type { AdCopy } from "./copy.ts";
import { asQuestion } from "./copy-grammar.ts";
import { clauseCuts } from "./copy-lines.ts";
import { lineProblem } from "./line-check.ts";
import { is, parse } from "./sentence-parse.ts";

export type HookKind = "question" | "claim" | "number" | "pov" | "problem";

export interface Hook {
  kind: HookKind;
  line: string;
  /** The copy line it was made from (used up with it, so the ad does not say it again). */
  from: string | null;
  /** A question the brief asks in its own first sentence. */
  written?: boolean;
}

/** Longest hook: it is a headline. */
const HOOK_MAX = 48;

const ORDER_OF_TYPE: Record<string, HookKind[]> = {
  influencer: ["pov", "question", "number", "claim"],
  painpoint: ["problem", "question", "claim", "number"],
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

/** Most words in a hook: it is read at a glance, before anything else is on screen. */
const HOOK_WORDS = 9;

const hasVerb = (line: string) => parse(line).some((w, i) => i > 0 && is(w, "Verb") && !is(w, "Gerund"));
const short = (line: string) => line.length <= HOOK_MAX && line.split(/\s+/).length <= HOOK_WORDS;
/** "Our customers cut theirs by 70%": a pronoun for something said before cannot open the ad. */
const leansOnBefore = (line: string) => /\b(theirs|them|these|those|they|it|its|this one|that one)\b/i.test(line);
/** A figure a hook can lead with: a share, a price, a multiple, a measure or a count of people ("SOC 2", "since 1998" are not). */
const FIGURE =
  /\d\s?%|[$€£]\s?\d|\d\s?(x|×)\b|\b\d[\d,.]*\s*(k\s)?(million\s|thousand\s)?(hours?|minutes?|seconds?|days?|weeks?|months?|years?|grams|kg|lbs?|miles|km|times|customers|users|people|reviews|members|learners|companies|patients|teams|clients|families|homes|businesses)\b/i;

/** What the creator did, by what the ad asks the viewer to do: a clinic is booked, an app downloaded. */
function povVerb(cta: string): string {
  const verb = cta.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return (
    { book: "booked", order: "ordered", download: "downloaded", call: "called", visit: "visited", join: "joined", switch: "switched to" }[
      verb
    ] ?? "tried"
  );
}

/** Every hook the copy can make, by kind, each checked as a line. */
export function hooksOf(copy: AdCopy): Hook[] {
  const names = copy.names;
  const found: Hook[] = [];
  const add = (kind: HookKind, line: string | null | undefined, from: string | null) => {
    if (!line || !short(line) || leansOnBefore(line)) return;
    // A question the brief itself asks ("Homework battles every night?") is the writer's hook, taken as written;
    // a quoted tagline is shown word for word ("Cold at the summit."); every other line is judged.
    const written = (line.endsWith("?") && copy.pains.includes(line)) || line === copy.tagline;
    if (written ? /^\p{Ll}/u.test(line) : lineProblem(line, names)) return;
    if (found.some((hook) => hook.line.toLowerCase() === line.toLowerCase())) return;
    const opening = kind === "question" && from === copy.premise?.trim() && !!from?.endsWith("?");
    found.push({ kind, line, from, ...(opening ? { written: true } : {}) });
  };
  if (copy.tagline) add("claim", copy.tagline, copy.tagline);
  for (const benefit of copy.benefits.filter(hasVerb)) add("claim", benefit.replace(/\.$/, ""), benefit);
  // A rating with its count is proof, kept for the proof scene; other figures may open the ad.
  for (const line of [...copy.proofs, ...copy.benefits, ...copy.offers].filter(
    (l) => FIGURE.test(l) && !/^open\b/i.test(l) && !/\b(rated|reviews?|stars?)\b/i.test(l),
  ))
    add("number", line.replace(/\.$/, ""), line);
  for (const pain of copy.pains) {
    // A question too long to open on is cut where its first clause ends ("Exams in 12 weeks and your teenager is falling behind?" → "Exams in 12 weeks?").
    if (pain.endsWith("?"))
      add("question", short(pain) ? pain : clauseCuts(pain).find((cut) => short(cut) && cut.split(" ").length >= 3), pain);
    else if (hasVerb(pain)) add("problem", pain, pain);
    add("question", asQuestion(pain, "pain", names), pain);
  }
  const premise = copy.premise;
  if (premise) add("question", asQuestion(premise, copy.pains.includes(premise) ? "pain" : "benefit", names), null);
  for (const benefit of copy.benefits.slice(0, 2)) add("question", asQuestion(benefit, "benefit", names), benefit);
  // A creator's first person: what they did, said to the viewer as their point of view.
  const thing = copy.introduction.replace(/^Meet\s+/, "");
  add("pov", `POV: you finally ${povVerb(copy.cta)} ${thing}`, null);
  return found;
}

/** The hooks in the order the type and framework want them: one of each kind first, then the rest. */
export function rankHooks(hooks: readonly Hook[], order: readonly HookKind[]): Hook[] {
  let firsts = order.map((kind) => hooks.find((hook) => hook.kind === kind)).filter((hook): hook is Hook => !!hook);
  // The question the brief opens with ("Scared of the dentist?") is the writer's own hook: it leads, unless
  // the type opens on a creator's point of view or a static ad's figure.
  const asked = hooks.find((hook) => hook.kind === "question" && hook.written);
  if (asked && order[0] !== "pov" && order[0] !== "number") firsts = [asked, ...firsts.filter((hook) => hook.kind !== "question")];
  return [...firsts, ...hooks.filter((hook) => !firsts.includes(hook) && order.includes(hook.kind))];
}
