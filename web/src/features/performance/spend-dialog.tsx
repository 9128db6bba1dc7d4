// Asks before credits move: what the action does, what it costs and the balance after it. Nothing is
// sent until the person confirms; backing out (the button, Escape) spends nothing.
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { formatNumber } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog, KEEP_CONFIRM_TEST_IDS } from "../../ui/confirm-dialog.tsx";
import "../job/job.css";

interface SpendDialogProps {
  open: boolean;
  /** Credits the action charges; 0 asks as well (the action still changes something), and says it is free. */
  cost: number;
  title: string;
  /** What the action does, in words. */
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}

export const creditsText = (n: number) => `${formatNumber(n)} ${n === 1 ? "credit" : "credits"}`;

export function SpendDialog({ open, cost, title, children, confirmLabel, busy, onConfirm, onClose, testId }: SpendDialogProps) {
  const trpc = useTRPC();
  const credits = useQuery({ ...trpc.user.credits.queryOptions(), enabled: open });
  const balance = credits.data?.balance;
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      cancelLabel="Not now"
      pending={busy}
      onConfirm={onConfirm}
      onClose={onClose}
      testId={testId ?? "spend-dialog"}
      testIds={KEEP_CONFIRM_TEST_IDS}
      destructive={false}
    >
      {children}
      <p className="spend-dialog-cost" data-testid="spend-dialog-cost">
        {cost > 0 ? (
          <>
            <strong>Costs {creditsText(cost)}.</strong>
            {balance !== undefined ? ` Your balance goes from ${formatNumber(balance)} to ${formatNumber(balance - cost)}.` : null} Credits
            come back if the run fails.
          </>
        ) : (
          <strong>Nothing is charged.</strong>
        )}
      </p>
    </ConfirmDialog>
  );
}
