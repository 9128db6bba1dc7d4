// The studio form: the type picker, then the fields the chosen type uses (schema's `studioFields`),
// the options with their prices, the cost and the launch. The request is checked with the shared
// `WorkflowRequest` schema before it leaves the browser; the server checks it again and its answers
// (400 by field, 402, 403) are shown where they belong. What the server would refuse anyway (no
// credits, an ended trial, a workflow the plan leaves out) turns Launch off, with the reason beside it.
import {
  makesImagesOnly,
  STUDIO_MODEL_KINDS,
  type AspectRatio,
  defaultFormatsFor,
  needsPageMessage,
  urlFallsBackToBrandWebsite,
  urlRole,
  WorkflowRequest,
  type WorkflowType,
} from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { useLocation, useSearchParams } from "wouter";
import { errorMessage, issuesToFieldErrors, splitServerError } from "../../lib/errors.ts";
import { explainLaunchError, type LaunchProblem, newIdempotencyKey, sortFormats } from "../../lib/workflow.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { BriefFields } from "./brief-fields.tsx";
import { ConceptField } from "./concept-field.tsx";
import { CostEstimate, useCostEstimate } from "./cost-estimate.tsx";
import { FormatsField } from "./formats-field.tsx";
import {
  type Brand,
  FORM_FIELDS,
  type FormErrors,
  type FormState,
  fieldsOf,
  focusFirstError,
  initialState,
  NO_ERRORS,
  type Prefs,
  type Pricing,
  type StudioConfig,
  toRequest,
} from "./form-state.ts";
import { describeHeading } from "./labels.ts";
import { isReservedOn, remedyFor } from "./launch-blocks.tsx";
import { ModelFields } from "./model-fields.tsx";
import { PromptFields, promptKindsFor } from "./prompt-fields.tsx";
import { ProblemAlert } from "./problem-alert.tsx";
import { ProjectField } from "./project-field.tsx";
import { QualityChoice } from "./quality-choice.tsx";
import { ReviewToggle } from "./review-toggle.tsx";
import { StyleOptions } from "./style-options.tsx";
import { TypePicker } from "./type-picker.tsx";
import { UrlField } from "./url-field.tsx";
import "./studio.css";

interface StudioFormProps {
  studio: StudioConfig;
  pricing: Pricing;
  prefs: Prefs;
  brand: Brand | null;
  planId: string | undefined;
  /** A failed run being tried again: its launch request fills the form. */
  /** A project's stored settings to start from: a failed run tried again, or a copy ("make another like this"). */
  retry: { jobId: string; input: Record<string, unknown>; copy?: boolean } | null;
}

