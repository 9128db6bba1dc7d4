// A multi-week campaign plan from the price table: each week a purpose and its launches (workflow,
// formats, day, credits), the total, and what fits the budget (the given one, else the balance).
// Week 1 tests hooks cheaply, week 2 turns them into video, week 3 adds a presenter, week 4 improves
// the best; later weeks alternate fresh angles and optimisation, which is how creative testing runs.
import { type AspectRatio, WORKFLOWS, type WorkflowType, workflowName } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";

interface PlannedLaunch {
  type: WorkflowType;
  workflow: string;
  formats: AspectRatio[];
  day: string;
  credits: number;
  why: string;
}

interface PlannedWeek {
  week: number;
  startsOn: string;
  focus: string;
  launches: PlannedLaunch[];
  credits: number;
}

type Slot = Omit<PlannedLaunch, "workflow" | "day" | "credits"> & { weekday: number };

function weekSlots(week: number, hasPage: boolean): { focus: string; slots: Slot[] } {
  if (week === 1)
    return {
      focus: "Test hooks with cheap stills",
      slots: [
        { type: "staticad", formats: ["1:1", "9:16"], weekday: 0, why: "three still variants to see which message gets clicks" },
        { type: "painpoint", formats: ["9:16"], weekday: 2, why: "a problem–solution angle to test against the stills" },
      ],
    };
  if (week === 2)
    return {
      focus: "Turn the best message into video",
      slots: [
        { type: "cinematic", formats: ["9:16", "16:9"], weekday: 0, why: "a directed video of the message that worked" },
        hasPage
          ? { type: "factory", formats: ["9:16", "1:1", "16:9"], weekday: 2, why: "the product page in every social format" }
          : { type: "staticad", formats: ["4:5"], weekday: 2, why: "feed stills to keep the winner running" },
      ],
    };
  if (week === 3)
    return {
      focus: "Add a human face",
      slots: [{ type: "avatar", formats: ["9:16"], weekday: 1, why: "a presenter speaks the message to camera" }],
    };
  if (week % 2 === 0)
    return {
      focus: "Improve what performs",
      slots: [
        { type: "ad-optimizer", formats: ["9:16"], weekday: 0, why: "a tuned variant of the best ad so far" },
        { type: "staticad", formats: ["1:1"], weekday: 3, why: "fresh stills so the audience does not tire" },
      ],
    };
  return {
    focus: "Try a new angle",
    slots: [
      { type: "painpoint", formats: ["9:16"], weekday: 0, why: "a new pain point against the current winner" },
      { type: "cinematic", formats: ["1:1"], weekday: 2, why: "the angle as a square video for feeds" },
    ],
  };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The Monday after today (UTC), where the plan starts. */
function nextMonday(now = new Date()): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const add = (8 - day.getUTCDay()) % 7 || 7;
  return new Date(day.getTime() + add * 86_400_000);
}

export async function planCampaign(
  services: Services,
  user: AssistantUser,
  args: { weeks: number; budgetCredits?: number | undefined; goal?: string | undefined; url?: string | undefined },
) {
  const account = await services.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { creditsBalance: true } });
  const budget = args.budgetCredits ?? account.creditsBalance;
  const start = nextMonday();
  const weeks: PlannedWeek[] = [];
  const leftOut: { week: number; workflow: string; credits: number }[] = [];
  let total = 0;
  for (let week = 1; week <= args.weeks; week += 1) {
    const startsOn = new Date(start.getTime() + (week - 1) * 7 * 86_400_000);
    const { focus, slots } = weekSlots(week, Boolean(args.url));
    const launches: PlannedLaunch[] = [];
    for (const slot of slots) {
      const credits = priceOf(slot.type);
      const launch = {
        type: slot.type,
        workflow: workflowName(slot.type),
        formats: slot.formats,
        day: isoDay(new Date(startsOn.getTime() + slot.weekday * 86_400_000)),
        credits,
        why: slot.why,
      };
      // Within the budget the plan keeps launches in order; one that would pass it is left out.
      if (total + credits > budget) leftOut.push({ week, workflow: launch.workflow, credits });
      else {
        launches.push(launch);
        total += credits;
      }
    }
    weeks.push({ week, startsOn: isoDay(startsOn), focus, launches, credits: launches.reduce((sum, l) => sum + l.credits, 0) });
  }
  return {
    goal: args.goal ?? null,
    weeks,
    totalCredits: total,
    budgetCredits: budget,
    budgetFrom: args.budgetCredits ? "your budget" : "your balance",
    balance: account.creditsBalance,
    leftOut,
  };
}

/** Price of a workflow at a quality, from the price table. */
export function priceOf(type: WorkflowType, quality: "standard" | "premium" = "standard"): number {
  const info = WORKFLOWS.find((w) => w.type === type)!;
  return quality === "premium" ? info.premium : info.standard;
}
