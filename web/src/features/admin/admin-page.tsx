import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { formatDate, formatDateTime, formatNumber, planName } from "../../lib/format.ts";
import { useDebounced, useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

type UsersPage = RouterOutputs["admin"]["users"];
import { Pagination } from "../../ui/pagination.tsx";
import "./admin.css";
import "./admin-console.css";
import { Email } from "../../ui/email.tsx";
import { SearchBox } from "../../ui/search-box.tsx";
import { TableNoteRow } from "../../ui/table-note-row.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { TableHead } from "../../ui/table-head.tsx";

const PAGE_SIZE = 20;

function pageFrom(params: URLSearchParams): number {
  const n = Number.parseInt(params.get("page") ?? "1", 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

export function AdminPage({ session }: PageProps) {
  useTitle("Users · Admin");
  const uid = useId();
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params);
  const search = params.get("q") ?? "";
  const [input, setInput] = useState(search);
  const debounced = useDebounced(input.trim(), 300);

  // The search box writes the URL (after a pause); the URL drives the query, so results are linkable.
  useEffect(() => {
    if (debounced === search) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (debounced) next.set("q", debounced);
        else next.delete("q");
        next.delete("page");
        return next;
      },
      { replace: true },
    );
  }, [debounced, search, setParams]);

  const users = useQuery(
    trpc.admin.users.queryOptions({ page, pageSize: PAGE_SIZE, ...(search ? { search } : {}) }, { placeholderData: keepPreviousData }),
  );

  function goTo(nextPage: number) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (nextPage <= 1) next.delete("page");
      else next.set("page", String(nextPage));
      return next;
    });
  }

  const data = users.data;
  const totalPages = data ? Math.max(1, data.totalPages) : 1;
  const first = data && data.total > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const last = data ? Math.min(data.total, data.page * data.pageSize) : 0;

  return (
    <div className="page" data-testid="admin">
      <PageHeader
        title="Users"
        subtitle={
          <>
            Every account in this workspace. Open one to change its credits, plan, role or access. You are signed in as{" "}
            <Email address={session.email} />.
          </>
        }
      />
      <AdminNav />

      <section className="card card-flush">
        <div className="toolbar">
          <SearchBox
            id={`${uid}-search`}
            label="Search by e-mail"
            icon
            placeholder="Search by e-mail"
            autoComplete="off"
            spellCheck={false}
            value={input}
            maxLength={254}
            onChange={setInput}
            testId="admin-search"
          />
          <p className="toolbar-meta muted" aria-live="polite" data-testid="admin-total">
            {users.isFetching ? <Spinner size="sm" /> : null}
            {data ? (data.total === 0 ? "No users" : `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(data.total)}`) : null}
          </p>
        </div>

        {users.isError ? (
          <div className="card-body">
            <InlineError error={users.error} onRetry={() => void users.refetch()} />
          </div>
        ) : null}

        <UsersTable users={users} page={page} search={search} />
        <Pagination
          page={page}
          totalPages={totalPages}
          onPage={goTo}
          busy={users.isFetching}
          testIds={{ previous: "admin-prev", page: "admin-page", next: "admin-next" }}
        />
      </section>
    </div>
  );
}

/** One page of accounts; a row opens the account. */
function UsersTable({ users, page, search }: { users: UseQueryResult<UsersPage, unknown>; page: number; search: string }) {
  const [, navigate] = useLocation();
  const data = users.data;
  return (
    <div className="table-wrap">
      <table className="table table-hover admin-users-table" data-testid="admin-users" aria-busy={users.isFetching}>
        <caption className="visually-hidden">Users, page {page}</caption>
        <TableHead columns={["Email", "Role", "Plan", { label: "Credits", num: true }, "Status", "Joined", "Last login"]} />
        <tbody>
          {data?.users.map((user) => (
            // The whole row opens the account; the e-mail is the real link (keyboard, middle-click, copy).
            <tr
              key={user.id}
              data-testid="admin-user-row"
              data-href={`/admin/users/${user.id}`}
              onClick={(event) => {
                if ((event.target as HTMLElement).closest("a")) return;
                navigate(`/admin/users/${user.id}`);
              }}
            >
              <th scope="row" className="cell-email">
                <Link href={`/admin/users/${user.id}`} className="admin-row-link" data-testid="admin-user-link">
                  <Email address={user.email} />
                </Link>
              </th>
              <td>{user.role === "admin" ? <span className="badge badge-admin">Admin</span> : "User"}</td>
              <td>{planName(user.current_plan_id)}</td>
              <td className="num">{formatNumber(user.credits_balance)}</td>
              <td>
                <span className={user.status === "active" ? "badge badge-success" : "badge badge-danger"}>
                  {user.status === "active" ? "Active" : "Suspended"}
                </span>
              </td>
              <td>{formatDate(user.created_at)}</td>
              <td>{formatDateTime(user.last_login)}</td>
            </tr>
          ))}
          {data && data.users.length === 0 ? (
            <TableNoteRow columns={7}>{search ? `No users match “${search}”.` : "No users yet."}</TableNoteRow>
          ) : null}
          {!data && users.isPending ? (
            <TableNoteRow columns={7}>
              <Spinner size="sm" /> Loading users…
            </TableNoteRow>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
