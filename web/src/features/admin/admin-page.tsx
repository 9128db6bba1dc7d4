import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { formatDate, formatDateTime, formatNumber, planName } from "../../lib/format.ts";
import { useDebounced, useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { Pagination } from "../../ui/pagination.tsx";
import "./admin.css";
import "./admin-console.css";
import { Email } from "../../ui/email.tsx";

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
  const [, navigate] = useLocation();
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
      <header className="page-header">
        <div>
          <h1 className="page-title">Users</h1>
          <p className="page-subtitle muted">
            Every account in this workspace. Open one to change its credits, plan, role or access. You are signed in as{" "}
            <Email address={session.email} />.
          </p>
        </div>
      </header>
      <AdminNav />

      <section className="card card-flush">
        <div className="toolbar">
          <div className="search">
            <label htmlFor={`${uid}-search`} className="visually-hidden">
              Search by e-mail
            </label>
            <svg className="search-icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
              <path
                d="M8.5 3a5.5 5.5 0 1 0 3.4 9.8l3.6 3.7 1.1-1.1-3.7-3.6A5.5 5.5 0 0 0 8.5 3Zm0 1.5a4 4 0 1 1 0 8 4 4 0 0 1 0-8Z"
                fill="currentColor"
              />
            </svg>
            <input
              id={`${uid}-search`}
              className="input search-input"
              type="search"
              placeholder="Search by e-mail"
              autoComplete="off"
              spellCheck={false}
              value={input}
              maxLength={254}
              onChange={(e) => setInput(e.target.value)}
              data-testid="admin-search"
            />
          </div>
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

        <div className="table-wrap">
          <table className="table table-hover admin-users-table" data-testid="admin-users" aria-busy={users.isFetching}>
            <caption className="visually-hidden">Users, page {page}</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Plan</th>
                <th scope="col" className="num">
                  Credits
                </th>
                <th scope="col">Status</th>
                <th scope="col">Joined</th>
                <th scope="col">Last login</th>
              </tr>
            </thead>
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
                <tr>
                  <td colSpan={7} className="empty">
                    {search ? `No users match “${search}”.` : "No users yet."}
                  </td>
                </tr>
              ) : null}
              {!data && users.isPending ? (
                <tr>
                  <td colSpan={7} className="empty">
                    <Spinner size="sm" /> Loading users…
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>

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
