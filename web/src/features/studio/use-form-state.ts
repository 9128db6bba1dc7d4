// The studio form's state: the values, the errors beside them, and the edits that clear what they fix.
import { type AspectRatio, defaultFormatsFor, type WorkflowType } from "@adgen/schema";
import { useState } from "react";
import { useSearchParams } from "wouter";
import { type LaunchProblem, sortFormats } from "../../lib/workflow.ts";
import { type Brand, type FormErrors, type FormState, initialState, NO_ERRORS, type Prefs, type StudioConfig } from "./form-state.ts";
import { isReservedOn } from "./launch-blocks.tsx";

/** Sets one field of the form (and drops the errors it answers). */
export type UpdateField = <K extends keyof FormState>(key: K, value: FormState[K]) => void;

interface FormStateOptions {
  studio: StudioConfig;
  prefs: Prefs;
  brand: Brand | null;
  planId: string | undefined;
  retry: { input: Record<string, unknown> } | null;
}

export function useFormState({ studio, prefs, brand, planId, retry }: FormStateOptions) {
  const [params] = useSearchParams();
  const [state, setState] = useState<FormState>(() =>
    initialState({
      prefs,
      studio,
      brand,
      queryType: params.get("type"),
      queryProject: params.get("project"),
      queryConcept: params.get("concept"),
      queryDirection: params.get("direction"),
      queryPrompts: { picture: params.get("picturePrompt"), clip: params.get("clipPrompt") },
      retry: retry?.input ?? null,
      isReserved: (type) => isReservedOn(type, planId),
    }),
  );
  // A retried run's formats were chosen by a person: switching type keeps them.
  const [formatsTouched, setFormatsTouched] = useState(!!retry);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [problem, setProblem] = useState<LaunchProblem | null>(null);
  const [prefsSaved, setPrefsSaved] = useState(false);

  function changed() {
    setProblem(null);
    setPrefsSaved(false);
  }

  const update: UpdateField = (key, value) => {
    setState((prev) => ({ ...prev, [key]: value }));
    changed();
    const field = key as string;
    if (errors.form || Object.keys(errors.fields).some((f) => f === field || f.startsWith(`${field}.`))) {
      setErrors((prev) => ({
        form: null,
        fields: Object.fromEntries(Object.entries(prev.fields).filter(([f]) => f !== field && !f.startsWith(`${field}.`))),
      }));
    }
  };

  function chooseType(type: WorkflowType) {
    setState((prev) => ({ ...prev, type, formats: formatsTouched ? prev.formats : sortFormats(defaultFormatsFor(type)) }));
    setErrors(NO_ERRORS);
    changed();
  }

  function toggleFormat(ratio: AspectRatio, on: boolean) {
    setFormatsTouched(true);
    update("formats", sortFormats(on ? [...state.formats, ratio] : state.formats.filter((f) => f !== ratio)));
  }

  return { state, errors, setErrors, problem, setProblem, prefsSaved, setPrefsSaved, update, chooseType, toggleFormat };
}
