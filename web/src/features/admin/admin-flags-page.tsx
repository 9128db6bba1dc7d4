// Account flags: accounts whose refund or chargeback found the credits already spent, and confirmed
// payments that granted nothing (with or without an account that matches). Open ones first
// (filter open, resolved or all), newest first, paged; each can be resolved with a note.
import type { AccountFlagStatus } from "@adgen/schema";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AccountFlagCard } from "./account-flag-card.tsx";
import { AdminNav } from "./admin-nav.tsx";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { formatNumber } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { Pagination } from "../../ui/pagination.tsx";
import "./admin.css";
import "./admin-console.css";
import "./account-flags.css";
import { PageHeader } from "../../ui/page-header.tsx";

const PAGE_SIZE = 20;
const FILTERS: { value: AccountFlagStatus; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "resolved", label: "Resolved" },
  { value: "all", label: "All" },
];

export function AdminFlagsPage() {
  useTitle("Account flags · Admin");
  const trpc = useTRPC();
  const [status, setStatus] = useState<AccountFlagStatus>("open");
  const [page, setPage] = useState(1);
  const flags = useQuery(trpc.accountFlags.list.queryOptions({ status, page, pageSize: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const data = flags.data;

  return (
    <div className="page" data-testid="admin-flags">
      <PageHeader
        title="Account flags"
        subtitle={
          <>
            A refund or chargeback whose credits were already spent (the credits could not all be taken back), or a confirmed payment that
            matched no order, pack or account (the customer paid and got nothing). Check the account or the payment, then resolve the flag
            with what was done.
          </>
        }
      />
      <AdminNav />
      <div className="toolbar">
        <fieldset className="admin-segmented">
          <legend className="visually-hidden">Show</legend>
          {FILTERS.map((filter) => (
            <button
              key={filter.value}
              type="button"
              className={filter.value === status ? "btn btn-small btn-primary" : "btn btn-small btn-ghost"}
              aria-pressed={filter.value === status}
              onClick={() => {
                setStatus(filter.value);
                setPage(1);
              }}
              data-testid={`flags-filter-${filter.value}`}
            >
              {filter.label}
            </button>
          ))}
        </fieldset>
        <p className="toolbar-meta muted" aria-live="polite" data-testid="flags-total">
          {flags.isFetching ? <Spinner size="sm" /> : null}
          {data ? `${formatNumber(data.total)} ${data.total === 1 ? "flag" : "flags"} · ${formatNumber(data.openTotal)} open in all` : null}
        </p>
      </div>
      {flags.isError ? <InlineError error={flags.error} onRetry={() => void flags.refetch()} /> : null}
      {data && data.flags.length === 0 ? (
        <p className="card card-body empty" data-testid="flags-empty">
          {status === "open"
            ? "No open flags: every refund so far could be taken back in full, and every payment granted what it paid for."
            : "No flags here."}
        </p>
      ) : null}
      <ul className="account-flag-list" data-testid="flags-list">
        {data?.flags.map((flag) => (
          <AccountFlagCard key={flag.id} flag={flag} />
        ))}
      </ul>
      {data && data.totalPages > 1 ? <Pagination page={page} totalPages={data.totalPages} onPage={setPage} /> : null}
    </div>
  );
}
