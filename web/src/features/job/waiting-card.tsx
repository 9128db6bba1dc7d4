// While a job runs: one frame per format that fills in as its render finishes, and what to expect.
import { renderStepName } from "@adgen/schema";
import { cssAspect, type StepView } from "../../lib/workflow.ts";

export function WaitingCard({ formats, steps, queued }: { formats: readonly string[]; steps: readonly StepView[]; queued: boolean }) {
  return (
    <section className="card job-waiting">
      <div className="job-waiting-art" aria-hidden="true">
        {formats.map((f) => {
          const state = steps.find((s) => s.name === renderStepName(f))?.state;
          return (
            <span
              key={f}
              className={`job-waiting-frame${state === "done" ? " is-ready" : state === "active" ? " is-active" : ""}`}
              style={{ aspectRatio: cssAspect(f) }}
            >
              {state === "done" ? `${f} ✓` : f}
            </span>
          );
        })}
      </div>
      <p className="muted">
        {queued
          ? "Your job is in the queue and starts in a moment."
          : "Rendering takes a little while. You can leave this page; the job keeps going and appears in Projects."}
      </p>
    </section>
  );
}
