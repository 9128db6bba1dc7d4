// What carrying out a loop action would do: the creative it is about, the launch it makes (none for KILL)
// and what that launch costs. The recommendation shows this before anyone clicks (the cost is asked for
// first), and Execute carries out the same plan, so the price asked is the price charged.
import type { PrismaClient } from "@adgen/prisma";
import {
  type CreativePerformance,
  FRAMEWORKS,
  type LoopAction,
  type WorkflowRequestInput,
  workflowCost,
  workflowName,
} from "@adgen/schema";
import { AppError } from "../../errors.ts";
import { creativeName, type LoopAnalysis } from "./recommend.ts";

export interface ActionPlan {
  action: LoopAction;
  target: CreativePerformance | null;
  /** The launch the action makes; null when it only stops a creative. */
  request: (WorkflowRequestInput & { framework?: (typeof FRAMEWORKS)[number] }) | null;
  cost: number;
  /** What executing it does, in words. */
  effect: string;
}

interface ProjectFacts {
  completed: boolean;
  framework: string | null;
  concept: string | null;
}

async function projectFacts(prisma: PrismaClient, userId: string, creative: CreativePerformance): Promise<ProjectFacts> {
  if (!creative.projectId) return { completed: false, framework: null, concept: null };
  const job = await prisma.job.findFirst({ where: { id: creative.projectId, userId }, select: { status: true, input: true } });
  const input = (job?.input ?? {}) as { framework?: string; concept?: string };
  return { completed: job?.status === "completed", framework: input.framework ?? null, concept: input.concept ?? null };
}

/** The creative an action is about: the one named (of this brand, live), else the recommendation's pick. */
function pickTarget(analysis: LoopAnalysis, named: string | undefined, fallback: (a: LoopAnalysis) => CreativePerformance | undefined) {
  if (named) {
    const creative = analysis.live.find((c) => c.creativeId === named);
    if (!creative) throw new AppError("NOT_FOUND", `Creative ${named} not found among this brand's live creatives`);
    return creative;
  }
  return fallback(analysis);
}

const byId = (analysis: LoopAnalysis, id: string | null) => (id ? analysis.live.find((c) => c.creativeId === id) : undefined);
const withFigures = (analysis: LoopAnalysis) => analysis.live.filter((c) => c.totals.impressions > 0);
const best = (analysis: LoopAnalysis) => analysis.ranked[0] ?? withFigures(analysis)[0];
const worst = (analysis: LoopAnalysis) => analysis.ranked.at(-1) ?? withFigures(analysis).at(-1);
const recommended = (a: LoopAnalysis, action: LoopAction) => byId(a, a.action === action ? a.target : null);

function nothingToActOn(action: string): AppError {
  return new AppError(
    "BAD_REQUEST",
    `${action} needs a live creative of this brand with figures, and there is none: SEED the brand first`,
    { fields: [{ field: "action", message: "SEED the brand first" }] },
  );
}

const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;

function launching(action: LoopAction, target: CreativePerformance | null, request: NonNullable<ActionPlan["request"]>, what: string) {
  const cost = workflowCost(request.type, request.quality);
  return { action, target, request, cost, effect: `Launches ${workflowName(request.type)} ${what}, for ${credits(cost)}.` };
}

export async function planAction(
  prisma: PrismaClient,
  userId: string,
  analysis: LoopAnalysis,
  action: LoopAction,
  named?: string,
): Promise<ActionPlan> {
  switch (action) {
    case "SEED": {
      const used = new Set(await Promise.all(analysis.live.map(async (c) => (await projectFacts(prisma, userId, c)).framework)));
      const framework = FRAMEWORKS.find((f) => !used.has(f)) ?? "pas";
      return launching(action, null, { type: "staticad", framework }, `as the brand's next first creative (${framework})`);
    }
    case "KILL": {
      const target = pickTarget(analysis, named, (a) => recommended(a, "KILL") ?? worst(a));
      if (!target) throw nothingToActOn("KILL");
      return {
        action,
        target,
        request: null,
        cost: 0,
        effect: `Stops “${creativeName(target)}”: later recommendations leave it out. Nothing is charged.`,
      };
    }
    case "ITERATE":
    case "DOUBLE_DOWN": {
      const target = pickTarget(analysis, named, (a) => recommended(a, action) ?? (action === "ITERATE" ? worst(a) : best(a)));
      if (!target) throw nothingToActOn(action);
      const facts = await projectFacts(prisma, userId, target);
      const what = `${action === "ITERATE" ? "to improve" : "to make a variation of"} “${creativeName(target)}”`;
      if (facts.completed && target.projectId) return launching(action, target, { type: "ad-optimizer", project: target.projectId }, what);
      const framework = (facts.framework as (typeof FRAMEWORKS)[number] | null) ?? "pas";
      return launching(action, target, { type: "staticad", framework, ...(facts.concept ? { concept: facts.concept } : {}) }, what);
    }
    case "CHALLENGER": {
      const target = pickTarget(analysis, named, (a) => recommended(a, "CHALLENGER") ?? best(a));
      if (!target) throw nothingToActOn("CHALLENGER");
      const facts = await projectFacts(prisma, userId, target);
      const framework = FRAMEWORKS.find((f) => f !== (facts.framework ?? "pas")) ?? "aida";
      const request = { type: "staticad" as const, framework, ...(facts.concept ? { concept: facts.concept } : {}) };
      return launching(action, target, request, `with a new angle (${framework}) against “${creativeName(target)}”`);
    }
  }
}
