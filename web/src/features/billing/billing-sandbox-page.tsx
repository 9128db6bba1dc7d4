// The built-in sandbox checkout: stands in for the payment provider when none is configured. It is marked
// as a sandbox everywhere; confirming pays the order through the same path as a provider's webhook.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import "./billing.css";
import { FormAlert } from "../../ui/form.tsx";
import { ErrorPanel, PageLoader, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatMoney, formatNumber, planName } from "../../lib/format.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";

export function BillingSandboxPage() {
  useTitle("Sandbox checkout");
  const { orderId = "" } = useParams<{ orderId: string }>();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const order = useQuery(trpc.billing.sandboxOrder.queryOptions({ orderId }, { retry: false }));
  const confirm = useMutation(
    trpc.billing.sandboxConfirm.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.billing.sandboxOrder.queryKey({ orderId }), result.order);
        queryClient.setQueryData(trpc.user.credits.queryKey(), { balance: result.balance });
        for (const key of [trpc.user.profile.queryKey(), trpc.billing.invoices.queryKey(), trpc.user.apiKey.queryKey()]) {
          void queryClient.invalidateQueries({ queryKey: key });
        }
      },
    }),
  );

  if (order.isPending) return <PageLoader label="Loading the order…" />;
  if (order.isError) {
    return (
      <div className="page page-narrow">
        <ErrorPanel title="This checkout cannot be shown" message={errorMessage(order.error)} onRetry={() => void order.refetch()}>
          <Link href="/billing">Back to Billing</Link>
        </ErrorPanel>
      </div>
    );
  }
  const o = order.data;
  const paid = confirm.data;
  return (
    <div className="page page-narrow" data-testid="sandbox-checkout">
      <div className="sandbox-banner" role="note" data-testid="sandbox-banner">
        SANDBOX CHECKOUT: no real payment
        <p>This test page stands in for the payment provider. Confirming adds what you buy without charging anything.</p>
      </div>
      <section className="card sandbox-order" aria-labelledby="sandbox-title">
        <h1 id="sandbox-title" className="card-title">
          {o.description}
        </h1>
        <dl>
          <dt>Amount</dt>
          <dd data-testid="sandbox-amount">{formatMoney(o.amount, o.currency)}</dd>
          <dt>{o.kind === "plan" ? "Monthly credits" : "Credits"}</dt>
          <dd>{formatNumber(o.credits)}</dd>
          {o.planId ? (
            <>
              <dt>Plan</dt>
              <dd>
                {planName(o.planId)}, {o.interval}
              </dd>
            </>
          ) : null}
          <dt>Order</dt>
          <dd className="mono">{o.id}</dd>
        </dl>
        {confirm.isError ? <FormAlert testId="sandbox-error">{errorMessage(confirm.error)}</FormAlert> : null}
        {paid ? (
          <div className="alert alert-success" role="status" data-testid="sandbox-paid">
            Paid (sandbox). Your balance is now {formatNumber(paid.balance)} credits
            {o.kind === "plan" ? ` and your plan is ${planName(paid.planId)}` : ""}.
          </div>
        ) : null}
        {o.status === "pending" && !paid ? (
          <div className="form-actions">
            <button type="button" className="btn btn-primary" disabled={confirm.isPending} onClick={() => confirm.mutate({ orderId })}>
              {confirm.isPending ? (
                <>
                  <Spinner size="sm" /> Confirming…
                </>
              ) : (
                `Confirm test payment of ${formatMoney(o.amount, o.currency)}`
              )}
            </button>
            <Link href="/billing?checkout=cancelled" className="btn btn-ghost">
              Cancel
            </Link>
          </div>
        ) : null}
        {o.status !== "pending" && !paid ? <p className="muted">This order is {o.status}.</p> : null}
        {o.status !== "pending" || paid ? (
          <Link href="/billing" className="btn btn-ghost" data-testid="sandbox-back">
            Back to Billing
          </Link>
        ) : null}
      </section>
    </div>
  );
}
