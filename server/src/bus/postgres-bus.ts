// The event bus across instances: every publish is a NOTIFY on one channel, and every instance
// LISTENs on a dedicated connection and hands what arrives to its local subscribers (its own
// publishes included, so each event reaches each subscriber exactly once, wherever it was published).
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "../logging/logger.ts";
import { BUS_RECONNECTED, type BusMessage, type EventBus, InProcessEventBus, type Unsubscribe } from "./bus.ts";

const CHANNEL = "adgen_events";
/** Messages between instances (broadcast): a channel of their own, so no stream ever sees one. */
const INSTANCE_CHANNEL = "adgen_instances";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;

export class PostgresEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private listener: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly instanceId = randomUUID();
  private listenedBefore = false;
  /** Published events not yet sent, in order (see flush). */
  private readonly outbox: { payload: string; event: BusMessage }[] = [];
  private flushing: Promise<void> | null = null;

  private constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  static async connect(url: string, pool: pg.Pool, logger: Logger): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(url, pool, logger);
    await bus.listen();
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      if (message.channel === INSTANCE_CHANNEL && message.payload) {
        this.receiveBroadcast(message.payload);
        return;
      }
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const event = JSON.parse(message.payload) as BusMessage;
        this.local.deliver(event);
      } catch (error) {
        this.logger.error({ error: (error as Error).message }, "events: unreadable notification");
      }
    });
    client.on("error", (error) => {
      this.logger.warn({ error: error.message }, "events: listener connection lost; reconnecting");
      this.scheduleReconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}; LISTEN ${INSTANCE_CHANNEL}`);
    // Instance messages sent while this one was not listening are lost: whatever caches on them starts over.
    if (this.listenedBefore) this.local.broadcast(BUS_RECONNECTED, null);
    this.listenedBefore = true;
    this.listener = client;
  }

  private scheduleReconnect() {
    if (this.closed || this.reconnectTimer) return;
    this.listener?.end().catch(() => {});
    this.listener = null;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().catch(() => this.scheduleReconnect());
    }, 1000);
  }

  /** The same JSON as `publish` sends (`at` to the millisecond, in UTC), built by the statement. */
  readonly publishInSql = (event: { kind: string; userId: string; data: string }): string =>
    `pg_notify('${CHANNEL}', json_build_object('kind', ${event.kind}, 'userId', ${event.userId}, 'data', ${event.data}, ` +
    `'at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text)`;

  publish(event: Omit<BusMessage, "at">): void {
    const full: BusMessage = { ...event, at: new Date().toISOString() };
    const payload = JSON.stringify(full);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
      this.logger.warn({ kind: event.kind, bytes: payload.length }, "events: too large to cross instances; delivered locally only");
      this.local.deliver(full);
      return;
    }
    this.outbox.push({ payload, event: full });
    this.flushing ??= this.flush().finally(() => {
      this.flushing = null;
    });
  }

  /**
   * Sends what was published, in order: one statement at a time, each carrying everything published while
   * the one before was on its way. Separate NOTIFYs on the pool's connections could arrive crossed (a
   * job's `workflow.step` before its `workflow.started`), and a stream drops an event older than one it
   * has sent.
   */
  private async flush(): Promise<void> {
    while (this.outbox.length > 0) {
      const batch = this.outbox.splice(0, 500);
      try {
        // One statement, one transaction: its notifications are delivered in the array's order.
        await this.pool.query("SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload", [
          CHANNEL,
          batch.map((entry) => entry.payload),
        ]);
      } catch (error) {
        this.logger.warn({ events: batch.length, error: (error as Error).message }, "events: NOTIFY failed; delivered locally only");
        for (const entry of batch) this.local.deliver(entry.event);
      }
    }
  }

  broadcast(topic: string, payload: unknown): void {
    // Here at once (the caller's own instance must not wait for the round trip), and everywhere through NOTIFY.
    this.local.broadcast(topic, payload);
    const message = JSON.stringify({ topic, payload, from: this.instanceId });
    this.pool.query("SELECT pg_notify($1, $2)", [INSTANCE_CHANNEL, message]).catch((error: Error) => {
      this.logger.error({ topic, error: error.message }, "events: an instance message could not be sent");
    });
  }

  onBroadcast(topic: string, handler: (payload: unknown) => void): Unsubscribe {
    return this.local.onBroadcast(topic, handler);
  }

  private receiveBroadcast(raw: string) {
    try {
      const message = JSON.parse(raw) as { topic: string; payload: unknown; from: string };
      if (message.from !== this.instanceId) this.local.broadcast(message.topic, message.payload);
    } catch (error) {
      this.logger.error({ error: (error as Error).message }, "events: unreadable instance message");
    }
  }

  subscribe(listener: (event: BusMessage) => void): Unsubscribe {
    return this.local.subscribe(listener);
  }

  listenerCount(): number {
    return this.local.listenerCount();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.local.close();
    await this.listener?.end().catch(() => {});
  }
}
