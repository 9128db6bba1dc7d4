// One listener on the bus per process hands each job event to that job's subscribers only, instead of
// every stream filtering every event (10,000 streams on one job cost 10,000 filter calls per event of
// any job). The same view object reaches every subscriber, so a transport can serialise it once.
import type { JobEventView } from "@adgen/schema";
import type { BusMessage, EventBus, Unsubscribe } from "../../../bus/bus.ts";
import { JOB_EVENT } from "./job-events.ts";

type Listener = (view: JobEventView) => void;

class JobFanOut {
  private readonly byJob = new Map<string, Set<Listener>>();
  private release: Unsubscribe | null = null;

  constructor(private readonly bus: EventBus) {}

  subscribe(jobId: string, listener: Listener): Unsubscribe {
    let listeners = this.byJob.get(jobId);
    if (!listeners) {
      listeners = new Set();
      this.byJob.set(jobId, listeners);
    }
    listeners.add(listener);
    this.release ??= this.bus.subscribe(this.dispatch);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      listeners.delete(listener);
      if (listeners.size > 0) return;
      this.byJob.delete(jobId);
      // The bus keeps no listener of ours while nobody watches a job (its listener count stays honest).
      if (this.byJob.size === 0) {
        this.release?.();
        this.release = null;
      }
    };
  }

  private readonly dispatch = (event: BusMessage) => {
    if (event.kind !== JOB_EVENT) return;
    const view = event.data as JobEventView;
    const listeners = this.byJob.get(view.jobId);
    if (listeners) for (const listener of listeners) listener(view);
  };
}

const fanOuts = new WeakMap<EventBus, JobFanOut>();

/** Calls `listener` with each event of `jobId` published on `bus` from now on, until unsubscribed. */
export function subscribeToJob(bus: EventBus, jobId: string, listener: Listener): Unsubscribe {
  let fanOut = fanOuts.get(bus);
  if (!fanOut) {
    fanOut = new JobFanOut(bus);
    fanOuts.set(bus, fanOut);
  }
  return fanOut.subscribe(jobId, listener);
}
