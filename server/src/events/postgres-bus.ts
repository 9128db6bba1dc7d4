// The event bus across instances: every publish is a NOTIFY on one channel, and every instance
// LISTENs on a dedicated connection and hands what arrives to its local subscribers (its own
// publishes included, so each event reaches each subscriber exactly once, wherever it was published).
import pg from "pg";
import type { Logger } from "../logging/logger.ts";
import { type BusEvent, type EventBus, InProcessEventBus, type Unsubscribe } from "./bus.ts";

const CHANNEL = "adgen_events";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;

export class PostgresEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private listener: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

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
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const event = JSON.parse(message.payload) as BusEvent;
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
    await client.query(`LISTEN ${CHANNEL}`);
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

  publish(event: Omit<BusEvent, "at">): void {
    const full: BusEvent = { ...event, at: new Date().toISOString() };
    const payload = JSON.stringify(full);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
      this.logger.warn({ kind: event.kind, bytes: payload.length }, "events: too large to cross instances; delivered locally only");
      this.local.deliver(full);
      return;
    }
    this.pool.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]).catch((error: Error) => {
      this.logger.warn({ kind: event.kind, error: error.message }, "events: NOTIFY failed; delivered locally only");
      this.local.deliver(full);
    });
  }

  subscribe(listener: (event: BusEvent) => void): Unsubscribe {
    return this.local.subscribe(listener);
  }

  listenerCount(): number {
    return this.local.listenerCount();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.local.close();
    await this.listener?.end().catch(() => {});
  }
}
