// Launching the form's request: checked in the browser first, sent once per distinct request, and the
// server's refusal put where it belongs (beside a field, or as the launch problem).
import { needsPageMessage, WorkflowRequest, type WorkflowRequestInput } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef } from "react";
import { useLocation } from "wouter";
import { issuesToFieldErrors, splitServerError } from "../../lib/errors.ts";
import { explainLaunchError, type LaunchProblem, newIdempotencyKey } from "../../lib/workflow.ts";
import { useTRPC } from "../../trpc.ts";
import { FORM_FIELDS, type FormErrors, focusFirstError, NO_ERRORS } from "./form-state.ts";

interface LaunchOptions {
  uid: string;
  request: WorkflowRequestInput;
  /** The page address is required and still empty: the message to show beside it, or null. */
  missingPage: string | null;
  setErrors(errors: FormErrors): void;
  setProblem(problem: LaunchProblem | null): void;
}

export function useLaunch({ uid, request, missingPage, setErrors, setProblem }: LaunchOptions) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const launch = useMutation(trpc.workflow.launch.mutationOptions());
  const idempotencyKey = useIdempotencyKey(JSON.stringify(request));
  const submitting = useRef(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    setProblem(null);
    const parsed = WorkflowRequest.safeParse(request);
    const local = parsed.success ? NO_ERRORS : issuesToFieldErrors(parsed.error.issues, FORM_FIELDS);
    const fields = { ...local.fields };
    // The schema's cross-field rule runs only once every field parses; say it at once anyway.
    if (missingPage && !fields.url) fields.url = missingPage;
    if (!parsed.success || Object.values(fields).some(Boolean)) {
      setErrors({ fields, form: local.form });
      focusFirstError(uid, fields);
      return;
    }
    setErrors(NO_ERRORS);
    submitting.current = true;
    try {
      const launched = await launch.mutateAsync({ ...request, idempotencyKey: idempotencyKey.current });
      void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.user.profile.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.workflow.estimate.pathKey() });
      navigate(`/studio/jobs/${encodeURIComponent(launched.jobId)}`);
    } catch (error) {
      const split = splitServerError(error, FORM_FIELDS);
      if (Object.values(split.fields).some(Boolean)) {
        setErrors(split);
        focusFirstError(uid, split.fields);
      } else {
        setProblem(explainLaunchError(error));
      }
    } finally {
      submitting.current = false;
    }
  }

  return { launch, handleSubmit };
}

/** One key per distinct request: a double click or a retry after a network error sends the same key
 * (the server answers the first launch again instead of charging twice); any change makes a new one. */
function useIdempotencyKey(requestKey: string) {
  const idempotencyKey = useRef(newIdempotencyKey());
  const lastKey = useRef(requestKey);
  if (lastKey.current !== requestKey) {
    lastKey.current = requestKey;
    idempotencyKey.current = newIdempotencyKey();
  }
  return idempotencyKey;
}

/** The required page's message when the form has none, else null. */
export function missingPageMessage(type: Parameters<typeof needsPageMessage>[0], required: boolean, url: string): string | null {
  return required && !url.trim() ? needsPageMessage(type) : null;
}
