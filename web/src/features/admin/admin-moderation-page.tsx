// /admin/moderation: the moderation queue (notices and appeals, pending first) and the decision form
// for each pending item: remove, restrict or dismiss, with the statement of reasons the owner and the
// reporters receive.
import { MODERATION_CATEGORIES, type ModerationAction, type ModerationQueueItem, ModerationResolveInput } from "@adgen/schema";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { AdminNav } from "./admin-nav.tsx";
import "./admin-console.css";
import { FieldError, FormAlert } from "../../ui/form.tsx";
import { ACTION_LABELS, CATEGORY_LABELS } from "../moderation/labels.ts";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import { Pagination } from "../../ui/pagination.tsx";
import { Select } from "../../ui/select.tsx";
import "./admin.css";
import "../moderation/moderation.css";
import { FormActions } from "../../ui/form-actions.tsx";

const STATUSES = ["pending", "resolved", "all"] as const;
const KINDS = ["all", "notice", "appeal"] as const;

export function AdminModerationPage(_props: PageProps) {
  useTitle("Moderation · Admin");
  const uid = useId();
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const status = (STATUSES as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as (typeof STATUSES)[number])
    : "all";
  const kind = (KINDS as readonly string[]).includes(params.get("kind") ?? "") ? (params.get("kind") as (typeof KINDS)[number]) : "all";
  const category = (MODERATION_CATEGORIES as readonly string[]).includes(params.get("category") ?? "")
    ? (params.get("category") as (typeof MODERATION_CATEGORIES)[number])
    : undefined;
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const queue = useQuery(
    trpc.moderation.queue.queryOptions(
      { status, kind, page, pageSize: 20, ...(category ? { category } : {}) },
      { placeholderData: keepPreviousData },
    ),
  );

  function setFilter(name: string, value: string) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value && value !== "all") next.set(name, value);
      else next.delete(name);
      if (name !== "page") next.delete("page");
      return next;
    });
  }

  const data = queue.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="page" data-testid="admin-moderation">
      <header className="page-header">
        <div>
          <p className="breadcrumbs">
            <Link href="/admin">Admin</Link> <span aria-hidden="true">/</span> <span aria-current="page">Moderation</span>
          </p>
          <h1 className="page-title">Moderation</h1>
          <p className="page-subtitle muted">
            Notices about content and appeals against decisions. {data ? `${formatNumber(data.pending)} waiting for a decision.` : ""}
          </p>
        </div>
      </header>
      <AdminNav />

      <section className="card">
        <div className="moderation-filters">
          <Select id={`${uid}-status`} label="Status" value={status} onChange={(v) => setFilter("status", v)} testId="filter-status">
            <option value="all">All</option>
            <option value="pending">Pending</option>
            <option value="resolved">Resolved</option>
          </Select>
          <Select id={`${uid}-kind`} label="Kind" value={kind} onChange={(v) => setFilter("kind", v)} testId="filter-kind">
            <option value="all">Notices and appeals</option>
            <option value="notice">Notices</option>
            <option value="appeal">Appeals</option>
          </Select>
          <Select
            id={`${uid}-category`}
            label="Reason"
            value={category ?? ""}
            onChange={(v) => setFilter("category", v)}
            testId="filter-category"
          >
            <option value="">Any reason</option>
            {MODERATION_CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {CATEGORY_LABELS[value]}
              </option>
            ))}
          </Select>
          {queue.isFetching ? <Spinner size="sm" /> : null}
        </div>
      </section>

      {queue.isError ? <InlineError error={queue.error} onRetry={() => void queue.refetch()} /> : null}
      {queue.isPending ? (
        <p className="muted" aria-busy="true">
          Loading the queue…
        </p>
      ) : null}
      {data && data.items.length === 0 ? (
        <section className="card">
          <p className="muted" data-testid="queue-empty">
            Nothing here. New notices and appeals appear at the top.
          </p>
        </section>
      ) : null}
      {data?.items.map((item) => (
        <QueueItem key={`${item.kind}-${item.id}`} item={item} />
      ))}
      {data && totalPages > 1 ? (
        <Pagination
          page={page}
          totalPages={totalPages}
          onPage={(next) => setFilter("page", String(next))}
          label="Queue pages"
          previousLabel="Previous"
          nextLabel="Next"
        />
      ) : null}
    </div>
  );
}

