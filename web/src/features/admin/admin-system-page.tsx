// System and health: queues, workers, scheduled tasks and storage; each dependency checked now with its
// latency; and the integrity report (ledger, media, stuck jobs, refunds) on request.
import type { AdminSystem } from "@adgen/schema";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

type SystemView = RouterOutputs["admin"]["system"];
import "./admin.css";
import "./admin-console.css";
import { PageHeader } from "../../ui/page-header.tsx";
import { Card } from "../../ui/card.tsx";
import { TableHead } from "../../ui/table-head.tsx";

const HEALTH_BADGE = {
  ok: "badge badge-success",
  degraded: "badge badge-warning",
  error: "badge badge-danger",
  unconfigured: "badge badge-muted",
} as const;

function bytes(n: number | null): string {
  if (n === null) return "unknown";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function HealthCard() {
  const trpc = useTRPC();
  const health = useQuery(trpc.admin.health.queryOptions(undefined, { refetchInterval: 30_000 }));
  return (
    <Card
      title="Health"
      titleId="health-title"
      testId="admin-health"
      aside={
        health.data ? (
          <span className={HEALTH_BADGE[health.data.status]} data-testid="health-status">
            {health.data.status}
          </span>
        ) : null
      }
    >
      {health.isError ? <InlineError error={health.error} onRetry={() => void health.refetch()} /> : null}
      {health.data ? (
        <ul className="admin-list">
          {health.data.checks.map((check) => (
            <li key={check.name} className="admin-item" data-testid="health-check" data-check={check.name}>
              <div className="admin-item-head">
                <span>{check.name}</span>
                <span className={HEALTH_BADGE[check.status]}>{check.status}</span>
              </div>
              <p className="admin-item-facts">
                <span>{check.detail}</span>
                <span>{check.latencyMs} ms</span>
              </p>
            </li>
          ))}
        </ul>
      ) : health.isPending ? (
        <Skeleton height="12rem" />
      ) : null}
      <button type="button" className="btn btn-small btn-ghost" onClick={() => void health.refetch()} disabled={health.isFetching}>
        {health.isFetching ? <Spinner size="sm" /> : null} Check again
      </button>
    </Card>
  );
}

function IntegrityCard() {
  const trpc = useTRPC();
  const report = useQuery(trpc.admin.integrity.queryOptions(undefined, { enabled: false }));
  const rows = report.data
    ? ([
        ["Balances that differ from their ledger", report.data.ledgerMismatches],
        ["Refunds without a charge", report.data.refundsWithoutCharge],
        ["Jobs stuck past their lease", report.data.jobsStuckPastLease],
        ["Finished jobs with missing files", report.data.jobsWithMissingFiles],
        ["Media files no one owns", report.data.orphanedMediaFiles],
      ] as const)
    : [];
  return (
    <Card
      title="Integrity"
      titleId="integrity-title"
      testId="admin-integrity"
      aside={
        report.data ? (
          <span className={report.data.ok ? "badge badge-success" : "badge badge-danger"}>
            {report.data.ok ? "All consistent" : "Problems found"}
          </span>
        ) : null
      }
    >
      <p className="muted admin-empty">
        Checks every account's balance against its ledger, media files against their jobs, stuck jobs and refunds. It reads every account,
        so it runs when you ask.
      </p>
      {report.isError ? <InlineError error={report.error} onRetry={() => void report.refetch()} /> : null}
      {report.data ? (
        <ul className="admin-list" style={{ marginTop: 12 }}>
          <li className="admin-item">
            {formatNumber(report.data.accountsChecked)} accounts checked at {formatDateTime(report.data.checkedAt)}
          </li>
          {rows.map(([label, finding]) => (
            <li key={label} className="admin-item" data-testid="integrity-finding">
              <div className="admin-item-head">
                <span>{label}</span>
                <strong>{formatNumber(finding.count)}</strong>
              </div>
              {finding.count > 0 ? <pre className="admin-pre">{JSON.stringify(finding.examples, null, 2)}</pre> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="btn btn-small btn-primary"
        onClick={() => void report.refetch()}
        disabled={report.isFetching}
        data-testid="integrity-run"
        style={{ marginTop: 12 }}
      >
        {report.isFetching ? <Spinner size="sm" /> : null} {report.isFetching ? "Checking…" : "Run the integrity check"}
      </button>
    </Card>
  );
}

/** Outgoing e-mail: whether a server is set (else every message waits), and the outbox by status. */
function MailCard({ mail }: { mail: AdminSystem["mail"] }) {
  return (
    <section className="card" aria-labelledby="mail-title" data-testid="admin-mail">
      <h2 id="mail-title" className="card-title">
        E-mail
      </h2>
      <p className="muted">
        {mail.configured
          ? `Sent through ${mail.server ?? "the SMTP server"} as ${mail.from}.`
          : "No mail server is set (SMTP_URL), so e-mails wait in the outbox and nobody receives them."}
      </p>
      <dl className="admin-figures">
        <div className="admin-figure">
          <dt>Waiting</dt>
          <dd>{formatNumber(mail.pending)}</dd>
        </div>
        <div className="admin-figure">
          <dt>Sent</dt>
          <dd>{formatNumber(mail.sent)}</dd>
        </div>
        <div className="admin-figure">
          <dt>Failed</dt>
          <dd>{formatNumber(mail.failed)}</dd>
        </div>
      </dl>
      {mail.lastError ? <p className="inline-error">Last error: {mail.lastError}</p> : null}
    </section>
  );
}

export function AdminSystemPage() {
  useTitle("System · Admin");
  const trpc = useTRPC();
  const system = useQuery(trpc.admin.system.queryOptions(undefined, { refetchInterval: 15_000 }));
  const data = system.data;
  return (
    <div className="page" data-testid="admin-system">
      <PageHeader title="System and health" subtitle="Queues, workers, scheduled tasks and storage, refreshed every 15 seconds." />
      <AdminNav />
      <div className="admin-grid">
        <QueuesCard system={system} />
        <WorkersCard data={data} />
        {data ? <MailCard mail={data.mail} /> : null}
      </div>
      <div className="admin-grid">
        <HealthCard />
        <IntegrityCard />
      </div>
    </div>
  );
}

/** Each queue's waiting, active, done and failed jobs. */
function QueuesCard({ system }: { system: UseQueryResult<SystemView, unknown> }) {
  const data = system.data;
  return (
    <section className="card" aria-labelledby="queues-title" data-testid="admin-queues">
      <h2 id="queues-title" className="card-title">
        Queues
      </h2>
      {system.isError ? <InlineError error={system.error} onRetry={() => void system.refetch()} /> : null}
      {data ? (
        <div className="table-wrap">
          <table className="table">
            <TableHead
              columns={[
                "Queue",
                { label: "Waiting", num: true },
                { label: "Active", num: true },
                { label: "Done", num: true },
                { label: "Failed", num: true },
              ]}
            />
            <tbody>
              {data.queues.map((queue) => (
                <tr key={queue.name} data-testid="queue-row">
                  <th scope="row">{queue.name}</th>
                  <td className="num">{formatNumber(queue.depth)}</td>
                  <td className="num">{formatNumber(queue.states.active)}</td>
                  <td className="num">{formatNumber(queue.states.completed)}</td>
                  <td className="num">{formatNumber(queue.states.failed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Skeleton height="8rem" />
      )}
    </section>
  );
}

/** The workers, storage and scene cache, and the scheduled tasks. */
function WorkersCard({ data }: { data: SystemView | undefined }) {
  return (
    <section className="card" aria-labelledby="workers-title">
      <h2 id="workers-title" className="card-title">
        Workers and storage
      </h2>
      {data ? (
        <dl className="admin-figures">
          <div className="admin-figure">
            <dt>Workflow workers per process</dt>
            <dd>{data.workers.workflowConcurrency}</dd>
          </div>
          <div className="admin-figure">
            <dt>Jobs running</dt>
            <dd>{formatNumber(data.workers.runningJobs)}</dd>
          </div>
          <div className="admin-figure">
            <dt>Media files</dt>
            <dd>{formatNumber(data.storage.mediaFiles)}</dd>
          </div>
          <div className="admin-figure">
            <dt>Media size</dt>
            <dd>{bytes(data.storage.mediaBytes)}</dd>
          </div>
          <div className="admin-figure">
            <dt>Database</dt>
            <dd>{bytes(data.storage.databaseBytes)}</dd>
          </div>
          <div className="admin-figure">
            <dt>Disk free</dt>
            <dd data-testid="disk-free">{bytes(data.storage.freeBytes)}</dd>
          </div>
          <div className="admin-figure">
            <dt>Scene cache</dt>
            <dd data-testid="render-cache">
              {data.renderCache.capBytes > 0
                ? `${bytes(data.renderCache.bytes)} of ${bytes(data.renderCache.capBytes)}, ${
                    data.renderCache.hitRate === null ? "no renders yet" : `${Math.round(data.renderCache.hitRate * 100)} % reused`
                  }`
                : "Off (RENDER_CACHE_MB=0)"}
            </dd>
          </div>
        </dl>
      ) : (
        <Skeleton height="8rem" />
      )}
      {data ? (
        <>
          <h3 className="stat-label">Scheduled tasks</h3>
          <ul className="admin-list">
            {data.scheduledTasks.map((task) => (
              <li key={task.id} className="admin-item">
                <div className="admin-item-head">
                  <span>{task.name}</span>
                  <span className="muted">{task.status}</span>
                </div>
                <p className="admin-item-facts">
                  <span>Last: {formatDateTime(task.lastRunAt)}</span>
                  <span>Next: {formatDateTime(task.nextRunAt)}</span>
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
