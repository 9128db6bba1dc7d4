// A job's live events (`workflow.stream`, SSE under /trpc). The first event is the job's current
// state; the stream ends after the `result` event. Every event carries a tracked id, and tRPC's
// subscription link resumes from the last one by itself when the connection drops (the browser's
// reconnect sends Last-Event-ID), so the server replays exactly what was missed from its event log.
// Only when the link gives up (the server answered an error while restarting) do we subscribe again,
// from that same last id.
import { useEffect, useRef, useState } from "react";
import { type RouterOutputs, useTRPCClient } from "../trpc.ts";
import { errorCode } from "./errors.ts";

/** One event as it arrives: the data of a tracked envelope `{ id, data }`. */
export type JobEvent = RouterOutputs["workflow"]["stream"] extends AsyncIterable<{ data: infer T }> ? T : never;

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
    /** The tracked id of the last event received: where a new subscription resumes. */
    let lastEventId: string | undefined;
    let subscription: { unsubscribe(): void } | null = null;
    let timer: number | undefined;
    let attempt = 0;
    let stopped = false;

    const resubscribe = (error: unknown) => {
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
      let done = false; // callbacks of a subscription we have given up on are ignored
      const current = () => !stopped && !done;
      subscription = client.workflow.stream.subscribe(lastEventId === undefined ? { jobId } : { jobId, lastEventId }, {
        onStarted: () => {
          if (!current()) return;
          attempt = 0;
          setState({ status: "live", error: null });
        },
        onData: ({ id, data }) => {
          if (!current()) return;
          lastEventId = id;
          onEventRef.current(data);
        },
        onError: (error) => {
          if (!current()) return;
          done = true;
          const code = errorCode(error);
          if (code && FINAL_CODES.has(code)) {
            stopped = true;
            setState({ status: "error", error });
            return;
          }
          resubscribe(error);
        },
        onComplete: () => {
          if (!current()) return;
          done = true;
          stopped = true;
          setState({ status: "ended", error: null });
        },
        onConnectionStateChange: (change) => {
          if (!current()) return;
          // The link reconnects on its own, resuming after the last tracked id; show it meanwhile.
          if (change.state === "connecting" && change.error) setState({ status: "reconnecting", error: change.error });
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
