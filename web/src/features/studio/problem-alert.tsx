// A launch's problem (402, 403, …) in words, with what to do about it.
import type { LaunchProblem } from "../../lib/workflow.ts";
import { FormAlert } from "../../ui/form.tsx";
import { LaunchBlockDetails } from "./launch-blocks.tsx";

/** The launch's problem (402, 403, …) in words, with what to do about it. */
export function ProblemAlert({ problem }: { problem: LaunchProblem }) {
  return (
    <FormAlert>
      <LaunchBlockDetails problem={problem} />
    </FormAlert>
  );
}
