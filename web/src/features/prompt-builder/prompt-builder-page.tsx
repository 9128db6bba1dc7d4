// The prompt builder (SPEC 4.6, zero-token): pick a builder, fill the fields (style and camera from
// the published schema's lists, or free text), and see the prompt, its score, the breakdown and
// suggestions update as you type. Every keystroke settles for a moment, then one `promptBuilder.build`
// call; nothing is charged and no model runs.
import { BuildPromptInput, LAUNCH_PROMPT_MODEL, LAUNCH_TEXT_MAX, type LaunchPromptKind } from "@adgen/schema";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { Field, FieldError, FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { errorCode, errorMessage, issuesToFieldErrors, splitMessage } from "../../lib/errors.ts";
import { useDebounced, useTitle } from "../../lib/hooks.ts";
import { type RouterOutputs, useTRPC, useTRPCClient } from "../../trpc.ts";
import { Select } from "../../ui/select.tsx";
import { TextArea } from "../../ui/text-area.tsx";

type PromptSchema = RouterOutputs["promptBuilder"]["schema"];
type BuiltPrompt = RouterOutputs["promptBuilder"]["build"];

const FIELDS = ["builder", "subject", "context", "style", "quality", "lighting", "camera", "negative"] as const;
type FormField = (typeof FIELDS)[number];

interface FormState {
  builder: string;
  subject: string;
  context: string;
  styleId: string;
  styleText: string;
  quality: string;
  lighting: string;
  lens: string;
  shotSize: string;
  angle: string;
  movement: string;
  cameraText: string;
  negative: string;
}

const INITIAL: FormState = {
  builder: "image",
  subject: "",
  context: "",
  styleId: "",
  styleText: "",
  quality: "",
  lighting: "",
  lens: "",
  shotSize: "",
  angle: "",
  movement: "",
  cameraText: "",
  negative: "",
};

/** The request the form describes: style free text wins over the list; camera parts joined. */
function toRequest(form: FormState, video: boolean) {
  const camera = [form.lens, form.shotSize, form.angle, video ? form.movement : "", form.cameraText.trim()].filter(Boolean).join(", ");
  const negative = form.negative
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter(Boolean);
  const optional = (value: string) => (value.trim() ? value : undefined);
  return {
    builder: form.builder,
    params: {
      subject: form.subject,
      context: optional(form.context),
      style: optional(form.styleText) ?? optional(form.styleId),
      quality: optional(form.quality),
      lighting: optional(form.lighting),
      camera: optional(camera),
      negative: negative.length ? negative : undefined,
    },
  };
}

/** Field messages from the shared schema's issues (paths `params.subject` → `subject`). */
function localErrors(request: ReturnType<typeof toRequest>) {
  const result = BuildPromptInput.safeParse(request);
  if (result.success) return { fields: {}, form: null };
  const issues = result.error.issues.map((issue) => ({
    ...issue,
    path: issue.path[0] === "params" ? issue.path.slice(1) : issue.path,
  }));
  return issuesToFieldErrors<FormField>(issues, FIELDS);
}

export function PromptBuilderPage() {
  useTitle("Prompt builder");
  const trpc = useTRPC();
  const schema = useQuery(trpc.promptBuilder.schema.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  return (
    <div className="page" data-testid="prompt-builder">
      <header className="page-header">
        <div>
          <h1 className="page-title">Prompt builder</h1>
          <p className="page-subtitle muted">
            Structure a prompt for images or video, see how strong it is and what would make it better. Free: no credits, no model calls.
          </p>
        </div>
      </header>
      {schema.isPending ? (
        <div className="card" aria-busy="true">
          <Skeleton height="2em" />
          <Skeleton height="8em" />
        </div>
      ) : schema.isError ? (
        <InlineError error={schema.error} onRetry={() => void schema.refetch()} />
      ) : (
        <Builder schema={schema.data} />
      )}
    </div>
  );
}

function Builder({ schema }: { schema: PromptSchema }) {
  const uid = useId();
  const client = useTRPCClient();
  const [form, setForm] = useState<FormState>(INITIAL);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const spec = schema.schemas[form.builder as keyof PromptSchema["schemas"]] ?? schema.schemas.image;
  const video = spec.medium === "video";
  const fieldSpec = (name: string) => spec.fields.find((f) => f.name === name);
  const lexicon = schema.lexicon[spec.family];

  const request = useMemo(() => toRequest(form, video), [form, video]);
  const local = useMemo(() => localErrors(request), [request]);
  const debounced = useDebounced(request, 350);
  const ready = local.form === null && Object.keys(local.fields).length === 0;
  const debouncedReady = useMemo(() => localErrors(debounced), [debounced]);
  const canBuild = debouncedReady.form === null && Object.keys(debouncedReady.fields).length === 0;

  const built = useQuery({
    queryKey: ["promptBuilder.build", debounced],
    queryFn: () => client.promptBuilder.build.mutate(debounced as Parameters<typeof client.promptBuilder.build.mutate>[0]),
    enabled: canBuild,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  const server =
    built.isError && errorCode(built.error) === "BAD_REQUEST"
      ? splitMessage<FormField>(errorMessage(built.error), FIELDS)
      : { fields: {} as Partial<Record<FormField, string>>, form: null as string | null };
  const errorFor = (field: FormField) => local.fields[field] ?? server.fields[field];
  const subjectMissing = form.subject.trim() === "";
  const styles = Object.values(schema.cinematographyStyles);
  const result = canBuild && !subjectMissing ? built.data : undefined;

  return (
    <div className="studio-layout">
      <form className="card studio-main" noValidate onSubmit={(e) => e.preventDefault()} aria-labelledby={`${uid}-form`}>
        <h2 id={`${uid}-form`} className="studio-step-title">
          Describe the shot
        </h2>
        <div className="field">
          <span className="field-label" id={`${uid}-builder`}>
            Builder
          </span>
          <div className="type-grid" role="radiogroup" aria-labelledby={`${uid}-builder`}>
            {schema.builders.map((id) => {
              const b = schema.schemas[id as keyof PromptSchema["schemas"]];
              if (!b) return null;
              const checked = form.builder === id;
              return (
                <label key={id} className={`type-card${checked ? " is-selected" : ""}`} data-testid={`builder-${id}`}>
                  <input
                    type="radio"
                    name={`${uid}-builder`}
                    value={id}
                    checked={checked}
                    onChange={() => set("builder", id)}
                    className="visually-hidden"
                  />
                  <span className="type-card-head">
                    <span className="type-card-name">{b.name}</span>
                  </span>
                  <span className="type-card-desc">{b.description}</span>
                </label>
              );
            })}
          </div>
          <FieldError error={errorFor("builder")} />
        </div>

        <TextArea
          id={`${uid}-subject`}
          label={
            <>
              Subject <span className="muted field-optional">required</span>
            </>
          }
          aria-required
          style={{ minHeight: 72 }}
          value={form.subject}
          onChange={(v) => set("subject", v)}
          placeholder={fieldSpec("subject")?.placeholder}
          counter={{ max: fieldSpec("subject")?.maxLength ?? 500 }}
          error={subjectMissing ? undefined : errorFor("subject")}
          hint={subjectMissing ? "Start here: the prompt appears as soon as there is a subject." : fieldSpec("subject")?.description}
          testId="pb-subject"
        />
        <Field
          id={`${uid}-context`}
          label="Context"
          value={form.context}
          onChange={(e) => set("context", e.target.value)}
          placeholder={fieldSpec("context")?.placeholder}
          error={errorFor("context")}
          hint={fieldSpec("context")?.description}
          maxLength={600}
          data-testid="pb-context"
        />

        <div className="field-pair">
          <Select id={`${uid}-style`} label="Style" value={form.styleId} onChange={(v) => set("styleId", v)} testId="pb-style">
            <option value="">No named style</option>
            {styles.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {spec.recommendedStyles.includes(s.id) ? " (recommended)" : ""}
              </option>
            ))}
          </Select>
          <Field
            id={`${uid}-style-text`}
            label="…or your own style"
            value={form.styleText}
            onChange={(e) => set("styleText", e.target.value)}
            placeholder="e.g. pastel claymation"
            error={errorFor("style")}
            maxLength={600}
            data-testid="pb-style-text"
          />
        </div>
        {form.styleId && !form.styleText ? (
          <StyleNote style={schema.cinematographyStyles[form.styleId as keyof PromptSchema["cinematographyStyles"]]} />
        ) : null}

        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <legend className="field-label">Camera</legend>
          <div className="field-pair">
            <Select id={`${uid}-lens`} label="Lens" value={form.lens} onChange={(v) => set("lens", v)} testId="pb-lens">
              <option value="">Any lens</option>
              {schema.camera.lenses.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}: {l.use}
                </option>
              ))}
            </Select>
            <Select id={`${uid}-shot`} label="Shot size" value={form.shotSize} onChange={(v) => set("shotSize", v)} testId="pb-shot">
              <option value="">Any shot size</option>
              {schema.camera.shotSizes.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </Select>
            <Select id={`${uid}-angle`} label="Angle" value={form.angle} onChange={(v) => set("angle", v)} testId="pb-angle">
              <option value="">Any angle</option>
              {schema.camera.angles.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </Select>
            {video ? (
              <Select
                id={`${uid}-movement`}
                label="Movement"
                value={form.movement}
                onChange={(v) => set("movement", v)}
                testId="pb-movement"
              >
                <option value="">No movement</option>
                {schema.camera.movements.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label}
                  </option>
                ))}
              </Select>
            ) : null}
          </div>
          <Field
            id={`${uid}-camera`}
            label="More camera notes"
            value={form.cameraText}
            onChange={(e) => set("cameraText", e.target.value)}
            placeholder={video ? "e.g. shallow depth of field" : "e.g. f/1.8, shallow depth of field"}
            error={errorFor("camera")}
            maxLength={600}
            data-testid="pb-camera"
          />
        </fieldset>

        <Field
          id={`${uid}-lighting`}
          label="Lighting"
          value={form.lighting}
          onChange={(e) => set("lighting", e.target.value)}
          placeholder={fieldSpec("lighting")?.placeholder}
          error={errorFor("lighting")}
          hint={`Terms that work well: ${lexicon.lighting.slice(0, 5).join(", ")}`}
          list={`${uid}-lighting-terms`}
          maxLength={600}
          data-testid="pb-lighting"
        />
        <datalist id={`${uid}-lighting-terms`}>
          {lexicon.lighting.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <Field
          id={`${uid}-quality`}
          label="Quality"
          value={form.quality}
          onChange={(e) => set("quality", e.target.value)}
          placeholder={fieldSpec("quality")?.placeholder}
          error={errorFor("quality")}
          hint={`Comma-separated. Defaults when empty: ${spec.defaultQuality.join(", ")}`}
          maxLength={600}
          data-testid="pb-quality"
        />
        <Field
          id={`${uid}-negative`}
          label="Negative"
          value={form.negative}
          onChange={(e) => set("negative", e.target.value)}
          placeholder={fieldSpec("negative")?.placeholder}
          error={errorFor("negative")}
          hint={`Comma-separated, up to ${schema.limits.negativeMaxItems}. Always added: ${spec.defaultNegative.join(", ")}`}
          data-testid="pb-negative"
        />
        {(local.form ?? server.form) ? <FormAlert>{local.form ?? server.form}</FormAlert> : null}
      </form>

      <aside className="studio-aside" aria-live="polite">
        <Result
          builder={form.builder}
          subject={form.subject}
          result={result}
          subjectMissing={subjectMissing}
          fetching={built.isFetching || (ready && debounced !== request)}
          error={built.isError && errorCode(built.error) !== "BAD_REQUEST" ? built.error : null}
          invalid={!ready || (built.isError && errorCode(built.error) === "BAD_REQUEST")}
          onRetry={() => void built.refetch()}
        />
      </aside>
    </div>
  );
}