export function StudioForm({ studio, pricing, prefs, brand, planId, retry }: StudioFormProps) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
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

  // One key per distinct request: a double click or a retry after a network error sends the same key
  // (the server answers the first launch again instead of charging twice); any change makes a new one.
  const idempotencyKey = useRef(newIdempotencyKey());
  const submitting = useRef(false);

  const info = studio.workflowTypes.find((w) => w.type === state.type) ?? studio.workflowTypes[0]!;
  const price = pricing.workflows.find((w) => w.type === state.type);
  const uses = fieldsOf(state, brand);
  // Publishing is offered for videos once a social account is connected (Settings → Publishing).
  const social = useQuery(trpc.social.list.queryOptions());
  const canPublish = (social.data?.length ?? 0) > 0 && !makesImagesOnly(state.type, state.imagesOnly);
  const role = urlRole(state.type);
  const modelKinds = STUDIO_MODEL_KINDS.filter((kind) => uses[`models.${kind}`]);
  const promptKinds = promptKindsFor(studio.models, state.models, modelKinds);
  const request = toRequest(state, uses, promptKinds);
  const requestKey = JSON.stringify(request);
  const lastKey = useRef(requestKey);
  if (lastKey.current !== requestKey) {
    lastKey.current = requestKey;
    idempotencyKey.current = newIdempotencyKey();
  }

  const launch = useMutation(trpc.workflow.launch.mutationOptions());
  const estimate = useCostEstimate(request, uses.url === "required");
  // Launch is off when the server would refuse it whatever the form says: the type is not on the
  // plan (known up front), or the current estimate says credits or the trial stand in the way.
  const reserved = isReservedOn(state.type, planId);
  // The Ad Optimizer improves one of the account's finished ads: with none there is nothing to launch.
  const projects = useQuery({ ...trpc.projects.list.queryOptions(), enabled: state.type === "ad-optimizer" });
  const nothingToImprove =
    state.type === "ad-optimizer" && projects.data !== undefined && !projects.data.some((p) => p.status === "completed");
  const blockedBy = reserved
    ? "reserved"
    : nothingToImprove
      ? "no-project"
      : estimate.problem && estimate.problem.kind !== "other"
        ? estimate.problem.kind
        : null;
  // The reason in short beside the button; the estimate above says it in full, with what unlocks it.
  const launchNote =
    blockedBy === "credits"
      ? "Launch is off: your balance does not cover this run."
      : blockedBy === "trial"
        ? "Launch is off: your trial has ended."
        : blockedBy === "reserved"
          ? `Launch is off: ${info.name} is not on your plan. ${remedyFor("reserved")}`
          : blockedBy === "no-project"
            ? "Launch is off: the Ad Optimizer improves one of your finished ads, and you have none yet. Make an ad with another workflow (a Static Ad is ready in about a minute), then come back to improve it."
            : null;
  // The button says what it spends, so the click that charges is the one that agreed to the price.
  const launchCost = estimate.data?.cost ?? (price ? price[state.quality] : null);
  const savePrefs = useMutation(
    trpc.workflow.savePrefs.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.prefs.queryKey(), data);
        setPrefsSaved(true);
      },
    }),
  );

  function changed() {
    setProblem(null);
    setPrefsSaved(false);
  }

  function update<K extends keyof FormState>(key: K, value: FormState[K]) {
    setState((prev) => ({ ...prev, [key]: value }));
    changed();
    const field = key as string;
    if (errors.form || Object.keys(errors.fields).some((f) => f === field || f.startsWith(`${field}.`))) {
      setErrors((prev) => ({
        form: null,
        fields: Object.fromEntries(Object.entries(prev.fields).filter(([f]) => f !== field && !f.startsWith(`${field}.`))),
      }));
    }
  }

  function chooseType(type: WorkflowType) {
    setState((prev) => ({ ...prev, type, formats: formatsTouched ? prev.formats : sortFormats(defaultFormatsFor(type)) }));
    setErrors(NO_ERRORS);
    changed();
  }

  function toggleFormat(ratio: AspectRatio, on: boolean) {
    setFormatsTouched(true);
    update("formats", sortFormats(on ? [...state.formats, ratio] : state.formats.filter((f) => f !== ratio)));
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    setProblem(null);
    const parsed = WorkflowRequest.safeParse(request);
    const local = parsed.success ? NO_ERRORS : issuesToFieldErrors(parsed.error.issues, FORM_FIELDS);
    const fields = { ...local.fields };
    // The schema's cross-field rule runs only once every field parses; say it at once anyway.
    if (uses.url === "required" && !state.url.trim() && !fields.url) fields.url = needsPageMessage(state.type);
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

  function saveDefaults() {
    setPrefsSaved(false);
    savePrefs.mutate({
      defaultType: state.type,
      quality: state.quality,
      formats: sortFormats(state.formats),
      hitl: state.hitl,
      ...(request.framework ? { framework: request.framework } : {}),
      ...(request.adPreset ? { adPreset: request.adPreset as NonNullable<Prefs["adPreset"]> } : {}),
    });
  }

  return (
    <>
      <section className="studio-section" aria-labelledby={`${uid}-types`}>
        <h2 id={`${uid}-types`} className="studio-step-title">
          <span className="step-number">1</span> Choose a workflow
        </h2>
        <TypePicker
          headingId={`${uid}-types`}
          studio={studio}
          pricing={pricing}
          selected={state.type}
          quality={state.quality}
          planId={planId}
          onChoose={chooseType}
        />
      </section>

      <form
        className="studio-layout"
        noValidate
        onSubmit={handleSubmit}
        data-testid="workflow-form"
        data-type={state.type}
        aria-busy={launch.isPending}
      >
        <section className="card studio-main" aria-labelledby={`${uid}-details`}>
          <h2 id={`${uid}-details`} className="studio-step-title">
            <span className="step-number">2</span> {describeHeading(state.type, info.name)}
          </h2>
          {retry ? (
            <FormSuccess testId="retry-restored">
              {retry.copy
                ? "Every setting of that project is copied here. Change what you like, then launch a new one (nothing is charged until you launch)."
                : "Every setting of the run that stopped is back. Change what you like, then launch it again."}
            </FormSuccess>
          ) : null}
          {!retry && (params.get("picturePrompt") || params.get("clipPrompt")) ? (
            <FormSuccess testId="prompt-restored">
              Your prompt from the prompt builder is the {params.get("picturePrompt") ? "picture" : "clip"} prompt (under Models), and its
              subject is the concept. Check them, then launch.
            </FormSuccess>
          ) : null}
          {!retry && params.get("direction") ? (
            <FormSuccess testId="prompt-restored">
              Your prompt from the prompt builder is in Direction notes (under Brief by part), and its subject is the concept. Check them,
              then launch.
            </FormSuccess>
          ) : null}
          {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}

          {uses.url && role ? (
            <UrlField
              id={`${uid}-url`}
              role={role}
              need={uses.url}
              fallsBackToBrandWebsite={urlFallsBackToBrandWebsite(state.type)}
              brandWebsite={brand?.websiteUrl || undefined}
              value={state.url}
              onChange={(v) => update("url", v)}
              error={errors.fields.url}
            />
          ) : null}
          {uses.project ? (
            <ProjectField
              id={`${uid}-project`}
              value={state.project}
              onChange={(v) => update("project", v)}
              error={errors.fields.project}
            />
          ) : null}
          {uses.concept ? (
            <ConceptField
              id={`${uid}-concept`}
              type={state.type}
              need={uses.concept}
              max={studio.limits.conceptMaxLength}
              value={state.concept}
              onChange={(v) => update("concept", v)}
              error={errors.fields.concept}
            />
          ) : null}
          {uses.concept ? <BriefFields id={`${uid}-brief`} value={state.brief} onChange={(v) => update("brief", v)} /> : null}
          <FormatsField
            id={`${uid}-formats`}
            type={state.type}
            formats={studio.formats}
            selected={state.formats}
            onToggle={toggleFormat}
            error={errors.fields.formats}
            imagesOnly={
              uses.imagesOnly
                ? { value: state.imagesOnly, onChange: (v) => update("imagesOnly", v), error: errors.fields.imagesOnly }
                : null
            }
          />
        </section>

        <aside className="studio-aside">
          <section className="card studio-options" aria-labelledby={`${uid}-options`}>
            <h2 id={`${uid}-options`} className="studio-step-title">
              <span className="step-number">3</span> Options
            </h2>
            <QualityChoice
              id={`${uid}-quality`}
              type={state.type}
              tiers={studio.qualityTiers}
              price={price}
              descriptions={pricing.qualityTiers}
              imagesOnly={makesImagesOnly(state.type, state.imagesOnly)}
              value={state.quality}
              onChange={(v) => update("quality", v)}
              error={errors.fields.quality}
            />
            <p className="studio-included muted" data-testid="options-included">
              The options below are included in the price.
            </p>
            <StyleOptions uid={uid} uses={uses} studio={studio} brand={brand} state={state} errors={errors.fields} update={update} />
            <ModelFields
              uid={uid}
              type={state.type}
              kinds={modelKinds}
              models={studio.models}
              quality={state.quality}
              value={state.models}
              onChange={(kind, id) => update("models", { ...state.models, [kind]: id })}
              errors={errors.fields}
            />
            <PromptFields uid={uid} kinds={promptKinds} value={state.prompts} onChange={(v) => update("prompts", v)} />
            {canPublish ? (
              <label className="toggle" htmlFor={`${uid}-publish`}>
                <input
                  id={`${uid}-publish`}
                  type="checkbox"
                  className="switch"
                  checked={state.publish}
                  onChange={(e) => update("publish", e.target.checked)}
                  data-testid="field-publish"
                />
                <span className="toggle-text">
                  <span className="toggle-label">Publish when finished</span>
                  <span className="field-hint">
                    Posted to {social.data?.[0]?.pageName} at your schedule's next time (Settings → Publishing).
                  </span>
                </span>
              </label>
            ) : null}
            {uses.hitl ? (
              <ReviewToggle
                id={`${uid}-hitl`}
                checked={state.hitl}
                onChange={(v) => update("hitl", v)}
                timeoutSeconds={studio.limits.hitlTimeoutSeconds}
                error={errors.fields.hitl}
              />
            ) : null}
          </section>

          <section className="card studio-summary" aria-label="Cost and launch">
            {nothingToImprove ? (
              // The server's estimate would only repeat its refusal; the note under Launch says what to do.
              <p className="cost-estimate" data-testid="cost-estimate" data-state="no-project">
                This will use{" "}
                <strong>{launchCost === null ? "credits" : `${launchCost} ${launchCost === 1 ? "credit" : "credits"}`}</strong> once you
                have a finished ad to improve.
              </p>
            ) : (
              <CostEstimate
                estimate={estimate}
                fallbackCost={price ? price[state.quality] : null}
                hideProblem={problem !== null && problem.kind !== "other" && !(blockedBy && problem.kind === blockedBy)}
              />
            )}
            {problem && !(blockedBy && problem.kind === blockedBy) ? <ProblemAlert problem={problem} /> : null}
            {prefsSaved ? <FormSuccess testId="prefs-saved">Saved as your Studio defaults.</FormSuccess> : null}
            {savePrefs.isError ? <FormAlert testId="prefs-error">{errorMessage(savePrefs.error)}</FormAlert> : null}
            <button
              type="submit"
              className="btn btn-primary btn-large btn-block"
              disabled={launch.isPending || blockedBy !== null}
              aria-describedby={launchNote ? `${uid}-launch-note` : undefined}
              data-testid="launch"
            >
              {launch.isPending ? (
                <>
                  <Spinner size="sm" /> Launching…
                </>
              ) : launchCost === null ? (
                `Launch ${info.name}`
              ) : (
                `Launch ${info.name} for ${launchCost} ${launchCost === 1 ? "credit" : "credits"}`
              )}
            </button>
            {launchNote ? (
              <p id={`${uid}-launch-note`} className="launch-note" data-testid="launch-disabled-reason">
                {launchNote}
              </p>
            ) : null}
            <button
              type="button"
              className="btn btn-link btn-small studio-save-defaults"
              onClick={saveDefaults}
              disabled={savePrefs.isPending}
              data-testid="save-defaults"
            >
              {savePrefs.isPending ? "Saving…" : "Save these settings as my defaults"}
            </button>
          </section>
        </aside>
      </form>
    </>
  );
}
