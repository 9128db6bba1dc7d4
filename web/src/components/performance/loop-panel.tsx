// The loop's recommendation for the chosen brand, with an Execute button that carries it out (launches
// are charged like any launch) and says what it did: the projects launched, credits charged, creatives stopped.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../form.tsx";
import { InlineError, Skeleton, Spinner } from "../status.tsx";

const ACTION_NAMES: Record<string, string> = {
  SEED: "Seed: launch first creatives",
  DOUBLE_DOWN: "Double down on the winner",
  ITERATE: "Iterate: refresh a creative",
  KILL: "Kill: stop a creative",
  CHALLENGER: "Challenger: test a new angle",
};

export function LoopPanel({ brandId }: { brandId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const recommendation = useQuery(trpc.loop.recommend.queryOptions({ brandId }));
  const execute = useMutation(
    trpc.loop.execute.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.loop.recommend.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.performance.report.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
      },
    }),
  );
  const rec = recommendation.data;
  const done = execute.data;
  return (
    <section className="card loop-panel" aria-labelledby="loop-title" data-testid="loop-panel">
      <div className="card-head">
        <h2 id="loop-title" className="card-title">
          What to do next
        </h2>
        {rec ? <span className="muted">confidence {Math.round(rec.confidence * 100)} %</span> : null}
      </div>
      {recommendation.isPending ? <Skeleton height="4rem" /> : null}
      {recommendation.isError ? <InlineError error={recommendation.error} onRetry={() => void recommendation.refetch()} /> : null}
      {rec ? (
        <>
          <p className="loop-action" data-testid="loop-action" data-action={rec.action}>
            {ACTION_NAMES[rec.action] ?? rec.action}
          </p>
          <p data-testid="loop-reasoning">{rec.reasoning}</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={execute.isPending}
            onClick={() => execute.mutate({ brandId, action: rec.action })}
            data-testid="loop-execute"
          >
            {execute.isPending ? <Spinner size="sm" /> : null}
            {execute.isPending ? "Working…" : "Execute"}
          </button>
        </>
      ) : null}
      {execute.isError ? <FormAlert testId="loop-error">{errorMessage(execute.error)}</FormAlert> : null}
      {done ? (
        <FormSuccess testId="loop-result">
          <p>{done.message}</p>
          {done.launched.length > 0 ? (
            <ul className="loop-launched">
              {done.launched.map((l) => (
                <li key={l.jobId}>
                  <a href={`/studio/jobs/${l.jobId}`}>
                    {l.type} project {l.jobId.slice(0, 8)}
                  </a>{" "}
                  · {l.creditsUsed} {l.creditsUsed === 1 ? "credit" : "credits"}
                </li>
              ))}
            </ul>
          ) : null}
          {done.stopped.length > 0 ? <p>Stopped: {done.stopped.join(", ")}</p> : null}
        </FormSuccess>
      ) : null}
    </section>
  );
}
