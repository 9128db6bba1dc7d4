// Billing: the balance and plan, credit packs and plans with their prices (bought through the provider's
// checkout, or the built-in sandbox), the invoices with PDF downloads, and where the API key is (Settings).
import { useQuery } from "@tanstack/react-query";
import { useSearch } from "wouter";
import { ApiKeyLink } from "./api-key-link.tsx";
import { BalanceCard } from "./balance-card.tsx";
import "./billing.css";
import { InvoiceList } from "./invoice-list.tsx";
import { PackList } from "./pack-list.tsx";
import { PlanList } from "./plan-list.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { PageHeader } from "../../ui/page-header.tsx";

function CheckoutNotice() {
  const outcome = new URLSearchParams(useSearch()).get("checkout");
  if (outcome === "success") {
    return (
      <div className="alert alert-success" role="status" data-testid="checkout-notice">
        Payment received. Your credits and plan update here as soon as the payment provider confirms it.
      </div>
    );
  }
  if (outcome === "cancelled") {
    return (
      <div className="alert alert-warning" role="status" data-testid="checkout-notice">
        Checkout cancelled: nothing was charged.
      </div>
    );
  }
  return null;
}

export function BillingPage() {
  useTitle("Billing");
  const trpc = useTRPC();
  const pricing = useQuery(trpc.public.pricing.queryOptions());
  const profile = useQuery(trpc.user.profile.queryOptions());
  const mode = pricing.data?.checkout.mode;

  return (
    <div className="page page-narrow" data-testid="billing">
      <PageHeader title="Billing" subtitle="Buy credits, change your plan and download invoices." />
      <CheckoutNotice />
      <BalanceCard />
      {mode === "sandbox" ? (
        <p className="alert alert-warning" data-testid="sandbox-mode">
          This server has no payment provider: purchases go through a sandbox checkout and no real money is taken.
        </p>
      ) : null}
      {mode === "unavailable" ? (
        <p className="alert alert-warning">
          Payments are not set up on this server yet; ask its operator to configure the payment provider.
        </p>
      ) : null}
      {pricing.isError ? <InlineError error={pricing.error} onRetry={() => void pricing.refetch()} /> : null}
      {pricing.isPending ? <Skeleton height="12rem" /> : null}
      {pricing.data ? (
        <>
          <PackList packs={pricing.data.packs} disabled={mode === "unavailable"} />
          <PlanList pricing={pricing.data} currentPlan={profile.data?.current_plan_id} disabled={mode === "unavailable"} />
        </>
      ) : null}
      <InvoiceList />
      <ApiKeyLink />
    </div>
  );
}
