// GET /loop and POST /loop: the recommendation for one of the account's brands, and carrying out an action.
// Launches go through the normal launch path (launchWorkflow): charged in its transaction, refunded if the
// job fails, 402 when the credits are short. KILL stops a creative: it is shown stopped and left out of
// every later recommendation.
import type { PrismaClient } from "@adgen/prisma";
import {
  type CreativePerformance,
  FRAMEWORKS,
  LoopExecuteInput,
  type LoopExecution,
  LoopQuery,
  type LoopRecommendation,
  type WorkflowRequestInput,
} from "@adgen/schema";
import type { RequestContext } from "../../context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { requireUser } from "../auth/authenticate.ts";
import { assertOwnBrand, assertRange } from "../performance/report.ts";
import { launchWorkflow } from "../workflows/launch-workflow.ts";
import { analyseBrand, type LoopAnalysis } from "./recommend.ts";

export async function recommendLoop(ctx: RequestContext, input: LoopQuery): Promise<LoopRecommendation> {
  const user = requireUser(ctx);
  const query = parseInput(LoopQuery, input);
  assertRange(query.from, query.to);
  await assertOwnBrand(ctx.services.prisma, user.id, query.brandId);
  const { ranked: _ranked, live: _live, ...recommendation } = await analyseBrand(ctx.services.prisma, user.id, query.brandId, query);
  return recommendation;
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

function nothingToActOn(action: string): AppError {
  return new AppError(
    "BAD_REQUEST",
    `${action} needs a live creative of this brand with figures, and there is none: SEED the brand first`,
    {
      fields: [{ field: "action", message: "SEED the brand first" }],
    },
  );
}

export async function executeLoop(ctx: RequestContext, input: LoopExecuteInput): Promise<LoopExecution> {
  const user = requireUser(ctx);
  const body = parseInput(LoopExecuteInput, input);
  const { prisma } = ctx.services;
  await assertOwnBrand(prisma, user.id, body.brandId);
  const analysis = await analyseBrand(prisma, user.id, body.brandId);
  const launched: LoopExecution["launched"] = [];
  const launch = async (request: WorkflowRequestInput) => {
    const outcome = await launchWorkflow(ctx, { ...request, brand: body.brandId });
    const framework = "framework" in request ? (request.framework ?? null) : null;
    launched.push({ jobId: outcome.data.jobId, type: request.type, creditsUsed: outcome.cost, framework });
  };
  const done = (target: CreativePerformance | null, message: string, stopped: string[] = []): LoopExecution => ({
    brandId: body.brandId,
    action: body.action,
    target: target?.creativeId ?? null,
    message,
    launched,
    creditsCharged: launched.reduce((sum, l) => sum + l.creditsUsed, 0),
    stopped,
  });
  const launchedText = () =>
    launched.map((l) => `${l.type} project ${l.jobId} (${l.creditsUsed} credit${l.creditsUsed === 1 ? "" : "s"})`).join(", ");

  switch (body.action) {
    case "SEED": {
      const used = new Set(await Promise.all(analysis.live.map(async (c) => (await projectFacts(prisma, user.id, c)).framework)));
      const framework = FRAMEWORKS.find((f) => !used.has(f)) ?? "pas";
      await launch({ type: "staticad", framework });
      return done(null, `Launched a first creative for the brand: ${launchedText()}.`);
    }
    case "KILL": {
      const target = pickTarget(analysis, body.creativeId, (a) => byId(a, a.action === "KILL" ? a.target : null) ?? worst(a));
      if (!target) throw nothingToActOn("KILL");
      const stoppedAt = new Date();
      const updated = await prisma.performanceCreative.updateMany({
        where: { userId: user.id, key: target.creativeId, stoppedAt: null },
        data: {
          stoppedAt,
          stoppedReason: body.creativeId ? "Stopped by the loop (KILL, chosen)" : `Stopped by the loop: ${analysis.reasoning}`,
        },
      });
      if (updated.count === 0) throw new AppError("CONFLICT", `Creative ${target.creativeId} is already stopped`);
      return done(target, `Stopped ${target.creativeId}; later recommendations leave it out.`, [target.creativeId]);
    }
    case "ITERATE":
    case "DOUBLE_DOWN": {
      const fallback =
        body.action === "ITERATE"
          ? (a: LoopAnalysis) => byId(a, a.action === "ITERATE" ? a.target : null) ?? worst(a)
          : (a: LoopAnalysis) => byId(a, a.action === "DOUBLE_DOWN" ? a.target : null) ?? best(a);
      const target = pickTarget(analysis, body.creativeId, fallback);
      if (!target) throw nothingToActOn(body.action);
      const facts = await projectFacts(prisma, user.id, target);
      if (facts.completed && target.projectId) await launch({ type: "ad-optimizer", project: target.projectId });
      else
        await launch({
          type: "staticad",
          framework: (facts.framework as (typeof FRAMEWORKS)[number] | null) ?? "pas",
          ...(facts.concept ? { concept: facts.concept } : {}),
        });
      const verb =
        body.action === "ITERATE"
          ? `Launched an improved version of ${target.creativeId}`
          : `Launched a variation of the winner ${target.creativeId}`;
      return done(target, `${verb}: ${launchedText()}.`);
    }
    case "CHALLENGER": {
      const target = pickTarget(analysis, body.creativeId, (a) => byId(a, a.action === "CHALLENGER" ? a.target : null) ?? best(a));
      if (!target) throw nothingToActOn("CHALLENGER");
      const facts = await projectFacts(prisma, user.id, target);
      const framework = FRAMEWORKS.find((f) => f !== (facts.framework ?? "pas")) ?? "aida";
      await launch({ type: "staticad", framework, ...(facts.concept ? { concept: facts.concept } : {}) });
      return done(target, `Launched a challenger with a new angle (${framework}) against ${target.creativeId}: ${launchedText()}.`);
    }
  }
}
