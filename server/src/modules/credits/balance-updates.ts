// Balance updates: a change of an account's credits, sent on the bus (server/src/bus, which carries
// messages) to the SPA and to GraphQL subscribers. "Update" is a live message, not a stored job event.
import type { Services, Tx } from "../../request-context.ts";
import { type BusMessage, iterateEvents } from "../../bus/bus.ts";

export interface BalanceChanged {
  balance: number;
  delta: number;
  reason: string;
}

export const BALANCE_EVENT = "account.balance";

export function publishBalance(services: Services, userId: string, data: BalanceChanged): void {
  services.events.publish({ kind: BALANCE_EVENT, userId, data });
}

/**
 * A balance change's event, sent by the transaction that made the change where the bus can (PostgreSQL:
 * a NOTIFY, delivered at commit). Balance changes of one account take turns on its row, so their
 * commits, and with them their events, come in the order the balance changed: the launch's charge
 * statement sends its event the same way, and one published after commit could arrive behind a later
 * change's (a client would then show a balance already gone). Call the answer once committed: it
 * publishes the event where the bus could not send it in the transaction.
 */
export async function balanceEventIn(tx: Tx, services: Services, userId: string, data: BalanceChanged): Promise<() => void> {
  const inSql = services.events.publishInSql;
  if (!inSql) return () => publishBalance(services, userId, data);
  // Executed, not queried: pg_notify answers void, which Prisma cannot read back.
  await tx.$executeRawUnsafe(
    `SELECT ${inSql({ kind: "$1::text", userId: "$2::text", data: "$3::json" })}`,
    BALANCE_EVENT,
    userId,
    JSON.stringify(data),
  );
  return () => {};
}

/** The account's balance changes as they happen. */
export function watchBalance(services: Services, userId: string, signal?: AbortSignal): AsyncGenerator<BalanceChanged> {
  return iterateEvents(
    services.events,
    (event: BusMessage) => (event.kind === BALANCE_EVENT && event.userId === userId ? (event.data as BalanceChanged) : undefined),
    signal,
  );
}
