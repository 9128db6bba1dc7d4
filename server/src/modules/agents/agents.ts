// The background agents: the periodic duties the workers really run, each recording its last run, next
// run, status and last error in agent_states. The workers' sweep calls `runDueAgents`; an admin's
// POST /admin/agents/{agentId}/trigger runs one at once through the same `runAgent`.
import type { AgentState, Prisma } from "@adgen/prisma";
import type { Agent } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { recoverOrphanedJobs } from "../workflows/pipeline/run-job.ts";
import { expireStaleReviews } from "../workflows/jobs/hitl.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { scanPerformanceDecay } from "../performance/performance-decay.ts";
import { requeueLostWebhookDeliveries } from "../webhooks/webhook-retries.ts";

interface AgentDefinition {
  id: string;
  name: string;
  description: string;
  everySeconds(services: Services): number;
  run(services: Services): Promise<Record<string, unknown>>;
}

export const AGENTS: readonly AgentDefinition[] = [
  {
    id: "review-expiry",
    name: "Review expiry",
    description: "Fails and refunds jobs whose human review has waited longer than HITL_TIMEOUT_SECONDS",
    everySeconds: (services) => services.config.sweepSeconds,
    run: async (services) => ({ expired: await expireStaleReviews(services) }),
  },
  {
    id: "orphaned-jobs",
    name: "Orphaned-job recovery",
    description:
      "Finds running jobs whose worker stopped renewing its lease; re-queues them, or fails and refunds them after their last attempt",
    everySeconds: (services) => services.config.sweepSeconds,
    run: async (services) => ({ orphansFound: await recoverOrphanedJobs(services) }),
  },
  {
    id: "webhook-retries",
    name: "Webhook delivery retries",
    description: "Re-queues pending webhook deliveries whose queue message was lost (no live message in the queue)",
    everySeconds: (services) => services.config.sweepSeconds,
    run: (services) => requeueLostWebhookDeliveries(services),
  },
  {
    id: "performance-decay",
    name: "Performance-decay scan",
    description: "Looks for creatives whose click-through rate is falling (creative fatigue)",
    everySeconds: (services) => Math.max(3600, services.config.sweepSeconds),
    run: (services) => scanPerformanceDecay(services),
  },
];

const definitionOf = (id: string) => AGENTS.find((agent) => agent.id === id);

function toAgent(services: Services, definition: AgentDefinition, state: AgentState | undefined): Agent {
  return {
    id: definition.id,
    name: definition.name,
    description: definition.description,
    everySeconds: definition.everySeconds(services),
    status: (state?.status ?? "idle") as Agent["status"],
    lastRunAt: state?.lastRunAt?.toISOString() ?? null,
    lastFinishedAt: state?.lastFinishedAt?.toISOString() ?? null,
    lastDurationMs: state?.lastDurationMs ?? null,
    nextRunAt: state?.nextRunAt?.toISOString() ?? null,
    lastError: state?.lastError ?? null,
    lastResult: (state?.lastResult as Record<string, unknown> | null) ?? null,
    runs: state?.runs ?? 0,
    trigger: state?.trigger ?? null,
  };
}

/** Runs one agent now and records the run; never throws for the agent's own failure (it is recorded). */
export async function runAgent(services: Services, id: string, trigger: "schedule" | "admin"): Promise<AgentState> {
  const definition = definitionOf(id);
  if (!definition) throw Errors.notFound("Agent");
  const { prisma } = services;
  const startedAt = new Date();
  const next = new Date(startedAt.getTime() + definition.everySeconds(services) * 1000);
  await prisma.agentState.upsert({
    where: { agentId: id },
    create: { agentId: id, status: "running", lastRunAt: startedAt, nextRunAt: next, trigger },
    update: { status: "running", lastRunAt: startedAt, nextRunAt: next, trigger },
  });
  let result: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    result = await definition.run(services);
  } catch (e) {
    error = (e as Error).message.slice(0, 1000);
    services.logger.error({ agent: id, error }, "agent run failed");
  }
  return prisma.agentState.update({
    where: { agentId: id },
    data: {
      status: error ? "error" : "ok",
      lastFinishedAt: new Date(),
      lastDurationMs: Date.now() - startedAt.getTime(),
      lastError: error,
      ...(result ? { lastResult: result as Prisma.InputJsonValue } : {}),
      runs: { increment: 1 },
    },
  });
}

/** The workers' sweep: every agent whose next run is due (or that never ran) runs now, one after another. */
export async function runDueAgents(services: Services): Promise<void> {
  const states = new Map((await services.prisma.agentState.findMany()).map((state) => [state.agentId, state]));
  const soon = Date.now() + 500;
  for (const definition of AGENTS) {
    const next = states.get(definition.id)?.nextRunAt;
    if (!next || next.getTime() <= soon) await runAgent(services, definition.id, "schedule");
  }
}

export async function listAgentStates(services: Services): Promise<Agent[]> {
  const states = new Map((await services.prisma.agentState.findMany()).map((state) => [state.agentId, state]));
  return AGENTS.map((definition) => toAgent(services, definition, states.get(definition.id)));
}

export async function listAgents(services: Services, source: AuditSource) {
  await auditAdminRead(services, source, "admin.agents_viewed");
  return { agents: await listAgentStates(services) };
}

export async function triggerAgent(services: Services, source: AuditSource, agentId: string): Promise<Agent> {
  const definition = definitionOf(agentId);
  if (!definition) {
    throw new AppError("NOT_FOUND", `Agent not found: ${agentId}. Agents: ${AGENTS.map((agent) => agent.id).join(", ")}`);
  }
  const state = await runAgent(services, agentId, "admin");
  await recordAudit(services.prisma, source, {
    action: "admin.agent_triggered",
    targetType: "agent",
    targetId: agentId,
    metadata: { status: state.status, ...(state.lastError ? { error: state.lastError } : {}) },
  });
  return toAgent(services, definition, state);
}
