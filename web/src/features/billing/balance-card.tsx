// The balance and plan at the top of Billing; the balance is live (LiveBalanceProvider writes each change
// into the cached answers), so a payment confirmed anywhere shows here at once.
import { useQuery } from "@tanstack/react-query";
import { formatNumber, planName } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { useLiveBalance } from "../shell/live-balance.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { LoadingNumber } from "../../ui/loading-number.tsx";

export function BalanceCard() {
  const trpc = useTRPC();
  const credits = useQuery(trpc.user.credits.queryOptions());
  const profile = useQuery(trpc.user.profile.queryOptions());
  const { lastChange } = useLiveBalance();
  const balance = credits.data?.balance ?? profile.data?.credits_balance;
  return (
    <section className="card billing-summary" aria-label="Balance and plan">
      <div>
        <p className="stat-label">Credit balance</p>
        <p className="billing-balance" aria-live="polite">
          <LoadingNumber value={balance} testId="billing-balance" width="4rem" height="2rem" />
          <span className="muted"> credits</span>
        </p>
        {lastChange && lastChange.delta > 0 ? (
          <p className="muted billing-last-change" data-testid="billing-last-change">
            +{formatNumber(lastChange.delta)} just added
          </p>
        ) : null}
      </div>
      <div>
        <p className="stat-label">Plan</p>
        <p className="billing-plan" data-testid="billing-plan">
          {profile.data ? planName(profile.data.current_plan_id) : <Skeleton width="6rem" />}
        </p>
      </div>
      {credits.isError ? <InlineError error={credits.error} onRetry={() => void credits.refetch()} /> : null}
    </section>
  );
}
