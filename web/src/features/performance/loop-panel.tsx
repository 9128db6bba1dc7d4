// The loop's recommendation for the chosen brand: the creative it is about (by its project's name, with
// its first frame), what executing it does and costs, and an Execute button that asks first. Only the
// confirmation sends it (with the price agreed, so a plan that grew dearer meanwhile is refused, not
// charged); the result says what was done: the projects launched, credits charged, creatives stopped.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { creditsText, SpendDialog } from "./spend-dialog.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { Card } from "../../ui/card.tsx";

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
  const [asking, setAsking] = useState(false);
  const recommendation = useQuery(trpc.loop.recommend.queryOptions({ brandId }));
  const execute = useMutation(
    trpc.loop.execute.mutationOptions({
      onSettled: () => {
        setAsking(false);
        void queryClient.invalidateQueries({ queryKey: trpc.loop.recommend.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.performance.report.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
      },
    }),
  );
  const rec = recommendation.data;
  const done = execute.data;
  const buttonLabel = rec && rec.cost > 0 ? `Execute · ${creditsText(rec.cost)}` : "Execute";
  return (
    <Card
      title="What to do next"
      titleId="loop-title"
      className="loop-panel"
      testId="loop-panel"
      aside={rec ? <span className="muted">confidence {Math.round(rec.confidence * 100)} %</span> : null}
    >
      {recommendation.isPending ? <Skeleton height="4rem" /> : null}
      {recommendation.isError ? <InlineError error={recommendation.error} onRetry={() => void recommendation.refetch()} /> : null}
      {rec ? (
        <>
          <p className="loop-action" data-testid="loop-action" data-action={rec.action}>
            {ACTION_NAMES[rec.action] ?? rec.action}
          </p>
          {rec.targetName ? (
            <div className="loop-target" data-testid="loop-target">
              {rec.targetThumbnail ? (
                <img
                  className="loop-target-thumb"
                  src={rec.targetThumbnail}
                  alt=""
                  width={64}
                  height={64}
                  data-testid="loop-target-thumb"
                />
              ) : (
                <span className="loop-target-thumb loop-target-thumb-empty" aria-hidden="true" />
              )}
              <span className="loop-target-name">{rec.targetName}</span>
            </div>
          ) : null}
          <p data-testid="loop-reasoning">{rec.reasoning}</p>
          <p className="muted" data-testid="loop-effect">
            {rec.effect}
          </p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={execute.isPending}
            onClick={() => {
              execute.reset();
              setAsking(true);
            }}
            data-testid="loop-execute"
          >
            {execute.isPending ? <Spinner size="sm" /> : null}
            {execute.isPending ? "Working…" : buttonLabel}
          </button>
          <SpendDialog
            open={asking}
            cost={rec.cost}
            title={rec.cost > 0 ? `Spend ${creditsText(rec.cost)}?` : `${ACTION_NAMES[rec.action] ?? rec.action}?`}
            confirmLabel={rec.cost > 0 ? `Spend ${creditsText(rec.cost)}` : "Stop it"}
            busy={execute.isPending}
            onConfirm={() => execute.mutate({ brandId, action: rec.action, confirmedCost: rec.cost })}
            onClose={() => setAsking(false)}
            testId="loop-confirm"
          >
            <p>{rec.effect}</p>
          </SpendDialog>
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
                  <Link href={`/studio/jobs/${l.jobId}`}>{l.name}</Link> · {creditsText(l.creditsUsed)}
                </li>
              ))}
            </ul>
          ) : null}
        </FormSuccess>
      ) : null}
    </Card>
  );
}