function StyleNote({ style }: { style: PromptSchema["cinematographyStyles"][keyof PromptSchema["cinematographyStyles"]] | undefined }) {
  if (!style) return null;
  return (
    <p className="field-hint" data-testid="pb-style-note">
      <strong>{style.name}</strong>: {style.lighting}; {style.palette}; {style.camera}; {style.mood}.
    </p>
  );
}

/** The studio workflow a builder's prompt suits: a still for the image builder, a filmed ad otherwise. */
const STUDIO_TYPE: Record<string, string> = { image: "staticad", "video-cinematic": "cinematic", "video-ugc": "cinematic" };
/** The generation model's prompt a builder's prompt suits: a picture's for the image builder, a clip's otherwise. */
const MODEL_PROMPT: Record<string, LaunchPromptKind> = { image: "picture", "video-cinematic": "clip", "video-ugc": "clip" };

/**
 * The studio, opened with the subject as the concept and this prompt as the run's direction notes, or (where
 * the instance has the generation model) as its picture or clip prompt. Lengths are the launch's own.
 */
function studioHref(builder: string, subject: string, prompt: string, as: "direction" | LaunchPromptKind = "direction"): string {
  const params = new URLSearchParams({
    type: STUDIO_TYPE[builder] ?? "cinematic",
    concept: subject.trim().slice(0, LAUNCH_TEXT_MAX.concept),
    ...(as === "direction"
      ? { direction: prompt.slice(0, LAUNCH_TEXT_MAX.direction) }
      : { [`${as}Prompt`]: prompt.slice(0, LAUNCH_TEXT_MAX.prompt) }),
  });
  return `/studio?${params.toString()}`;
}

