// On a project's page: the moderation decisions about it, each with its statement of reasons, and the
// owner's appeal (one per decision). Shows nothing when there is no decision.
import { ModerationAppealInput, type ModerationDecisionView } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { FieldError, FormAlert } from "../../ui/form.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { ACTION_EXPLAINED, ACTION_LABELS, CATEGORY_LABELS } from "./labels.ts";
import "./moderation.css";
import { FormActions } from "../../ui/form-actions.tsx";

/** Whether the decision in force took the project's media offline (the newest decision comes first). */
export function useProjectRemoved(projectId: string): boolean {
  const trpc = useTRPC();
  const decisions = useQuery(trpc.moderation.decisions.queryOptions({ projectId }));
  return decisions.data?.decisions[0]?.action === "remove";
}

export function DecisionPanel({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const decisions = useQuery(trpc.moderation.decisions.queryOptions({ projectId }));
  const list = decisions.data?.decisions ?? [];
  if (list.length === 0) return null;
  return (
    <section className="card moderation-card" aria-labelledby="moderation-title" data-testid="moderation-decisions">
      <h2 id="moderation-title" className="card-title">
        Moderation
      </h2>
      {list.map((decision) => (
        <DecisionItem key={decision.id} decision={decision} projectId={projectId} />
      ))}
    </section>
  );
}

function DecisionItem({ decision, projectId }: { decision: ModerationDecisionView; projectId: string }) {
  const appeal = decision.appeal;
  return (
    <article className="moderation-decision" data-testid="moderation-decision" data-action={decision.action}>
      <p>
        <span className={`badge ${decision.action === "dismiss" ? "badge-muted" : "badge-danger"}`}>{ACTION_LABELS[decision.action]}</span>{" "}
        <span className="muted">
          {CATEGORY_LABELS[decision.category]} · decided {formatDateTime(decision.decidedAt)}
        </span>
      </p>
      <p>{ACTION_EXPLAINED[decision.action]}</p>
      <p className="moderation-statement" data-testid="moderation-statement">
        <strong>Statement of reasons:</strong> {decision.statement}
      </p>
      {appeal ? (
        <p data-testid="appeal-status" data-status={appeal.status}>
          {appeal.status === "pending"
            ? `You appealed on ${formatDateTime(appeal.submittedAt)}. We will tell you the outcome here and by e-mail.`
            : appeal.status === "reversed"
              ? `Your appeal succeeded: ${appeal.resolution ?? ""}`
              : `Your appeal was not successful: ${appeal.resolution ?? ""}`}
        </p>
      ) : null}
      {decision.canAppeal ? <AppealForm decisionId={decision.id} projectId={projectId} /> : null}
    </article>
  );
}

function AppealForm({ decisionId, projectId }: { decisionId: string; projectId: string }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [explanation, setExplanation] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const appeal = useMutation(
    trpc.moderation.appeal.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.moderation.decisions.queryKey({ projectId }) }),
    }),
  );

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (appeal.isPending) return;
    const parsed = ModerationAppealInput.safeParse({ decisionId, explanation });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    await appeal.mutateAsync(parsed.data).catch(() => {});
  }

  if (!open) {
    return (
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen(true)} data-testid="appeal-open">
        Appeal this decision
      </button>
    );
  }
  return (
    <form className="form" noValidate onSubmit={handleSubmit} aria-busy={appeal.isPending} data-testid="appeal-form">
      {appeal.isError ? <FormAlert>{errorMessage(appeal.error)}</FormAlert> : null}
      <div className={`field${fieldError ? " has-error" : ""}`}>
        <label htmlFor={`${uid}-explanation`} className="field-label">
          Why is the decision wrong?
        </label>
        <textarea
          id={`${uid}-explanation`}
          className="input textarea"
          rows={4}
          maxLength={2000}
          value={explanation}
          onChange={(e) => {
            setExplanation(e.target.value);
            setFieldError(undefined);
          }}
          data-testid="appeal-explanation"
        />
        <FieldError error={fieldError} />
      </div>
      <FormActions label="Send appeal" busyLabel="Sending appeal…" busy={appeal.isPending} testId="appeal-submit">
        <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </FormActions>
    </form>
  );
}
