// Sending the review's decision. The answer replaces the job's cached state; a decision that came too
// late (decided elsewhere, cancelled or expired meanwhile) shows what the job is now.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorCode } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";

export function useDecide(jobId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.workflow.hitlDecide.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.hitl.queryKey({ jobId }), data);
        queryClient.setQueryData(trpc.workflow.job.queryKey({ jobId }), data.job);
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      },
      onError: (error) => {
        const code = errorCode(error);
        if (code === "CONFLICT" || code === "NOT_FOUND") {
          void queryClient.invalidateQueries({ queryKey: trpc.workflow.job.queryKey({ jobId }) });
          void queryClient.invalidateQueries({ queryKey: trpc.workflow.hitl.queryKey({ jobId }) });
        }
      },
    }),
  );
}