/** Which model prompt this builder's prompt can feed here: only where a provider key gives the instance that model. */
function useModelPrompt(builder: string): LaunchPromptKind | null {
  const trpc = useTRPC();
  const studio = useQuery(trpc.public.studio.queryOptions());
  const kind = MODEL_PROMPT[builder];
  if (!kind || !studio.data) return null;
  const { kind: modelKind, model } = LAUNCH_PROMPT_MODEL[kind];
  return studio.data.models[modelKind].some((m) => m.id === model) ? kind : null;
}

function Result({
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
  const modelPrompt = useModelPrompt(builder);
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
  const pct = Math.max(0, Math.min(100, result.score));
  return (
    <>
      <section className="card studio-summary" aria-label="Score" data-testid="pb-score-card">
        <div style={{ display: "flex", alignItems: "baseline", justifyContent: "space-between", gap: 8 }}>
          <h2 className="studio-step-title">Score</h2>
          <span>
            <strong style={{ fontSize: 28 }} data-testid="pb-score">
              {result.score}
            </strong>
            <span className="muted">/100</span>{" "}
            <span
              className={`badge ${result.grade === "excellent" || result.grade === "good" ? "badge-success" : result.grade === "fair" ? "badge-warning" : "badge-danger"}`}
            >
              {result.grade}
            </span>
            {fetching ? (
              <>
                {" "}
                <Spinner size="sm" />
              </>
            ) : null}
          </span>
        </div>
        <div
          className="progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={result.score}
          aria-label="Prompt score"
        >
          <span className="progress-bar" style={{ width: `${pct}%` }} />
        </div>
        <ul style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: 6 }} data-testid="pb-breakdown">
          {result.breakdown.map((b) => (
            <li key={b.criterion} style={{ display: "grid", gap: 2 }}>
              <span style={{ display: "flex", justifyContent: "space-between", gap: 8 }}>
                <span>{b.label}</span>
                <span className="muted" style={{ fontVariantNumeric: "tabular-nums" }}>
                  {b.points}/{b.max}
                </span>
              </span>
              <span className="field-hint" style={{ margin: 0 }}>
                {b.note}
              </span>
            </li>
          ))}
        </ul>
        {result.suggestions.length ? (
          <div>
            <h3 className="field-label">Suggestions</h3>
            <ul style={{ paddingLeft: 18, margin: "6px 0 0", display: "grid", gap: 4 }} data-testid="pb-suggestions">
              {result.suggestions.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="muted">Nothing to add: this prompt covers every criterion.</p>
        )}
      </section>
      <section className="card studio-summary" aria-label="Prompt" data-testid="pb-prompt">
        <PromptText label="Positive prompt" text={result.positive} testId="pb-positive" />
        <PromptText label="Negative prompt" text={result.negative} testId="pb-negative-text" />
        <div className="pb-use">
          <Link href={studioHref(builder, subject, result.positive)} className="btn btn-primary btn-small" data-testid="pb-use-in-studio">
            Make an ad with this prompt
          </Link>
          {modelPrompt ? (
            <Link
              href={studioHref(builder, subject, result.positive, modelPrompt)}
              className="btn btn-secondary btn-small"
              data-testid={`pb-use-as-${modelPrompt}-prompt`}
            >
              Use it as the {modelPrompt} prompt
            </Link>
          ) : null}
          <p className="field-hint">
            Opens the Studio with your subject as the concept and this prompt as the direction notes
            {modelPrompt ? `, or as the prompt each generated ${modelPrompt === "picture" ? "picture is drawn from" : "clip follows"}` : ""}
            ; you see the price before you launch.
          </p>
        </div>
        <details>
          <summary className="field-label" style={{ cursor: "pointer" }}>
            Formatted for each model family
          </summary>
          <div style={{ display: "grid", gap: 12, marginTop: 10 }}>
            {(Object.keys(result.formatted) as (keyof BuiltPrompt["formatted"])[]).map((family) => (
              <PromptText
                key={family}
                label={FAMILY_LABELS[family] ?? family}
                text={result.formatted[family]}
                testId={`pb-formatted-${family}`}
              />
            ))}
          </div>
        </details>
      </section>
    </>
  );
}

const FAMILY_LABELS: Record<string, string> = {
  diffusion: "Image diffusion models (tags)",
  video: "Video models (shot description)",
  natural: "Natural-language models (sentences)",
};

function PromptText({ label, text, testId }: { label: string; text: string; testId: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied("idle"), 2000);
  };
  return (
    <div style={{ display: "grid", gap: 6, minWidth: 0 }}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 8 }}>
        <span className="field-label">{label}</span>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed: select the text" : "Copy"}
        </button>
      </div>
      <p
        className="input"
        style={{
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
          margin: 0,
          height: "auto",
          minHeight: 0,
          lineHeight: 1.5,
          userSelect: "all",
        }}
        data-testid={testId}
      >
        {text}
      </p>
    </div>
  );
}
