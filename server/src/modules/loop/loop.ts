// GET /loop and POST /loop: the recommendation for one of the account's brands, with what executing it
// costs, and carrying out an action. Launches go through the normal launch path (launchWorkflow): charged
// in its transaction, refunded if the job fails, 402 when the credits are short. KILL stops a creative:
// it is shown stopped and left out of every later recommendation.
import { LoopExecuteInput, type LoopExecution, LoopQuery, type LoopRecommendation, WorkflowRequest } from "@adgen/schema";
import type { PrismaClient } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { assertOwnBrand, assertRange } from "../performance/report.ts";
import type { LaunchAccount } from "../workflows/launch/admission.ts";
import { launchWorkflow } from "../workflows/launch/launch-workflow.ts";
import { planAction } from "./plan.ts";
import { analyseBrand, creativeName } from "./recommend.ts";

export async function recommendLoop(services: Services, user: { id: string }, input: LoopQuery): Promise<LoopRecommendation> {
  const query = parseInput(LoopQuery, input);
  assertRange(query.from, query.to);
  await assertOwnBrand(services.prisma, user.id, query.brandId);
  return brandRecommendation(services.prisma, user.id, query.brandId, query);
}

/**
 * The next move for one brand of an account (the caller has checked the brand is the account's): the
 * analytics graph asks it for every brand of an account an admin or the account's own key reads.
 */
export async function brandRecommendation(
  prisma: PrismaClient,
  userId: string,
  brandId: string,
  range: { from?: string; to?: string } = {},
): Promise<LoopRecommendation> {
  const analysis = await analyseBrand(prisma, userId, brandId, range);
  const plan = await planAction(prisma, userId, analysis, analysis.action);
  const { ranked: _ranked, live: _live, ...recommendation } = analysis;
  const target = recommendation.creatives.find((c) => c.creativeId === recommendation.target);
  return {
    ...recommendation,
    targetName: target?.name ?? (plan.target ? creativeName(plan.target) : null),
    targetThumbnail: target?.thumbnail ?? null,
    cost: plan.cost,
    effect: plan.effect,
  };
}

export async function executeLoop(services: Services, user: LaunchAccount, input: LoopExecuteInput): Promise<LoopExecution> {
  const body = parseInput(LoopExecuteInput, input);
  const { prisma } = services;
  await assertOwnBrand(prisma, user.id, body.brandId);
  const analysis = await analyseBrand(prisma, user.id, body.brandId);
  const plan = await planAction(prisma, user.id, analysis, body.action, body.creativeId);
  // The person agreed to a price: a plan that now costs something else (the figures moved on) is not run,
  // whether it would charge more than agreed or launch a different, cheaper action than the one agreed to.
  if (body.confirmedCost !== undefined && plan.cost !== body.confirmedCost) {
    throw new AppError(
      "CONFLICT",
      `${body.action} now costs ${plan.cost} credits, not the ${body.confirmedCost} you confirmed; nothing was charged. Look at the recommendation again and confirm its new price`,
      { fields: [{ field: "confirmedCost", message: `It costs ${plan.cost} credits now` }] },
    );
  }
  const target = plan.target;
  const targetName = target ? `“${creativeName(target)}”` : "";
  const result = (message: string, launched: LoopExecution["launched"], stopped: string[] = []): LoopExecution => ({
    brandId: body.brandId,
    action: body.action,
    target: target?.creativeId ?? null,
    message,
    launched,
    creditsCharged: launched.reduce((sum, l) => sum + l.creditsUsed, 0),
    stopped,
  });

  if (plan.request === null) {
    if (!target) throw new AppError("BAD_REQUEST", `${body.action} needs a creative to act on`);
    const updated = await prisma.performanceCreative.updateMany({
      where: { userId: user.id, key: target.creativeId, stoppedAt: null },
      data: {
        stoppedAt: new Date(),
        stoppedReason: body.creativeId ? "Stopped by the loop (KILL, chosen)" : `Stopped by the loop: ${analysis.reasoning}`,
      },
    });
    if (updated.count === 0) throw new AppError("CONFLICT", `Creative ${targetName} is already stopped`);
    return result(`Stopped ${targetName}; later recommendations leave it out.`, [], [target.creativeId]);
  }

  const outcome = await launchWorkflow(services, user, parseInput(WorkflowRequest, { ...plan.request, brand: body.brandId }));
  const job = await prisma.job.findUnique({ where: { id: outcome.data.jobId }, select: { name: true } });
  const launched: LoopExecution["launched"] = [
    {
      jobId: outcome.data.jobId,
      name: job?.name ?? plan.request.type,
      type: plan.request.type,
      creditsUsed: outcome.cost,
      framework: plan.request.framework ?? null,
    },
  ];
  const launchedText = launched.map((l) => `“${l.name}” (${l.creditsUsed} credit${l.creditsUsed === 1 ? "" : "s"})`).join(", ");
  const verb = {
    SEED: "Launched a first creative for the brand",
    ITERATE: `Launched an improved version of ${targetName}`,
    DOUBLE_DOWN: `Launched a variation of the winner ${targetName}`,
    CHALLENGER: `Launched a challenger with a new angle (${plan.request.framework ?? "new"}) against ${targetName}`,
    KILL: "Stopped",
  }[body.action];
  return result(`${verb}: ${launchedText}.`, launched);
}
