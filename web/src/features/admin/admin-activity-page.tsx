// The activity log: the audit trail, newest first, filtered by account, action and dates, page by page.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { useDebounced, useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { Pagination } from "../../ui/pagination.tsx";
import "./admin.css";
import "./admin-console.css";
import { TableNoteRow } from "../../ui/table-note-row.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { TableHead } from "../../ui/table-head.tsx";
import { Field } from "../../ui/form.tsx";

const PAGE_SIZE = 50;

export function AdminActivityPage() {
  useTitle("Activity · Admin");
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState({ userId: "", action: "", from: "", to: "" });
  const debounced = useDebounced(filters, 300);
  const input = {
    page,
    pageSize: PAGE_SIZE,
    ...(debounced.userId.trim() ? { userId: debounced.userId.trim() } : {}),
    ...(debounced.action.trim() ? { action: debounced.action.trim() } : {}),
    ...(debounced.from ? { from: debounced.from } : {}),
    ...(debounced.to ? { to: debounced.to } : {}),
  };
  const activity = useQuery(trpc.admin.activity.queryOptions(input, { placeholderData: keepPreviousData }));
  const data = activity.data;
  const set = (key: keyof typeof filters) => (event: { target: { value: string } }) => {
    setFilters({ ...filters, [key]: event.target.value });
    setPage(1);
  };

  return (
    <div className="page" data-testid="admin-activity">
      <PageHeader title="Activity" subtitle="Who did what, and when: sign-ins, changes, and every admin action." />
      <AdminNav />
      <section className="card card-flush">
        <div className="admin-filters">
          <Field label="Account id" value={filters.userId} onChange={set("userId")} placeholder="acting or acted-on account" />
          <Field
            label="Action"
            value={filters.action}
            onChange={set("action")}
            placeholder="auth.login, or admin. for all"
            testId="activity-action"
          />
          <Field label="From" type="date" value={filters.from} onChange={set("from")} />
          <Field label="To" type="date" value={filters.to} onChange={set("to")} />
        </div>
        <p className="toolbar-meta muted" aria-live="polite" style={{ padding: "0 16px" }} data-testid="activity-total">
          {activity.isFetching ? <Spinner size="sm" /> : null}
          {data ? `${formatNumber(data.total)} ${data.total === 1 ? "entry" : "entries"}` : null}
        </p>
        {activity.isError ? (
          <div className="card-body">
            <InlineError error={activity.error} onRetry={() => void activity.refetch()} />
          </div>
        ) : null}
        <div className="table-wrap">
          <table className="table" data-testid="activity-table">
            <TableHead columns={["When", "Who", "Action", "On", "Details"]} />
            <tbody>
              {data?.entries.map((entry) => (
                <tr key={entry.id} data-testid="activity-row">
                  <td>{formatDateTime(entry.createdAt)}</td>
                  <td className="cell-email">{entry.actorEmail ?? entry.actorId ?? "anonymous"}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{entry.targetType ? `${entry.targetType}${entry.targetId ? ` ${entry.targetId.slice(0, 8)}` : ""}` : "—"}</td>
                  <td className="admin-meta">{Object.keys(entry.metadata).length ? JSON.stringify(entry.metadata) : ""}</td>
                </tr>
              ))}
              {data && data.entries.length === 0 ? <TableNoteRow columns={5}>Nothing matches these filters.</TableNoteRow> : null}
            </tbody>
          </table>
        </div>
        <Pagination page={page} totalPages={data?.totalPages ?? 1} onPage={setPage} previousLabel="← Newer" nextLabel="Older →" />
      </section>
    </div>
  );
}
