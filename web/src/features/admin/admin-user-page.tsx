// One account, for an administrator: who it is, and every action the admin API offers on it.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { AccountFieldsForm } from "./account-fields-form.tsx";
import { CreditsForm } from "./credits-form.tsx";
import { ResetPasswordForm } from "./reset-password-form.tsx";
import { StatusControl } from "./status-control.tsx";
import { ErrorPanel, PageLoader } from "../../ui/status.tsx";
import { errorCode } from "../../lib/errors.ts";
import { formatDate, formatDateTime, formatNumber, planName } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { useTRPC } from "../../trpc.ts";
import "./admin.css";
import { Email } from "../../ui/email.tsx";

export function AdminUserPage({ session }: PageProps) {
  const { id } = useParams<{ id: string }>();
  const trpc = useTRPC();
  const user = useQuery(trpc.admin.user.queryOptions({ id }));
  useTitle(user.data ? `${user.data.email} · Admin` : "User · Admin");

  if (user.isPending) return <PageLoader label="Loading the account…" />;
  if (user.isError) {
    const missing = errorCode(user.error) === "NOT_FOUND";
    return (
      <ErrorPanel
        title={missing ? "No such account" : "Could not load the account"}
        code={missing ? "404" : undefined}
        error={user.error}
        onRetry={missing ? undefined : () => void user.refetch()}
      >
        <Link href="/admin" className="btn btn-ghost">
          All users
        </Link>
      </ErrorPanel>
    );
  }

  const account = user.data;
  const isSelf = account.id === session.userId;
  return (
    <div className="page page-narrow" data-testid="admin-user">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link href="/admin">Users</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">
          <Email address={account.email} />
        </span>
      </nav>
      <header className="page-header">
        <div className="admin-user-heading">
          <h1 className="page-title admin-user-email" data-testid="admin-user-email">
            <Email address={account.email} />
          </h1>
          <p className="page-subtitle">
            <span className={account.status === "active" ? "badge badge-success" : "badge badge-danger"} data-testid="admin-user-status">
              {account.status === "active" ? "Active" : "Suspended"}
            </span>{" "}
            {account.role === "admin" ? <span className="badge badge-admin">Admin</span> : null}
            {isSelf ? <span className="muted"> · this is you</span> : null}
          </p>
        </div>
      </header>

      <dl className="card admin-user-facts" data-testid="admin-user-facts">
        <div>
          <dt>Plan</dt>
          <dd data-testid="admin-user-plan">{planName(account.current_plan_id)}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd>{formatNumber(account.credits_balance)}</dd>
        </div>
        <div>
          <dt>Trial ends</dt>
          <dd data-testid="admin-user-trial">{formatDate(account.trial_ends_at)}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDate(account.created_at)}</dd>
        </div>
        <div>
          <dt>Last login</dt>
          <dd>{formatDateTime(account.last_login)}</dd>
        </div>
        <div>
          <dt>API key</dt>
          <dd>{account.has_api_key ? "Yes" : "No"}</dd>
        </div>
      </dl>

      <CreditsForm user={account} />
      <AccountFieldsForm user={account} isSelf={isSelf} />
      <StatusControl user={account} isSelf={isSelf} />
      <ResetPasswordForm user={account} />
    </div>
  );
}
