// The days of one creative, each with a way back: a row entered by mistake (a typo, the wrong creative)
// is removed after a confirmation, and the figures above it are read again at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatNumber } from "../../lib/format.ts";
import type { RouterOutputs } from "../../trpc.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";

type Day = RouterOutputs["performance"]["report"]["creatives"][number]["series"][number];

export function EnteredDays({ creativeId, days }: { creativeId: string; days: Day[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = useMutation(
    trpc.performance.remove.mutationOptions({
      onSuccess: () => {
        setRemoving(null);
        void queryClient.invalidateQueries({ queryKey: trpc.performance.report.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.loop.recommend.queryKey() });
      },
    }),
  );
  if (days.length === 0) return null;
  return (
    <details className="entered-days" data-testid="entered-days">
      <summary>Days entered ({days.length})</summary>
      <ul className="entered-days-list">
        {days.map((day) => (
          <li key={day.date} className="entered-day" data-testid="entered-day" data-date={day.date}>
            <span>
              {day.date}: {formatNumber(day.impressions)} impressions, {formatNumber(day.clicks)} clicks
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => {
                remove.reset();
                setRemoving(day.date);
              }}
              data-testid="entered-day-remove"
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this day's figures?"
        confirmLabel="Remove the day"
        pendingLabel="Removing…"
        {...mutationState(remove)}
        onConfirm={() => removing && remove.mutate({ creativeId, date: removing })}
        onClose={() => setRemoving(null)}
        testId="entered-day-confirm"
      >
        <p>
          The figures entered for {creativeId} on {removing} are removed, and the totals and charts are worked out again without them.
        </p>
      </ConfirmDialog>
    </details>
  );
}
