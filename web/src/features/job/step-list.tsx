// The job's steps, each with its state (done, in progress, waiting for you, not started, failed).
import type { StepView } from "../../lib/workflow.ts";

const STEP_STATE_LABELS: Record<StepView["state"], string> = {
  done: "done",
  active: "in progress",
  waiting: "waiting for you",
  pending: "not started",
  failed: "failed",
};

export function StepList({ steps }: { steps: readonly StepView[] }) {
  return (
    <ol className="job-steps">
      {steps.map((step) => (
        <li key={step.name} className={`job-step step-${step.state}`} data-testid={`job-step-${step.id}`} data-state={step.state}>
          <StepIcon state={step.state} />
          <span className="job-step-text">
            <span className="job-step-label">{step.label}</span>
            {step.detail ? <span className="job-step-detail">{step.detail}</span> : null}
          </span>
          <span className="visually-hidden">{STEP_STATE_LABELS[step.state]}</span>
        </li>
      ))}
    </ol>
  );
}

function StepIcon({ state }: { state: StepView["state"] }) {
  if (state === "active") return <span className="step-icon step-icon-active" aria-hidden="true" />;
  return (
    <span className={`step-icon step-icon-${state}`} aria-hidden="true">
      {state === "done" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : state === "failed" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M4.5 4.5l7 7M11.5 4.5l-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      ) : state === "waiting" ? (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path d="M5 3.5v9M11 3.5v9" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      ) : null}
    </span>
  );
}
