// The Studio: pick a workflow, describe the ad, see what it costs, launch. The request is checked
// with the shared `WorkflowRequest` schema before it leaves the browser; the server checks it again
// and its answers (400 by field, 402, 403) are shown where they belong.
import {
  type AspectRatio,
  defaultFormatsFor,
  type QualityTier,
  WorkflowRequest,
  type WorkflowRequestInput,
  type WorkflowType,
} from "@adgen/schema";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { Field, FieldError, FormAlert, FormSuccess } from "../components/form.tsx";
import { InlineError, Skeleton, Spinner } from "../components/status.tsx";
import { errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../lib/errors.ts";
import { formatNumber } from "../lib/format.ts";
import { useDebounced, useTitle } from "../lib/hooks.ts";
import {
  acceptsUrl,
  blockCode,
  explainBlock,
  explainLaunchError,
  type LaunchProblem,
  newIdempotencyKey,
  ratioId,
  sortFormats,
} from "../lib/workflow.ts";
import type { PageProps } from "../routes.tsx";
import { PagePreviewCard } from "../components/page-preview.tsx";
import { type RouterOutputs, useTRPC } from "../trpc.ts";

type StudioConfig = RouterOutputs["public"]["studio"];
type Pricing = RouterOutputs["public"]["pricing"];
type Prefs = RouterOutputs["workflow"]["prefs"];
type Brand = NonNullable<RouterOutputs["brand"]["get"]>;

const FIELDS = ["type", "url", "concept", "brand", "formats", "quality", "framework", "seasonal", "adPreset", "hitl"] as const;
type FormField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<FormField> = { fields: {}, form: null };

const FRAMEWORK_LABELS: Record<string, string> = {
  pas: "PAS: problem, agitate, solve",
  aida: "AIDA: attention, interest, desire, action",
  sb7: "StoryBrand (SB7)",
  cialdini: "Cialdini: persuasion principles",
  uvp: "Unique value proposition",
  bant: "BANT: budget, authority, need, timing",
};
const SEASONAL_LABELS: Record<string, string> = { ramadan: "Ramadan", eid: "Eid" };
const QUALITY_LABELS: Record<string, string> = { standard: "Standard (cost-optimised)", premium: "Premium (quality-maximised)" };
const CONCEPT_PLACEHOLDER: Partial<Record<WorkflowType, string>> = {
  cinematic: "A sunrise run through the city; our trainers glow with every step. End on the tagline “Own the morning”.",
  factory: "Optional: the angle to take, e.g. “free shipping this week”.",
  clone: "Optional: what to keep from the reference and what to change.",
  brand: "The story of the brand in a few lines.",
};

interface FormState {
  type: WorkflowType;
  url: string;
  concept: string;
  formats: AspectRatio[];
  quality: QualityTier;
  framework: string;
  seasonal: string;
  adPreset: string;
  hitl: boolean;
  brand: string;
}

function initialState(prefs: Prefs, queryType: string | null, studio: StudioConfig, brand: Brand | null): FormState {
  const known = (t: string | null | undefined): t is WorkflowType => !!t && studio.workflowTypes.some((w) => w.type === t);
  const type: WorkflowType = known(queryType) ? queryType : known(prefs.defaultType) ? prefs.defaultType : "cinematic";
  // Saved formats apply to the type they were saved with; a factory run starts with every format.
  const formats = prefs.formats?.length && (!known(queryType) || queryType === prefs.defaultType) ? prefs.formats : defaultFormatsFor(type);
  return {
    type,
    url: "",
    concept: "",
    formats: sortFormats(formats),
    quality: prefs.quality ?? "standard",
    framework: prefs.framework ?? "",
    seasonal: "",
    adPreset: prefs.adPreset ?? "",
    hitl: prefs.hitl ?? false,
    brand: brand?.id ?? "",
  };
}

function toRequest(state: FormState, withUrl: boolean): WorkflowRequestInput {
  const url = state.url.trim();
  return {
    type: state.type,
    ...(withUrl && url ? { url } : {}),
    ...(state.concept.trim() ? { concept: state.concept } : {}),
    ...(state.brand ? { brand: state.brand } : {}),
    formats: sortFormats(state.formats),
    quality: state.quality,
    hitl: state.hitl,
    ...(state.framework ? { framework: state.framework as NonNullable<WorkflowRequestInput["framework"]> } : {}),
    ...(state.seasonal ? { seasonal: state.seasonal as NonNullable<WorkflowRequestInput["seasonal"]> } : {}),
    ...(state.adPreset ? { adPreset: state.adPreset } : {}),
  };
}

export function StudioPage(_props: PageProps) {
  useTitle("Studio");
  const trpc = useTRPC();
  const studio = useQuery(trpc.public.studio.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const pricing = useQuery(trpc.public.pricing.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const prefs = useQuery(trpc.workflow.prefs.queryOptions());
  const brand = useQuery(trpc.brand.get.queryOptions());
  const profile = useQuery(trpc.user.profile.queryOptions());

  const failed = [studio, pricing].find((q) => q.isError);
  // Preferences and the brand profile only prefill: if they fail, the form starts from defaults.
  const ready = studio.data && pricing.data && !prefs.isPending && !brand.isPending;

  return (
    <div className="page" data-testid="studio">
      <header className="page-header">
        <div>
          <h1 className="page-title">Studio</h1>
          <p className="page-subtitle muted">Pick a workflow, describe the ad, and launch. Credits come back if a run fails.</p>
        </div>
        <Link href="/projects" className="btn btn-ghost btn-small">
          Your projects
        </Link>
      </header>
      {failed ? <InlineError error={failed.error} onRetry={() => void failed.refetch()} /> : null}
      {ready ? (
        <StudioForm
          studio={studio.data}
          pricing={pricing.data}
          prefs={prefs.data ?? {}}
          brand={brand.data ?? null}
          planId={profile.data?.current_plan_id}
        />
      ) : failed ? null : (
        <div className="studio-skeleton">
          <Skeleton width="100%" height="9rem" />
          <Skeleton width="100%" height="22rem" />
        </div>
      )}
    </div>
  );
}

interface StudioFormProps {
  studio: StudioConfig;
  pricing: Pricing;
  prefs: Prefs;
  brand: Brand | null;
  planId: string | undefined;
}

function StudioForm({ studio, pricing, prefs, brand, planId }: StudioFormProps) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const [state, setState] = useState<FormState>(() => initialState(prefs, params.get("type"), studio, brand));
  const [formatsTouched, setFormatsTouched] = useState(false);
  const [errors, setErrors] = useState<SplitErrors<FormField>>(NO_ERRORS);
  const [problem, setProblem] = useState<LaunchProblem | null>(null);
  const [prefsSaved, setPrefsSaved] = useState(false);

  // One key per distinct request: a double click or a retry after a network error sends the same key
  // (the server answers the first launch again instead of charging twice); any change makes a new one.
  const idempotencyKey = useRef(newIdempotencyKey());
  const submitting = useRef(false);

  const info = studio.workflowTypes.find((w) => w.type === state.type) ?? studio.workflowTypes[0]!;
  const takesUrl = acceptsUrl(state.type);
  const request = useMemo(() => toRequest(state, takesUrl), [state, takesUrl]);
  const requestKey = JSON.stringify(request);
  const lastKey = useRef(requestKey);
  if (lastKey.current !== requestKey) {
    lastKey.current = requestKey;
    idempotencyKey.current = newIdempotencyKey();
  }

  const launch = useMutation(trpc.workflow.launch.mutationOptions());
  const savePrefs = useMutation(
    trpc.workflow.savePrefs.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.prefs.queryKey(), data);
        setPrefsSaved(true);
      },
    }),
  );

  function update<K extends keyof FormState>(key: K, value: FormState[K]) {
    setState((prev) => ({ ...prev, [key]: value }));
    setProblem(null);
    setPrefsSaved(false);
    if (errors.fields[key as FormField] || errors.form) {
      setErrors((prev) => ({ form: null, fields: { ...prev.fields, [key]: undefined } }));
    }
  }

  function chooseType(type: WorkflowType) {
    setState((prev) => ({ ...prev, type, formats: formatsTouched ? prev.formats : sortFormats(defaultFormatsFor(type)) }));
    setErrors(NO_ERRORS);
    setProblem(null);
    setPrefsSaved(false);
  }

  function toggleFormat(ratio: AspectRatio, on: boolean) {
    setFormatsTouched(true);
    update("formats", sortFormats(on ? [...state.formats, ratio] : state.formats.filter((f) => f !== ratio)));
  }

  const priceOf = (type: string) => {
    const row = pricing.workflows.find((w) => w.type === type);
    return row ? (state.quality === "premium" ? row.premium : row.standard) : null;
  };
  const reservedOnPlan = (type: string) => {
    const row = pricing.workflows.find((w) => w.type === type);
    return !!planId && !!row?.reservedOnPlans.some((p) => p === planId);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    setProblem(null);
    const parsed = WorkflowRequest.safeParse(request);
    const local = parsed.success ? NO_ERRORS : issuesToFieldErrors(parsed.error.issues, FIELDS);
    const fields = { ...local.fields };
    // The schema's cross-field rule runs only once every field parses; say it at once anyway.
    if (info.requiresUrl && !state.url.trim() && !fields.url) fields.url = `url is required for the ${state.type} workflow`;
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
      const split = splitServerError(error, FIELDS);
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
      ...(state.framework ? { framework: state.framework as NonNullable<WorkflowRequestInput["framework"]> } : {}),
      ...(state.adPreset ? { adPreset: state.adPreset as NonNullable<Prefs["adPreset"]> } : {}),
    });
  }

  const conceptMax = studio.limits.conceptMaxLength;
  const conceptLength = state.concept.length;

  return (
    <>
      <section className="studio-section" aria-labelledby={`${uid}-types`}>
        <h2 id={`${uid}-types`} className="studio-step-title">
          <span className="step-number">1</span> Choose a workflow
        </h2>
        <div className="type-grid" role="radiogroup" aria-labelledby={`${uid}-types`}>
          {studio.workflowTypes.map((w) => {
            const selected = w.type === state.type;
            const price = priceOf(w.type);
            const reserved = reservedOnPlan(w.type);
            return (
              <label
                key={w.type}
                className={`type-card${selected ? " is-selected" : ""}${reserved ? " is-reserved" : ""}`}
                data-testid={`workflow-type-${w.type}`}
                data-selected={selected ? "true" : "false"}
              >
                <input
                  type="radio"
                  name={`${uid}-type`}
                  value={w.type}
                  checked={selected}
                  onChange={() => chooseType(w.type)}
                  className="visually-hidden"
                />
                <span className="type-card-head">
                  <span className="type-card-name">{w.name}</span>
                  {price !== null ? (
                    <span className="type-card-cost">
                      {price} {price === 1 ? "credit" : "credits"}
                    </span>
                  ) : null}
                </span>
                <span className="type-card-desc">{w.description}</span>
                <span className="type-card-tags">
                  {w.requiresUrl ? <span className="badge">Needs a URL</span> : null}
                  {reserved ? <span className="badge badge-warning">Paid plans</span> : null}
                </span>
              </label>
            );
          })}
        </div>
      </section>

      <form className="studio-layout" noValidate onSubmit={handleSubmit} data-testid="workflow-form" aria-busy={launch.isPending}>
        <section className="card studio-main" aria-labelledby={`${uid}-details`}>
          <h2 id={`${uid}-details`} className="studio-step-title">
            <span className="step-number">2</span> Describe your {info.name} ad
          </h2>
          {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}

          {takesUrl ? (
            <Field
              id={`${uid}-url`}
              label={state.type === "clone" ? "Reference URL" : state.type === "local-audit" ? "Business page URL" : "Product page URL"}
              type="url"
              inputMode="url"
              name="url"
              autoComplete="url"
              placeholder="https://example.com/product"
              value={state.url}
              onChange={(e) => update("url", e.target.value)}
              error={errors.fields.url}
              errorTestId="field-error-url"
              data-testid="field-url"
              required={info.requiresUrl}
              hint={
                state.type === "clone"
                  ? "The ad you want to take inspiration from."
                  : !info.requiresUrl
                    ? "The page we audit. Leave it empty to use the website in your brand profile."
                    : "We read its title, description, images and colours."
              }
            />
          ) : null}
          {takesUrl && !errors.fields.url ? <PagePreviewCard url={state.url} /> : null}

          <div className={`field${errors.fields.concept ? " has-error" : ""}`}>
            <div className="field-label-row">
              <label htmlFor={`${uid}-concept`} className="field-label">
                Concept <span className="muted field-optional">{info.requiresUrl ? "optional" : "recommended"}</span>
              </label>
              <span
                id={`${uid}-concept-count`}
                className={`char-count${conceptLength > conceptMax ? " is-over" : conceptLength > conceptMax * 0.9 ? " is-near" : ""}`}
                aria-live="polite"
                data-testid="concept-count"
              >
                {formatNumber(conceptLength)} / {formatNumber(conceptMax)}
              </span>
            </div>
            <textarea
              id={`${uid}-concept`}
              className="input textarea"
              name="concept"
              rows={5}
              placeholder={CONCEPT_PLACEHOLDER[state.type] ?? "What should the ad say and show?"}
              value={state.concept}
              onChange={(e) => update("concept", e.target.value)}
              aria-invalid={errors.fields.concept ? true : undefined}
              aria-describedby={`${uid}-concept-count${errors.fields.concept ? ` ${uid}-concept-error` : ""}`}
              data-testid="field-concept"
            />
            <FieldError id={`${uid}-concept-error`} error={errors.fields.concept} testId="field-error-concept" />
          </div>

          <fieldset className={`field fieldset${errors.fields.formats ? " has-error" : ""}`} id={`${uid}-formats`}>
            <legend className="field-label">Formats</legend>
            <div className="format-grid">
              {studio.formats.map((f) => {
                const checked = state.formats.includes(f.ratio);
                return (
                  <label key={f.ratio} className={`format-option${checked ? " is-checked" : ""}`}>
                    <input
                      type="checkbox"
                      name="formats"
                      value={f.ratio}
                      checked={checked}
                      onChange={(e) => toggleFormat(f.ratio, e.target.checked)}
                      data-testid={`format-${ratioId(f.ratio)}`}
                    />
                    <span className="format-shape" style={shapeSize(f.width, f.height, 26)} aria-hidden="true" />
                    <span className="format-text">
                      <span className="format-ratio">{f.ratio}</span>
                      <span className="format-platforms">{f.platforms.slice(0, 3).map(platformName).join(", ")}</span>
                    </span>
                  </label>
                );
              })}
            </div>
            {errors.fields.formats ? (
              <FieldError error={errors.fields.formats} testId="field-error-formats" />
            ) : (
              <p className="field-hint">One video per format. The price is per run, whatever the number of formats.</p>
            )}
          </fieldset>
        </section>

        <aside className="studio-aside">
          <section className="card studio-options" aria-labelledby={`${uid}-options`}>
            <h2 id={`${uid}-options`} className="studio-step-title">
              <span className="step-number">3</span> Options
            </h2>
            <SelectField
              id={`${uid}-quality`}
              label="Quality"
              value={state.quality}
              onChange={(v) => update("quality", v as QualityTier)}
              error={errors.fields.quality}
              errorTestId="field-error-quality"
              testId="field-quality"
            >
              {studio.qualityTiers.map((q) => (
                <option key={q} value={q}>
                  {QUALITY_LABELS[q] ?? q}
                </option>
              ))}
            </SelectField>
            <SelectField
              id={`${uid}-framework`}
              label="Copy framework"
              value={state.framework}
              onChange={(v) => update("framework", v)}
              error={errors.fields.framework}
              errorTestId="field-error-framework"
              testId="field-framework"
            >
              <option value="">Automatic</option>
              {studio.frameworks.map((f) => (
                <option key={f} value={f}>
                  {FRAMEWORK_LABELS[f] ?? f.toUpperCase()}
                </option>
              ))}
            </SelectField>
            <div className="field-pair">
              <SelectField
                id={`${uid}-preset`}
                label="Style preset"
                value={state.adPreset}
                onChange={(v) => update("adPreset", v)}
                error={errors.fields.adPreset}
                errorTestId="field-error-adPreset"
                testId="field-adPreset"
              >
                <option value="">None</option>
                {studio.adPresets.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </SelectField>
              <SelectField
                id={`${uid}-seasonal`}
                label="Seasonal"
                value={state.seasonal}
                onChange={(v) => update("seasonal", v)}
                error={errors.fields.seasonal}
                errorTestId="field-error-seasonal"
                testId="field-seasonal"
              >
                <option value="">None</option>
                {studio.seasonal.map((s) => (
                  <option key={s} value={s}>
                    {SEASONAL_LABELS[s] ?? s}
                  </option>
                ))}
              </SelectField>
            </div>
            {brand ? (
              <SelectField
                id={`${uid}-brand`}
                label="Brand"
                value={state.brand}
                onChange={(v) => update("brand", v)}
                error={errors.fields.brand}
                errorTestId="field-error-brand"
                testId="field-brand"
                hint={
                  <span className="brand-hint">
                    <BrandSwatches colors={brand.brandColors} />
                    Colours, voice and audience come from this profile.
                  </span>
                }
              >
                <option value={brand.id}>{brand.brandName || brand.name || "Your brand profile"}</option>
              </SelectField>
            ) : null}
            <label className="toggle" htmlFor={`${uid}-hitl`}>
              <input
                id={`${uid}-hitl`}
                type="checkbox"
                className="switch"
                checked={state.hitl}
                onChange={(e) => update("hitl", e.target.checked)}
                data-testid="field-hitl"
                aria-describedby={`${uid}-hitl-hint`}
              />
              <span className="toggle-text">
                <span className="toggle-label">Pause for my review</span>
                <span id={`${uid}-hitl-hint`} className="field-hint">
                  See the storyboard before anything renders. Undecided after {formatHours(studio.limits.hitlTimeoutSeconds)}, the run is
                  refunded.
                </span>
              </span>
            </label>
            <FieldError error={errors.fields.hitl} testId="field-error-hitl" />
          </section>

          <section className="card studio-summary" aria-label="Cost and launch">
            <CostEstimate
              request={request}
              requiresUrl={info.requiresUrl}
              fallbackCost={priceOf(state.type)}
              hideProblem={problem !== null && problem.kind !== "other"}
            />
            {problem ? <ProblemAlert problem={problem} /> : null}
            {prefsSaved ? <FormSuccess testId="prefs-saved">Saved as your Studio defaults.</FormSuccess> : null}
            {savePrefs.isError ? <FormAlert testId="prefs-error">{errorMessage(savePrefs.error)}</FormAlert> : null}
            <button type="submit" className="btn btn-primary btn-large btn-block" disabled={launch.isPending} data-testid="launch">
              {launch.isPending ? (
                <>
                  <Spinner size="sm" /> Launching…
                </>
              ) : (
                `Launch ${info.name}`
              )}
            </button>
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

function focusFirstError(uid: string, fields: Partial<Record<FormField, string>>) {
  const order: [FormField, string][] = [
    ["url", `${uid}-url`],
    ["concept", `${uid}-concept`],
    ["formats", `${uid}-formats`],
    ["quality", `${uid}-quality`],
    ["framework", `${uid}-framework`],
    ["adPreset", `${uid}-preset`],
    ["seasonal", `${uid}-seasonal`],
    ["brand", `${uid}-brand`],
  ];
  const first = order.find(([field]) => fields[field]);
  if (!first) return;
  const el = document.getElementById(first[1]);
  const target = el?.matches("fieldset") ? el.querySelector("input") : el;
  (target as HTMLElement | null)?.focus();
}

/** A ratio's outline, fitted in a `box`-pixel square. */
function shapeSize(width: number, height: number, box: number) {
  const scale = box / Math.max(width, height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

function formatHours(seconds: number): string {
  const hours = seconds / 3600;
  if (hours >= 1) return `${Math.round(hours * 10) / 10} hours`;
  return `${Math.max(1, Math.round(seconds / 60))} minutes`;
}

const PLATFORM_NAMES: Record<string, string> = {
  youtube: "YouTube",
  linkedin: "LinkedIn",
  x: "X",
  tiktok: "TikTok",
  "instagram-reels": "Reels",
  "youtube-shorts": "Shorts",
  snapchat: "Snapchat",
  "instagram-feed": "Instagram feed",
  "facebook-feed": "Facebook feed",
};

function platformName(id: string): string {
  return PLATFORM_NAMES[id] ?? id;
}

function BrandSwatches({ colors }: { colors: string | undefined }) {
  const list = (colors ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter((c) => /^#?[0-9a-f]{3}([0-9a-f]{3})?$/i.test(c))
    .slice(0, 4);
  if (list.length === 0) return null;
  return (
    <span className="swatches" aria-hidden="true">
      {list.map((c) => (
        <span key={c} className="swatch" style={{ background: c.startsWith("#") ? c : `#${c}` }} />
      ))}
    </span>
  );
}

interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  errorTestId: string;
  testId: string;
  hint?: ReactNode;
  children: ReactNode;
}

function SelectField({ id, label, value, onChange, error, errorTestId, testId, hint, children }: SelectFieldProps) {
  const describedBy = [error ? `${id}-error` : null, hint && !error ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="input select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      >
        {children}
      </select>
      <FieldError id={`${id}-error`} error={error} testId={errorTestId} />
      {hint && !error ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The launch's problem (402, 403, …) in words, with what to do about it. */
export function ProblemAlert({ problem }: { problem: LaunchProblem }) {
  return (
    <FormAlert>
      <p className="alert-title">{problem.kind === "other" ? problem.message : problem.title}</p>
      {problem.kind !== "other" ? <p>{problem.message}</p> : null}
      {problem.hint ? <p className="alert-hint">{problem.hint}</p> : null}
      {problem.kind === "credits" || problem.kind === "trial" || problem.kind === "reserved" ? (
        <p className="alert-actions">
          <a href="/#pricing">See plans and credit packs</a>
        </p>
      ) : null}
    </FormAlert>
  );
}

/** The server's estimate for the request's cost-relevant part, debounced; it never charges. */
function CostEstimate({
  request,
  requiresUrl,
  fallbackCost,
  hideProblem,
}: {
  request: WorkflowRequestInput;
  requiresUrl: boolean;
  fallbackCost: number | null;
  /** The launch's own error already says why (the alert below); say it once. */
  hideProblem: boolean;
}) {
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

  const data = estimate.data;
  const stale = estimate.isFetching || debounced !== estimateInput;
  if (!data) {
    return (
      <div className="cost-estimate" data-testid="cost-estimate" aria-live="polite">
        {estimate.isError ? (
          <p>
            {fallbackCost !== null ? (
              <>
                This will use <strong>{plural(fallbackCost, "credit")}</strong>.{" "}
              </>
            ) : null}
            <span className="muted">{errorMessage(estimate.error)}</span>
          </p>
        ) : (
          <p className="muted">
            <Spinner size="sm" />
            Estimating the cost…
          </p>
        )}
      </div>
    );
  }
  const problem = data.blockedBy ? explainBlock(blockCode(data.blockedBy), data.message ?? "") : null;
  const left = data.balance - data.cost;
  return (
    <div
      className={`cost-estimate${problem ? " is-blocked" : ""}${stale ? " is-stale" : ""}`}
      data-testid="cost-estimate"
      data-blocked={data.blockedBy ?? undefined}
      aria-live="polite"
      aria-busy={stale}
    >
      <p className="cost-estimate-line">
        This will use <strong data-testid="estimate-cost">{plural(data.cost, "credit")}</strong>; you have{" "}
        <strong data-testid="estimate-balance">{formatNumber(data.balance)}</strong>.
      </p>
      {problem && hideProblem ? null : problem ? (
        <div className="cost-estimate-problem" role="status">
          <p className="alert-title">{problem.title}</p>
          <p>{problem.kind === "credits" ? problem.message : data.message}</p>
          {problem.hint ? <p className="alert-hint">{problem.hint}</p> : null}
          <p className="alert-actions">
            <a href="/#pricing">See plans and credit packs</a>
          </p>
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

function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${n === 1 ? word : `${word}s`}`;
}
