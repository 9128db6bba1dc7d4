// Cancel a job that has not finished. An in-app dialog first says what happens: the job stops, what it
// made so far is discarded, and every credit it used comes back (the server's `cancelJob` refunds a job
// that has not completed in full, through `failAndRefund`).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { formatNumber } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog, KEEP_CONFIRM_TEST_IDS } from "../../ui/confirm-dialog.tsx";
import "./job.css";

interface CancelButtonProps {
  jobId: string;
  /** The job's title, as the page shows it. */
  title: string;
  creditsUsed: number;
}

export function CancelButton({ jobId, title, creditsUsed }: CancelButtonProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const cancel = useMutation(
    trpc.workflow.cancel.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.job.queryKey({ jobId }), data);
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      },
      onError: () => {
        // Most likely it finished meanwhile; show what it is now.
        void queryClient.invalidateQueries({ queryKey: trpc.workflow.job.queryKey({ jobId }) });
      },
      onSettled: () => setAsking(false),
    }),
  );
  const credits = `${formatNumber(creditsUsed)} ${creditsUsed === 1 ? "credit" : "credits"}`;
  return (
    <>
      {cancel.isError ? (
        <span className="inline-note" role="alert">
          {errorMessage(cancel.error)}
        </span>
      ) : null}
      <button
        type="button"
        className="btn btn-ghost btn-small btn-danger-text"
        disabled={cancel.isPending}
        onClick={() => setAsking(true)}
        aria-haspopup="dialog"
        data-testid="cancel-job"
      >
        {cancel.isPending ? "Cancelling…" : "Cancel job"}
      </button>
      <ConfirmDialog
        open={asking}
        title="Cancel this job?"
        confirmLabel={creditsUsed > 0 ? `Cancel and refund ${credits}` : "Cancel the job"}
        cancelLabel="Keep it running"
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate({ jobId })}
        onClose={() => setAsking(false)}
        testId="cancel-dialog"
        testIds={KEEP_CONFIRM_TEST_IDS}
      >
        <p>
          <strong>{title}</strong> stops now, and anything it has made so far is discarded.
        </p>
        {creditsUsed > 0 ? (
          <p data-testid="cancel-dialog-refund">
            The {credits} it used {creditsUsed === 1 ? "goes" : "go"} back to your balance in full, straight away.
          </p>
        ) : (
          <p>It used no credits, so nothing changes on your balance.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
