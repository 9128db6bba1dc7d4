// A job's live events (`workflow.events`, SSE under /trpc). The first event is the job's current
// state; the stream ends after the `result` event. If the connection drops we reconnect ourselves
// with `lastEventId`, so the server replays exactly what was missed from its event log.
import { useEffect, useRef, useState } from "react";
import { type RouterOutputs, useTRPCClient } from "../trpc.ts";
import { errorCode } from "./errors.ts";

export type JobEvent = RouterOutputs["workflow"]["events"] extends AsyncIterable<infer T> ? T : never;

export type JobStreamStatus = "connecting" | "live" | "reconnecting" | "ended" | "error";

export interface JobStreamState {
  status: JobStreamStatus;
  error: unknown;
}

/** Answers no reconnect can change. */
const FINAL_CODES = new Set(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"]);

export function useJobEvents(jobId: string, enabled: boolean, onEvent: (event: JobEvent) => void): JobStreamState {
  const client = useTRPCClient();
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const [state, setState] = useState<JobStreamState>({ status: enabled ? "connecting" : "ended", error: null });

  useEffect(() => {
    if (!enabled) {
      setState({ status: "ended", error: null });
      return;
    }
    let lastEventId: number | undefined;
    let subscription: { unsubscribe(): void } | null = null;
    let timer: number | undefined;
    let attempt = 0;
    let stopped = false;
    let generation = 0;

    const reconnect = (error: unknown) => {
      generation += 1; // late callbacks of the dropped subscription are ignored
      subscription?.unsubscribe();
      subscription = null;
      if (stopped || timer !== undefined) return;
      setState({ status: "reconnecting", error });
      const delay = Math.min(10_000, 1000 * 2 ** attempt);
      attempt += 1;
      timer = window.setTimeout(() => {
        timer = undefined;
        connect();
      }, delay);
    };

    const connect = () => {
      if (stopped) return;
      const mine = ++generation;
      const current = () => !stopped && mine === generation;
      subscription = client.workflow.events.subscribe(lastEventId === undefined ? { jobId } : { jobId, lastEventId }, {
        onStarted: () => {
          if (!current()) return;
          attempt = 0;
          setState({ status: "live", error: null });
        },
        onData: (event) => {
          if (!current()) return;
          if (typeof event.id === "number") lastEventId = event.id;
          onEventRef.current(event);
        },
        onError: (error) => {
          if (!current()) return;
          const code = errorCode(error);
          if (code && FINAL_CODES.has(code)) {
            stopped = true;
            setState({ status: "error", error });
            return;
          }
          reconnect(error);
        },
        onComplete: () => {
          if (!current()) return;
          stopped = true;
          setState({ status: "ended", error: null });
        },
        onConnectionStateChange: (change) => {
          if (!current()) return;
          // The link would reconnect on its own, but with the original input; resume from the last
          // event instead.
          if (change.state === "connecting" && change.error) reconnect(change.error);
        },
      });
    };

    setState({ status: "connecting", error: null });
    connect();
    return () => {
      stopped = true;
      if (timer !== undefined) window.clearTimeout(timer);
      subscription?.unsubscribe();
    };
  }, [client, jobId, enabled]);

  return state;
}
