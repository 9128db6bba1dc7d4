// The assistant's tools. Both assistants (the built-in one and a language model) call these same
// functions with the same arguments, and every result comes from the account's own data through the
// domain functions the REST API uses: estimates and launches from workflows/, figures from projects/,
// passages from knowledge/. Each names the catalogue operations it stands for (tool-gate.ts), which the
// caller must be admitted to before it runs (run-tool.ts).
import { WORKFLOW_TYPES, WorkflowRequest, workflowName } from "@adgen/schema";
import { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { parseInput } from "../../errors.ts";
import { searchPassages } from "../knowledge/passages.ts";
import { performanceReport } from "../performance/report.ts";
import { userStats } from "../projects/insights.ts";
import { estimateWorkflow } from "../workflows/launch/launch-workflow.ts";
import { findJobFor, toJobView } from "../workflows/jobs/jobs.ts";
import { planCampaign } from "./campaign-plan.ts";
import { proposeLaunch } from "./pending-launch.ts";
import { getBrand } from "../brand/brand-profile.ts";
import type { ToolStandIn } from "./tool-gate.ts";

/** What a tool knows of the conversation it runs in. */
export interface TurnState {
  threadId: string;
}

export interface AssistantTool<S extends z.ZodType = z.ZodType> extends ToolStandIn {
  description: string;
  args: S;
  run(services: Services, user: AssistantUser, args: z.output<S>, turn: TurnState): Promise<unknown>;
}

const WorkflowChoice = z.enum(WORKFLOW_TYPES, { error: `type must be one of ${WORKFLOW_TYPES.join(", ")}` });

/** A launch as the tools take it: the fields of POST /api/workflow a conversation can fill. */
const LaunchArgs = z.object({
  type: WorkflowChoice,
  concept: z.string().max(2000).optional(),
  url: z.string().max(2000).optional(),
  quality: z.enum(["standard", "premium"]).optional(),
  formats: z.array(z.string()).max(4).optional(),
  /** The brand to launch for (one of the account's brand ids); the default brand when left out. */
  brand: z.string().max(100).optional(),
});
export type LaunchArgs = z.infer<typeof LaunchArgs>;

const define = <S extends z.ZodType>(tool: AssistantTool<S>) => tool as unknown as AssistantTool;

export const ASSISTANT_TOOLS: AssistantTool[] = [
  define({
    name: "read_performance",
    standsFor: ["performance.report", "user.stats"],
    description:
      "The account's results over the last `days` days (the ads of one brand with `brandId`): each ad creative's impressions, clicks, conversions, spend, revenue, CTR, ROAS and whether it is decaying; and the projects made, completed and failed, credits used.",
    args: z.object({ days: z.number().int().min(1).max(365).default(30), brandId: z.string().max(100).optional() }),
    async run(services, user, { days, brandId }) {
      const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      const brand = brandId ? await getBrand(services, user, brandId) : null;
      const stats = await userStats(services, user, { startDate: from });
      const report = await performanceReport(services, user, { from, ...(brandId ? { brandId } : {}) });
      const creatives = report.creatives.map((c) => ({
        creativeId: c.creativeId,
        name: c.name,
        stopped: c.stopped,
        ...c.totals,
        decaying: c.decay.decaying,
        decayReason: c.decay.reason,
      }));
      return {
        days,
        from,
        ...(brand ? { brand: { id: brand.id, name: brand.brandName ?? null } } : {}),
        ads: { totals: report.totals, creatives },
        ...stats,
      };
    },
  }),
  define({
    name: "plan_campaign",
    standsFor: ["user.credits", "workflow.estimate"],
    description:
      "A multi-week campaign plan: which workflows to run each week, in which formats, what each costs in credits (from the price table) and whether it fits the balance or the budget.",
    args: z.object({
      weeks: z.number().int().min(1).max(12).default(4),
      budgetCredits: z.number().int().min(1).max(100_000).optional(),
      goal: z.string().max(500).optional(),
      url: z.string().max(2000).optional(),
    }),
    run: (services, user, args) => planCampaign(services, user, args),
  }),
  define({
    name: "estimate_launch",
    standsFor: ["workflow.estimate"],
    description: "What launching a workflow would cost now, the balance, and whether it would go through (nothing is charged).",
    args: LaunchArgs,
    run: (services, user, args) => estimateWorkflow(services, user, parseInput(WorkflowRequest, { ...args, async: true })),
  }),
  define({
    name: "launch_workflow",
    standsFor: ["workflow.launch"],
    description:
      "Proposes launching a workflow (charged from the credits). It does NOT launch: the user must confirm with 'yes' in their next message, and only then is it launched and charged.",
    args: LaunchArgs,
    run: (services, user, args, turn) => proposeLaunch(services, user, turn.threadId, args),
  }),
  define({
    name: "search_knowledge",
    standsFor: ["brand.knowledge"],
    description: "Searches the account's brand knowledge (uploaded files and pages) for passages about `query`.",
    args: z.object({ query: z.string().min(1).max(500) }),
    async run(services, user, { query }) {
      const found = await searchPassages(services.prisma, user.id, query, 3);
      return { query, passages: found.map((p) => ({ source: p.name, passage: p.passage })) };
    },
  }),
  define({
    name: "project_status",
    standsFor: ["projects.list", "workflow.job"],
    description: "The status of one project (by id) or of the account's latest projects: type, status, progress, credits.",
    args: z.object({ projectId: z.string().max(100).optional(), limit: z.number().int().min(1).max(20).default(5) }),
    async run(services, user, { projectId, limit }) {
      const jobs = projectId
        ? [await findJobFor(services, user, projectId)]
        : await services.prisma.job.findMany({
            where: { userId: user.id },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            take: limit,
          });
      return {
        projects: jobs.map((job) => {
          const view = toJobView(job);
          return {
            id: view.jobId,
            name: job.name,
            type: view.type,
            workflow: workflowName(view.type),
            status: view.status,
            progress: view.progress,
            creditsUsed: view.creditsUsed,
            refunded: view.refunded,
            error: view.error,
            createdAt: view.createdAt,
          };
        }),
      };
    },
  }),
];

export const toolByName = new Map(ASSISTANT_TOOLS.map((tool) => [tool.name, tool]));
