// The prompt builder's answer beside the form: a hint until there is a subject, progress or the error
// while it builds, then the score and the prompt.
import { InlineError, Spinner } from "../../ui/status.tsx";
import { PromptCard } from "./prompt-card.tsx";
import type { BuiltPrompt } from "./prompt-form.ts";
import { ScoreCard } from "./score-card.tsx";

export function Result({
  builder,
  subject,
  result,
  subjectMissing,
  fetching,
  error,
  invalid,
  onRetry,
}: {
  builder: string;
  subject: string;
  result: BuiltPrompt | undefined;
  subjectMissing: boolean;
  fetching: boolean;
  error: unknown;
  invalid: boolean;
  onRetry: () => void;
}) {
  if (subjectMissing) {
    return (
      <section className="card studio-summary" data-testid="pb-empty">
        <h2 className="studio-step-title">Your prompt</h2>
        <p className="muted">Describe a subject and the prompt, its score and suggestions appear here.</p>
      </section>
    );
  }
  if (error) return <InlineError error={error} onRetry={onRetry} />;
  if (!result) {
    return (
      <section className="card studio-summary" aria-busy="true">
        <h2 className="studio-step-title">Your prompt</h2>
        {invalid ? <p className="muted">Fix the highlighted field to see the prompt.</p> : <Spinner />}
      </section>
    );
  }
  return (
    <>
      <ScoreCard result={result} fetching={fetching} />
      <PromptCard builder={builder} subject={subject} result={result} />
    </>
  );
}
