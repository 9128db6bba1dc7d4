// What the built-in assistant takes from the thread: its earlier messages and the tool calls it made.
// Only plain, checkable references are resolved, each said back in the answer so a wrong guess shows:
// - a follow-up period ("and last week?") re-asks the previous answer's performance question;
// - an ordinal ("the second one", "#2") picks from the list the previous answer gave (projects, ads);
// - "that brand" is the brand the thread last used; a brand's own name is recognised too;
// - a revision ("make it 6 weeks", "double the budget") re-plans the previous answer's campaign.
// A confirmation ("yes", "go ahead") is settled before any assistant runs (pending-launch.ts).
import type { ToolCallView } from "@adgen/schema";

export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
  toolCalls?: ToolCallView[];
}

/** The last tool the previous answer ran (a launch confirmation aside), or null. */
export function previousToolCall(history: readonly HistoryMessage[]): ToolCallView | null {
  const answer = [...history].reverse().find((m) => m.role === "assistant");
  return (answer?.toolCalls ?? []).filter((call) => call.name !== "confirm_launch").at(-1) ?? null;
}

/** The brand the thread used last (a tool call's `brandId` or a launch's `brand`), or null. */
export function lastBrandId(history: readonly HistoryMessage[]): string | null {
  for (const message of [...history].reverse()) {
    for (const call of [...(message.toolCalls ?? [])].reverse()) {
      const id = call.arguments.brandId ?? call.arguments.brand;
      if (typeof id === "string" && id) return id;
    }
  }
  return null;
}

export const refersToThatBrand = (message: string) => /\b(that|this|the same|same) brand\b/i.test(message);

/** A brand of the account named in the message by its name (whole words, any case). */
export function brandNamedIn(message: string, brands: readonly { id: string; name: string }[]): { id: string; name: string } | null {
  const text = message.toLowerCase();
  const named = brands
    .filter((b) => b.name.trim().length >= 2)
    .sort((a, b) => b.name.length - a.name.length)
    .find((b) =>
      new RegExp(
        `(^|[^\\p{L}\\p{N}])${b.name
          .trim()
          .toLowerCase()
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`,
        "u",
      ).test(text),
    );
  return named ?? null;
}

/** A period named in the message, in days ("last week" 7, "30 days", "2 weeks", "this month" 30), or null. */
export function periodIn(message: string): { days: number; words: string } | null {
  const text = message.toLowerCase();
  const count = (re: RegExp) => Number(text.match(re)?.[1] ?? Number.NaN);
  const days = count(/\b(\d{1,3})\s*days?\b/);
  if (days >= 1) return { days, words: `the last ${days} day${days === 1 ? "" : "s"}` };
  const weeks = count(/\b(\d{1,2})\s*weeks?\b/);
  if (weeks >= 1) return { days: weeks * 7, words: `the last ${weeks} week${weeks === 1 ? "" : "s"}` };
  const months = count(/\b(\d{1,2})\s*months?\b/);
  if (months >= 1) return { days: months * 30, words: `the last ${months} month${months === 1 ? "" : "s"}` };
  if (/\btoday\b/.test(text)) return { days: 1, words: "today" };
  if (/\bfortnight\b/.test(text)) return { days: 14, words: "the last 14 days" };
  if (/\bweek\b/.test(text)) return { days: 7, words: "the last 7 days" };
  if (/\bmonth\b/.test(text)) return { days: 30, words: "the last 30 days" };
  if (/\bquarter\b/.test(text)) return { days: 90, words: "the last 90 days" };
  if (/\byear\b/.test(text)) return { days: 365, words: "the last 365 days" };
  return null;
}

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
  "5th": 5,
};

/** "the second one", "the 3rd ad", "number 2", "#2" → 2; "the last one" → "last"; else null. */
export function ordinalIn(message: string): number | "last" | null {
  const text = message.toLowerCase();
  const numbered = text.match(/(?:#|\bnumber\s+|\bno\.\s*)(\d{1,2})\b/);
  if (numbered) return Number(numbered[1]);
  const word = text.match(/\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last)\s+(one|project|ad|creative)\b/);
  if (!word) return null;
  return word[1] === "last" ? "last" : (ORDINALS[word[1]!] ?? null);
}

export interface PlanRevision {
  args: { weeks: number; budgetCredits?: number; goal?: string; url?: string };
  /** What changed, in words ("6 weeks instead of 4"). */
  changes: string[];
}

/** A change to the previous plan asked for in the message, or null when it asks none. */
export function planRevision(message: string, previous: ToolCallView): PlanRevision | null {
  const text = message.toLowerCase();
  const before = previous.arguments as { weeks?: number; budgetCredits?: number; goal?: string; url?: string };
  const result = previous.result as { weeks?: unknown[]; budgetCredits?: number } | null;
  const oldWeeks = before.weeks ?? result?.weeks?.length ?? 4;
  const oldBudget = typeof result?.budgetCredits === "number" ? result.budgetCredits : before.budgetCredits;
  const args = { ...before, weeks: oldWeeks };
  const changes: string[] = [];
  const weeks = Number(text.match(/\b(\d{1,2})[\s-]*weeks?\b/)?.[1] ?? Number.NaN);
  if (weeks >= 1) args.weeks = weeks;
  else if (/\b(one|a|another) (more|extra) week\b|\badd (a|one|another) week\b|\bweek longer\b/.test(text)) args.weeks = oldWeeks + 1;
  else if (/\b(one|a) week (less|shorter)\b|\bweek shorter\b|\bdrop (a|one|the last) week\b/.test(text))
    args.weeks = Math.max(1, oldWeeks - 1);
  if (args.weeks !== oldWeeks) changes.push(`${args.weeks} weeks instead of ${oldWeeks}`);
  const credits = Number(text.match(/\b(\d{1,6})\s*credits?\b/)?.[1] ?? text.match(/\bbudget (?:of|to)\s*(\d{1,6})\b/)?.[1] ?? Number.NaN);
  let budget: number | undefined;
  if (credits >= 1) budget = credits;
  else if (oldBudget !== undefined && /\b(double|twice)\b/.test(text) && /\bbudget\b/.test(text)) budget = oldBudget * 2;
  else if (oldBudget !== undefined && /\b(halve|half)\b/.test(text) && /\bbudget\b/.test(text))
    budget = Math.max(1, Math.floor(oldBudget / 2));
  if (budget !== undefined && budget !== oldBudget) {
    args.budgetCredits = budget;
    changes.push(`a budget of ${budget} credits instead of ${oldBudget ?? "your balance"}`);
  }
  return changes.length ? { args, changes } : null;
}
