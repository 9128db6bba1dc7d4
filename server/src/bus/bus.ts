// The message bus. Producers publish account-scoped messages; subscribers (SSE, GraphQL and tRPC
// subscriptions, webhooks) filter them. Words: the bus carries *messages*; a job's *events* are its
// stored history (modules/workflows/job-events.ts), each also sent as a message; a balance *update*
// (modules/credits/balance-updates.ts) is a message about an account's credits. This in-process bus serves one instance; a PostgreSQL
// LISTEN/NOTIFY bus implements the same interface when several instances share a database.
import { EventEmitter } from "node:events";
import { FellBehindError, MAX_BEHIND } from "../streams/push-source.ts";

export interface BusMessage<T = unknown> {
  /** e.g. "account.balance", "workflow.step" */
  kind: string;
  /** The account the event belongs to; admins may watch all. */
  userId: string;
  data: T;
  at: string;
}

export type Unsubscribe = () => void;

/** Broadcast locally when an instance's link to the others was lost and is back: messages may have been missed. */
export const BUS_RECONNECTED = "bus.reconnected";

export interface EventBus {
  publish(event: Omit<BusMessage, "at">): void;
  subscribe(listener: (event: BusMessage) => void): Unsubscribe;
  /** Listeners registered in this process (streams that have not released theirs show up here). */
  listenerCount(): number;
  /**
   * A message for every instance's own machinery (session revocations), never shown to any stream:
   * delivered to this process at once and to the others through the shared database when there is one.
   */
  broadcast(topic: string, payload: unknown): void;
  onBroadcast(topic: string, handler: (payload: unknown) => void): Unsubscribe;
  /**
   * When events travel through the database: an SQL expression that publishes an event as part of the
   * statement that holds it, sent when that statement's transaction commits (never when it rolls back),
   * so a hot path needs no round trip of its own. Its arguments are SQL expressions for the event's
   * fields. Absent when events stay in this process.
   */
  readonly publishInSql?: (event: { kind: string; userId: string; data: string }) => string;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();
  private readonly instanceMessages = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
    this.instanceMessages.setMaxListeners(0);
  }

  broadcast(topic: string, payload: unknown): void {
    this.instanceMessages.emit(topic, payload);
  }

  onBroadcast(topic: string, handler: (payload: unknown) => void): Unsubscribe {
    this.instanceMessages.on(topic, handler);
    return () => this.instanceMessages.off(topic, handler);
  }

  publish(event: Omit<BusMessage, "at">): void {
    this.deliver({ ...event, at: new Date().toISOString() });
  }

  /** Hands an already-stamped event to this process's subscribers. */
  deliver(event: BusMessage): void {
    this.emitter.emit("event", event);
  }

  subscribe(listener: (event: BusMessage) => void): Unsubscribe {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  listenerCount(): number {
    return this.emitter.listenerCount("event");
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
    this.instanceMessages.removeAllListeners();
  }
}

/** Turns bus events into an async iterable (for GraphQL and tRPC subscriptions), ending with `signal`. */
export async function* iterateEvents<T>(
  bus: EventBus,
  filter: (event: BusMessage) => T | undefined,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  // A reader that stops reading is ended (after what was queued) instead of holding memory without end.
  let behind = false;
  const unsubscribe = bus.subscribe((event) => {
    if (behind) return;
    const value = filter(event);
    if (value === undefined) return;
    if (queue.length >= MAX_BEHIND) behind = true;
    else queue.push(value);
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
      if (behind) throw new FellBehindError();
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
