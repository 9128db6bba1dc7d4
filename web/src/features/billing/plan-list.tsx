// The plans with their prices, monthly or yearly, each with its monthly credits; Choose opens the checkout.
import type { BillingInterval } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { formatMoney, formatNumber } from "../../lib/format.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { FormAlert } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { followCheckout } from "./checkout.ts";

type Pricing = RouterOutputs["public"]["pricing"];

export function PlanList({ pricing, currentPlan, disabled }: { pricing: Pricing; currentPlan: string | undefined; disabled: boolean }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const [interval, setInterval] = useState<BillingInterval>("monthly");
  const [choosing, setChoosing] = useState<string | null>(null);
  const checkout = useMutation(trpc.billing.checkout.mutationOptions());
  const buyable: readonly string[] = pricing.checkout.plans;
  const plans = pricing.plans.filter((plan) => buyable.includes(plan.id));

  async function choose(planId: string) {
    if (checkout.isPending) return;
    setChoosing(planId);
    try {
      const session = await checkout.mutateAsync({ planId: planId as "subscription_pro", interval });
      followCheckout(session, navigate);
    } catch {
      setChoosing(null);
    }
  }

  return (
    <section className="card billing-section" id="plans" aria-labelledby="plans-title">
      <div className="billing-section-head">
        <h2 id="plans-title" className="card-title">
          Plans
        </h2>
        <fieldset className="billing-interval">
          <legend className="visually-hidden">Billing interval</legend>
          {(["monthly", "yearly"] as const).map((value) => (
            <label key={value} className={interval === value ? "active" : undefined}>
              <input type="radio" name="interval" value={value} checked={interval === value} onChange={() => setInterval(value)} />
              {value === "monthly" ? "Monthly" : "Yearly"}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="muted">Every plan adds its monthly credits when it is paid and runs more jobs at once.</p>
      {checkout.isError ? <FormAlert testId="checkout-error">{errorMessage(checkout.error)}</FormAlert> : null}
      <ul className="billing-grid">
        {plans.map((plan) => {
          const price = interval === "yearly" ? plan.yearly : plan.monthly;
          const current = plan.id === currentPlan;
          return (
            <li key={plan.id} className={`billing-offer${current ? " billing-offer-current" : ""}`} data-testid={`plan-${plan.id}`}>
              <p className="billing-offer-name">
                {plan.name} {current ? <span className="badge badge-success">Current</span> : null}
              </p>
              <p className="billing-offer-price">
                {formatMoney(price, plan.currency)}
                <span className="muted"> / {interval === "yearly" ? "year" : "month"}</span>
              </p>
              <ul className="billing-offer-features">
                <li>{formatNumber(plan.monthlyCredits)} credits a month</li>
                <li>{plan.concurrentJobs} jobs at once</li>
                <li>{plan.apiAccess ? "API keys included" : "No API keys"}</li>
              </ul>
              <button
                type="button"
                className={`btn btn-block ${current ? "btn-ghost" : "btn-primary"}`}
                disabled={disabled || checkout.isPending}
                onClick={() => void choose(plan.id)}
              >
                {choosing === plan.id && checkout.isPending ? (
                  <>
                    <Spinner size="sm" /> Opening checkout…
                  </>
                ) : current ? (
                  "Renew"
                ) : (
                  `Choose ${plan.name}`
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
