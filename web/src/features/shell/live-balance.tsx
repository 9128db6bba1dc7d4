// The credit balance, live: `user.balanceChanges` (SSE) writes each new balance into the cached
// `user.credits` and `user.profile` answers, so every place that shows the balance updates at once.
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { createContext, type ReactNode, useContext, useMemo, useState } from "react";
import { useTRPC } from "../../trpc.ts";

export interface BalanceChange {
  balance: number;
  delta: number;
  reason: string;
  at: number;
}

export type StreamStatus = "off" | "connecting" | "live" | "reconnecting";

interface LiveBalanceState {
  status: StreamStatus;
  lastChange: BalanceChange | null;
}

const LiveBalanceContext = createContext<LiveBalanceState>({ status: "off", lastChange: null });

export function useLiveBalance(): LiveBalanceState {
  return useContext(LiveBalanceContext);
}

/** Mounted inside the signed-in area only: the stream opens with the app shell and closes on logout. */
export function LiveBalanceProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [lastChange, setLastChange] = useState<BalanceChange | null>(null);

  const subscription = useSubscription(
    trpc.user.balanceChanges.subscriptionOptions(undefined, {
      // (Re)connected: events may have been missed meanwhile, so read the balance once.
      onStarted: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
      },
      // Each item is a tracked envelope `{ id, data }`; the change is its data.
      onData: ({ data: event }) => {
        queryClient.setQueryData(trpc.user.credits.queryKey(), { balance: event.balance });
        queryClient.setQueryData(trpc.user.profile.queryKey(), (old) => (old ? { ...old, credits_balance: event.balance } : old));
        setLastChange({ ...event, at: Date.now() });
      },
    }),
  );

  let status: StreamStatus = "off";
  if (subscription.status === "pending") status = "live";
  else if (subscription.status === "connecting") status = subscription.error ? "reconnecting" : "connecting";
  else if (subscription.status === "error") status = "reconnecting";

  const value = useMemo(() => ({ status, lastChange }), [status, lastChange]);
  return <LiveBalanceContext.Provider value={value}>{children}</LiveBalanceContext.Provider>;
}