function QueueItem({ item }: { item: ModerationQueueItem }) {
  return (
    <section
      className="card moderation-item"
      data-testid="queue-item"
      data-kind={item.kind}
      data-status={item.status}
      aria-label={`${item.kind} ${item.reference ?? item.id}`}
    >
      <p>
        <span className={`badge ${item.status === "pending" ? "badge-warning" : "badge-muted"}`}>
          {item.status === "pending" ? "Pending" : "Resolved"}
        </span>{" "}
        <strong>{item.kind === "notice" ? `Notice ${item.reference}` : "Appeal"}</strong>{" "}
        <span className="muted">
          · {CATEGORY_LABELS[item.category]} · {formatDateTime(item.submittedAt)}
        </span>
      </p>
      <p>
        Project <Link href={`/studio/jobs/${item.projectId}`}>{item.projectName}</Link>{" "}
        <span className="muted">of {item.ownerEmail || "a deleted account"}</span>
      </p>
      {item.target && item.target !== item.projectId ? <p className="muted moderation-target">Reported address: {item.target}</p> : null}
      <blockquote className="moderation-explanation" data-testid="queue-explanation">
        {item.explanation}
      </blockquote>
      {item.kind === "notice" ? (
        <p className="muted">
          From {item.reporterName ?? "an anonymous reporter"}
          {item.reporterEmail ? ` <${item.reporterEmail}>` : ""}
        </p>
      ) : null}
      {item.decision ? (
        <p data-testid="queue-decision">
          Decision: <strong>{ACTION_LABELS[item.decision.action]}</strong> · {item.decision.statement}
        </p>
      ) : null}
      {item.status === "pending" ? <ResolveForm item={item} /> : null}
    </section>
  );
}

function ResolveForm({ item }: { item: ModerationQueueItem }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<ModerationAction>(item.kind === "appeal" ? (item.decision?.action ?? "remove") : "remove");
  const [statement, setStatement] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const resolve = useMutation(
    trpc.moderation.resolve.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.moderation.queue.pathKey() }),
    }),
  );

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (resolve.isPending) return;
    const parsed = ModerationResolveInput.safeParse({ id: item.id, action, statement });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    await resolve.mutateAsync(parsed.data).catch(() => {});
  }

  const options: { value: ModerationAction; label: string }[] =
    item.kind === "appeal"
      ? [
          { value: item.decision?.action ?? "remove", label: "Uphold the decision" },
          { value: "dismiss", label: "Reverse: take no action" },
          ...(item.decision?.action === "remove" ? [{ value: "restrict" as const, label: "Change to restrict" }] : []),
          ...(item.decision?.action === "restrict" ? [{ value: "remove" as const, label: "Change to remove" }] : []),
        ]
      : [
          { value: "remove", label: "Remove: take the media offline" },
          { value: "restrict", label: "Restrict" },
          { value: "dismiss", label: "Dismiss: no action" },
        ];

  return (
    <form className="form" noValidate onSubmit={handleSubmit} aria-busy={resolve.isPending} data-testid="resolve-form">
      {resolve.isError ? <FormAlert>{errorMessage(resolve.error)}</FormAlert> : null}
      <div className="field">
        <label htmlFor={`${uid}-action`} className="field-label">
          Decision
        </label>
        <select
          id={`${uid}-action`}
          className="input select"
          value={action}
          onChange={(e) => setAction(e.target.value as ModerationAction)}
          data-testid="resolve-action"
        >
          {options.map((option) => (
            <option key={option.label} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className={`field${fieldError ? " has-error" : ""}`}>
        <label htmlFor={`${uid}-statement`} className="field-label">
          Statement of reasons
        </label>
        <textarea
          id={`${uid}-statement`}
          className="input textarea"
          rows={3}
          maxLength={4000}
          value={statement}
          onChange={(e) => {
            setStatement(e.target.value);
            setFieldError(undefined);
          }}
          aria-describedby={`${uid}-statement-hint`}
          data-testid="resolve-statement"
        />
        <p id={`${uid}-statement-hint`} className="field-hint">
          The project's owner and every reporter receive this: say what was decided, on what ground, and why.
        </p>
        <FieldError error={fieldError} />
      </div>
      <FormActions label="Decide" busyLabel="Deciding…" busy={resolve.isPending} testId="resolve-submit" />
    </form>
  );
}
