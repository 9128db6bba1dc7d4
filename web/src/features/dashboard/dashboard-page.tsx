// The dashboard: balance, plan and trial; the latest projects and credits used per day; the account;
// and what the balance buys on this plan (a workflow the plan leaves out is never offered as "1 run").
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { RecentProjects } from "./recent-projects.tsx";
import { UsageChart } from "./usage-chart.tsx";
import "./dashboard.css";
import { useLiveBalance } from "../shell/live-balance.tsx";
import { isReservedOn } from "../studio/launch-blocks.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { formatDate, formatDateTime, formatNumber, planName, signed, trialCountdown } from "../../lib/format.ts";
import { useNow, useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

type Profile = RouterOutputs["user"]["profile"];
import { Email } from "../../ui/email.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Card } from "../../ui/card.tsx";
import { LoadingNumber } from "../../ui/loading-number.tsx";

const PROVIDER_LABELS: Record<string, string> = { auto: "AdGen picks one for each ad", fal: "fal.ai", replicate: "Replicate" };

export function DashboardPage({ session }: PageProps) {
  useTitle("Dashboard");
  const trpc = useTRPC();
  const profile = useQuery(trpc.user.profile.queryOptions());
  const credits = useQuery(trpc.user.credits.queryOptions());

  const p = profile.data;
  const balance = credits.data?.balance ?? p?.credits_balance;
  // A trial only counts down on the trial plan (an older row may keep its date after a plan change).
  const trialEndsAt = p ? (p.current_plan_id === "trial" ? p.trial_ends_at : null) : session.trialEndsAt;

  return (
    <div className="page" data-testid="dashboard">
      <PageHeader
        title="Dashboard"
        subtitle={
          <>
            Signed in as{" "}
            <strong>
              <Email address={session.email} />
            </strong>
          </>
        }
      />

      {profile.isError ? <InlineError error={profile.error} onRetry={() => void profile.refetch()} /> : null}

      <div className="stat-grid">
        <BalanceCard balance={balance} />
        <section className="card stat-card" aria-labelledby="plan-title">
          <h2 id="plan-title" className="stat-label">
            Plan
          </h2>
          <p className="stat-value stat-value-text">
            {p ? <span data-testid="profile-plan">{planName(p.current_plan_id)}</span> : <Skeleton width="6rem" height="2rem" />}
          </p>
          <p className="stat-foot muted">
            <Link href="/billing#plans" data-testid="dashboard-change-plan">
              Change your plan on Billing
            </Link>
          </p>
        </section>

        <TrialCard p={p} profilePending={profile.isPending} trialEndsAt={trialEndsAt} />
      </div>

      <div className="two-col">
        <RecentProjects />
        <UsageChart />
      </div>

      <div className="two-col">
        <AccountCard p={p} />
        <WorkflowCosts balance={balance} planId={p?.current_plan_id} />
      </div>
    </div>
  );
}

function WorkflowCosts({ balance, planId }: { balance: number | undefined; planId: string | undefined }) {
  const trpc = useTRPC();
  const pricing = useQuery(trpc.public.pricing.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  return (
    <Card title="What your credits buy" titleId="costs-title">
      {pricing.isError ? <InlineError error={pricing.error} onRetry={() => void pricing.refetch()} /> : null}
      {pricing.data ? (
        <ul className="cost-list">
          {pricing.data.workflows.map((w) => {
            const reserved = isReservedOn(w.type, planId);
            const runs = balance === undefined || reserved ? null : Math.floor(balance / Math.max(1, w.standard));
            return (
              <li key={w.type} data-testid={`cost-${w.type}`}>
                <span className="cost-name">{w.name}</span>
                <span className="cost-value">
                  {w.standard === w.premium ? `${w.standard} cr` : `${w.standard}–${w.premium} cr`}
                  {reserved ? <span className="cost-reserved"> · paid plans only</span> : null}
                  {runs !== null ? <span className="muted"> · {runs === 1 ? "1 run" : `${formatNumber(runs)} runs`}</span> : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : pricing.isPending ? (
        <Skeleton width="100%" height="8rem" />
      ) : null}
      <p className="card-foot muted">
        Launch one in the <Link href="/studio">Studio</Link>; your results are in <Link href="/projects">Projects</Link>.
      </p>
    </Card>
  );
}

/** The balance, live, with its last change. */
function BalanceCard({ balance }: { balance: number | undefined }) {
  const { status, lastChange } = useLiveBalance();
  const now = useNow(30_000);
  const recentChange = lastChange && now - lastChange.at < 10 * 60_000 ? lastChange : null;
  return (
    <section className="card stat-card stat-card-accent" aria-labelledby="balance-title">
      <div className="stat-head">
        <h2 id="balance-title" className="stat-label">
          Credit balance
        </h2>
        <span className={`live-badge live-${status}`} title={status === "live" ? "Updates as your balance changes" : undefined}>
          <span className={`live-dot live-${status}`} aria-hidden="true" />
          {status === "live" ? "Live" : status === "off" ? "Offline" : "Connecting"}
        </span>
      </div>
      <p className="stat-value" aria-live="polite">
        <LoadingNumber value={balance} testId="credit-balance" width="4rem" height="2.25rem" />
        <span className="stat-unit">credits</span>
      </p>
      <p className="stat-foot muted" data-testid="balance-last-change">
        {recentChange ? (
          <>
            <span className={recentChange.delta >= 0 ? "delta delta-up" : "delta delta-down"}>{signed(recentChange.delta)}</span>{" "}
            {recentChange.reason.replaceAll("_", " ")}
          </>
        ) : (
          "Charged per workflow run, refunded if a run fails."
        )}
      </p>
    </section>
  );
}

/** How long the trial has left, or that it ended. */
function TrialCard({ p, profilePending, trialEndsAt }: { p: Profile | undefined; profilePending: boolean; trialEndsAt: string | null }) {
  const now = useNow(30_000);
  const trial = trialCountdown(trialEndsAt, now);
  return (
    <section className="card stat-card" aria-labelledby="trial-title">
      <h2 id="trial-title" className="stat-label">
        Trial
      </h2>
      <p className="stat-value stat-value-text">
        {p || !profilePending ? (
          <span data-testid="trial-countdown" data-state={trial.state} className={`trial trial-${trial.state}`}>
            {trial.label}
          </span>
        ) : (
          <Skeleton width="8rem" height="2rem" />
        )}
      </p>
      <p className="stat-foot muted">
        {trial.state === "none"
          ? "Your account has no trial period."
          : trial.state === "ended"
            ? `Ended ${formatDateTime(trialEndsAt)}.`
            : `Ends ${formatDateTime(trialEndsAt)}.`}
      </p>
    </section>
  );
}

/** The account's facts, with the way to edit them. */
function AccountCard({ p }: { p: Profile | undefined }) {
  return (
    <Card title="Account" titleId="account-title" link={{ href: "/settings", label: "Edit account" }}>
      <dl className="details">
        <div>
          <dt>Email</dt>
          <dd>{p ? <Email address={p.email} testId="profile-email" /> : <Skeleton width="12rem" />}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd data-testid="profile-role">{p ? p.role === "admin" ? "Administrator" : "Member" : <Skeleton width="5rem" />}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            {p ? (
              <span className={p.status === "active" ? "badge badge-success" : "badge badge-danger"}>
                {p.status === "active" ? "Active" : "Suspended"}
              </span>
            ) : (
              <Skeleton width="4rem" />
            )}
          </dd>
        </div>
        <div>
          <dt>Last login</dt>
          <dd data-testid="profile-last-login">{p ? formatDateTime(p.last_login) : <Skeleton width="9rem" />}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd>{p ? formatDate(p.created_at) : <Skeleton width="7rem" />}</dd>
        </div>
        <div>
          <dt>Who makes the videos</dt>
          <dd>{p ? (PROVIDER_LABELS[p.provider_preference] ?? p.provider_preference) : <Skeleton width="6rem" />}</dd>
        </div>
        <div>
          <dt>API key</dt>
          <dd>{p ? p.has_api_key ? "Active" : "None" : <Skeleton width="4rem" />}</dd>
        </div>
      </dl>
    </Card>
  );
}
