// The credit packs with their prices; Buy opens the payment page for that pack.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { formatMoney, formatNumber } from "../../lib/format.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { FormAlert } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { followCheckout } from "./checkout.ts";

type Pack = RouterOutputs["public"]["pricing"]["packs"][number];

export function PackList({ packs, disabled }: { packs: readonly Pack[]; disabled: boolean }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const purchase = useMutation(trpc.billing.purchase.mutationOptions());
  const [buying, setBuying] = useState<string | null>(null);

  async function buy(packId: string) {
    if (purchase.isPending) return;
    setBuying(packId);
    try {
      const session = await purchase.mutateAsync({ packId: packId as "pack_10" });
      followCheckout(session, navigate);
    } catch {
      setBuying(null);
    }
  }

  return (
    <section className="card billing-section" aria-labelledby="packs-title">
      <h2 id="packs-title" className="card-title">
        Credit packs
      </h2>
      <p className="muted">One-off purchases; the credits never expire.</p>
      {purchase.isError ? <FormAlert testId="purchase-error">{errorMessage(purchase.error)}</FormAlert> : null}
      <ul className="billing-grid">
        {packs.map((pack) => (
          <li key={pack.id} className="billing-offer" data-testid={`pack-${pack.id}`}>
            <p className="billing-offer-name">{formatNumber(pack.credits)} credits</p>
            <p className="billing-offer-price">{formatMoney(pack.price, pack.currency)}</p>
            <p className="muted billing-offer-note">{formatMoney(pack.price / pack.credits, pack.currency)} per credit</p>
            <button
              type="button"
              className="btn btn-primary btn-block"
              disabled={disabled || purchase.isPending}
              onClick={() => void buy(pack.id)}
            >
              {buying === pack.id && purchase.isPending ? (
                <>
                  <Spinner size="sm" /> Opening checkout…
                </>
              ) : (
                `Buy ${formatNumber(pack.credits)} credits`
              )}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
