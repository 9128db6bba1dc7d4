// Account events of the spine: a balance change, pushed to the SPA and to GraphQL subscribers.
import type { RequestContext, Services } from "../../context.ts";
import { type BusEvent, iterateEvents } from "../../events/bus.ts";
import { requireUser } from "../auth/authenticate.ts";

export interface BalanceChanged {
  balance: number;
  delta: number;
  reason: string;
}

export const BALANCE_EVENT = "account.balance";

export function publishBalance(services: Services, userId: string, data: BalanceChanged): void {
  services.events.publish({ kind: BALANCE_EVENT, userId, data });
}

/** The signed-in account's balance changes as they happen. */
export function watchBalance(ctx: RequestContext, signal?: AbortSignal): AsyncGenerator<BalanceChanged> {
  const user = requireUser(ctx);
  return iterateEvents(
    ctx.services.events,
    (event: BusEvent) => (event.kind === BALANCE_EVENT && event.userId === user.id ? (event.data as BalanceChanged) : undefined),
    signal,
  );
}
