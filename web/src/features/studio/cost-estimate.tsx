// What the launch will cost, asked of the server (`workflow.estimate`, which never charges) as the form
// changes, debounced; with the balance, and what would block the launch (credits, trial, plan).
import { WorkflowRequest, type WorkflowRequestInput } from "@adgen/schema";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { formatNumber } from "../../lib/format.ts";
import { useDebounced } from "../../lib/hooks.ts";
import { blockCode, explainBlock, type LaunchProblem } from "../../lib/workflow.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { Spinner } from "../../ui/status.tsx";
import { plural } from "./labels.ts";
import { LaunchBlockDetails } from "./launch-blocks.tsx";

type Estimate = RouterOutputs["workflow"]["estimate"];

export interface CostEstimateState {
  /** The server's answer for this request's type and quality; null until it arrives. */
  data: Estimate | null;
  /** A newer answer is on its way (the formats or the balance changed; the figures still hold). */
  refreshing: boolean;
  /** What would refuse the launch now, from `data`. */
  problem: LaunchProblem | null;
  error: unknown;
}

/**
 * The server's estimate for the request's cost-relevant part, debounced; it never charges. An answer
 * for another type or quality (kept while the next one loads) is not shown: its figures would be wrong.
 */
export function useCostEstimate(request: WorkflowRequestInput, requiresUrl: boolean): CostEstimateState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const credits = useQuery(trpc.user.credits.queryOptions());
  // The price depends on type and quality only; the URL matters only for the schema's "url is
  // required" rule, so a placeholder stands in until a valid one is typed.
  const urlOk = typeof request.url === "string" && WorkflowRequest.safeParse({ type: "factory", url: request.url }).success;
  const formats = Array.isArray(request.formats) && request.formats.length > 0 ? request.formats : undefined;
  const estimateInput = JSON.stringify({
    type: request.type,
    quality: request.quality,
    ...(formats ? { formats } : {}),
    ...(requiresUrl ? { url: urlOk ? request.url : "https://example.com/" } : {}),
  });
  const debounced = useDebounced(estimateInput, 300);
  const estimate = useQuery(
    trpc.workflow.estimate.queryOptions(JSON.parse(debounced) as WorkflowRequestInput, {
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
  );

  // The balance moved (a launch elsewhere, a refund): ask again whether this one would go through.
  const balance = credits.data?.balance;
  const seenBalance = useRef(balance);
  useEffect(() => {
    if (balance === undefined || seenBalance.current === balance) return;
    const first = seenBalance.current === undefined;
    seenBalance.current = balance;
    if (!first) void queryClient.invalidateQueries({ queryKey: trpc.workflow.estimate.pathKey() });
  }, [balance, queryClient, trpc]);

  const answer = estimate.data;
  const current = answer && answer.type === request.type && answer.quality === (request.quality ?? "standard") ? answer : null;
  const problem = current?.blockedBy ? explainBlock(blockCode(current.blockedBy), current.message ?? "") : null;
  return {
    data: current,
    refreshing: estimate.isFetching || debounced !== estimateInput,
    problem,
    error: estimate.isError ? estimate.error : null,
  };
}

export function CostEstimate({
  estimate,
  fallbackCost,
  hideProblem,
}: {
  estimate: CostEstimateState;
  fallbackCost: number | null;
  /** The launch's own error already says why (the alert below); say it once. */
  hideProblem: boolean;
}) {
  const { data, problem, refreshing, error } = estimate;
  if (!data) {
    return (
      <div className="cost-estimate" data-testid="cost-estimate" data-state={error ? "error" : "estimating"} aria-live="polite">
        {error && !refreshing ? (
          <p>
            {fallbackCost !== null ? (
              <>
                This will use <strong>{plural(fallbackCost, "credit")}</strong>.{" "}
              </>
            ) : null}
            <span className="muted">{errorMessage(error)}</span>
          </p>
        ) : (
          <p className="muted" data-testid="estimate-placeholder">
            <Spinner size="sm" />
            Estimating the cost…
          </p>
        )}
      </div>
    );
  }
  const left = data.balance - data.cost;
  return (
    <div
      className={`cost-estimate${problem ? " is-blocked" : ""}${refreshing ? " is-stale" : ""}`}
      data-testid="cost-estimate"
      data-state="ready"
      data-type={data.type}
      data-blocked={data.blockedBy ?? undefined}
      aria-live="polite"
      aria-busy={refreshing}
    >
      <p className="cost-estimate-line">
        This will use <strong data-testid="estimate-cost">{plural(data.cost, "credit")}</strong>; you have{" "}
        <strong data-testid="estimate-balance">{formatNumber(data.balance)}</strong>.
      </p>
      {problem && hideProblem ? null : problem ? (
        <div className="cost-estimate-problem" role="status" id="launch-blocked-reason" data-testid="launch-blocked">
          <LaunchBlockDetails problem={problem} message={problem.kind === "credits" ? problem.message : (data.message ?? undefined)} />
        </div>
      ) : (
        <p className="muted cost-estimate-after">
          {formatNumber(Math.max(0, left))} left after this run · {data.formats.length} {data.formats.length === 1 ? "format" : "formats"} (
          {data.formats.join(", ")})
        </p>
      )}
    </div>
  );
}
