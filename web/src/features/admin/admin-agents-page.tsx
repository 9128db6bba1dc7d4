// The background agents: what each does, its last and next run, status and last error, and "Run now".
import type { Agent } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import "./admin.css";
import "./admin-console.css";
import { PageHeader } from "../../ui/page-header.tsx";

const STATUS_BADGE: Record<Agent["status"], string> = {
  idle: "badge badge-muted",
  running: "badge badge-warning",
  ok: "badge badge-success",
  error: "badge badge-danger",
};
const STATUS_TEXT: Record<Agent["status"], string> = { idle: "Not run yet", running: "Running", ok: "OK", error: "Failed" };

function every(seconds: number) {
  return seconds >= 3600
    ? `every ${Math.round(seconds / 3600)} h`
    : seconds >= 60
      ? `every ${Math.round(seconds / 60)} min`
      : `every ${seconds} s`;
}

function AgentRow({ agent }: { agent: Agent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const run = useMutation(
    trpc.admin.triggerAgent.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.agents.queryKey() }),
    }),
  );
  return (
    <li className="admin-item" data-testid="agent" data-agent={agent.id}>
      <div className="admin-item-head">
        <h2 className="admin-item-title">{agent.name}</h2>
        <span className={STATUS_BADGE[agent.status]} data-testid="agent-status">
          {STATUS_TEXT[agent.status]}
        </span>
      </div>
      <p className="muted admin-empty">{agent.description}</p>
      <p className="admin-item-facts">
        <span>Runs {every(agent.everySeconds)}</span>
        <span data-testid="agent-last-run">Last run: {formatDateTime(agent.lastRunAt)}</span>
        <span>Next run: {formatDateTime(agent.nextRunAt)}</span>
        <span>{agent.runs === 1 ? "1 run" : `${agent.runs} runs`}</span>
        {agent.lastResult ? (
          <span data-testid="agent-result">
            Result:{" "}
            {Object.entries(agent.lastResult)
              // Counts and notes; lists (examples) are for the API.
              .filter(([, v]) => typeof v !== "object")
              .map(([k, v]) => `${k} ${String(v)}`)
              .join(", ")}
          </span>
        ) : null}
      </p>
      {agent.lastError ? <p className="admin-item-error">Last error: {agent.lastError}</p> : null}
      {run.isError ? (
        <p className="admin-item-error" role="alert">
          {errorMessage(run.error)}
        </p>
      ) : null}
      <div>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          disabled={run.isPending}
          onClick={() => run.mutate({ agentId: agent.id })}
          data-testid="agent-run"
        >
          {run.isPending ? <Spinner size="sm" /> : null} {run.isPending ? "Running…" : "Run now"}
        </button>
      </div>
    </li>
  );
}

export function AdminAgentsPage() {
  useTitle("Agents · Admin");
  const trpc = useTRPC();
  const agents = useQuery(trpc.admin.agents.queryOptions(undefined, { refetchInterval: 15_000 }));
  return (
    <div className="page" data-testid="admin-agents">
      <PageHeader title="Agents" subtitle="The duties the workers run on a schedule. “Run now” runs one at once and shows what it did." />
      <AdminNav />
      <section className="card">
        {agents.isError ? <InlineError error={agents.error} onRetry={() => void agents.refetch()} /> : null}
        {agents.data ? (
          <ul className="admin-list">
            {agents.data.agents.map((agent) => (
              <AgentRow key={agent.id} agent={agent} />
            ))}
          </ul>
        ) : agents.isPending ? (
          <Skeleton height="16rem" />
        ) : null}
      </section>
    </div>
  );
}
