// The event bus. Producers publish account-scoped events; subscribers (SSE, GraphQL and tRPC
// subscriptions, webhooks) filter them. This in-process bus serves one instance; a PostgreSQL
// LISTEN/NOTIFY bus implements the same interface when several instances share a database.
import { EventEmitter } from "node:events";

export interface BusEvent<T = unknown> {
  /** e.g. "account.balance", "workflow.step" */
  kind: string;
  /** The account the event belongs to; admins may watch all. */
  userId: string;
  data: T;
  at: string;
}

export type Unsubscribe = () => void;

export interface EventBus {
  publish(event: Omit<BusEvent, "at">): void;
  subscribe(listener: (event: BusEvent) => void): Unsubscribe;
  /** Listeners registered in this process (streams that have not released theirs show up here). */
  listenerCount(): number;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(event: Omit<BusEvent, "at">): void {
    this.deliver({ ...event, at: new Date().toISOString() });
  }

  /** Hands an already-stamped event to this process's subscribers. */
  deliver(event: BusEvent): void {
    this.emitter.emit("event", event);
  }

  subscribe(listener: (event: BusEvent) => void): Unsubscribe {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  listenerCount(): number {
    return this.emitter.listenerCount("event");
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Turns bus events into an async iterable (for GraphQL and tRPC subscriptions), ending with `signal`. */
export async function* iterateEvents<T>(
  bus: EventBus,
  filter: (event: BusEvent) => T | undefined,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = bus.subscribe((event) => {
    const value = filter(event);
    if (value === undefined) return;
    queue.push(value);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    while (!signal?.aborted) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}
