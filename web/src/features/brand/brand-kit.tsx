// The brand kit on the settings page: what a Brand Clone job read from the brand's site (colours, logo,
// fonts, tone, claims), with the colours, tone and claims editable, and the website such a job reads.
// Checked with the same schema the server validates (@adgen/schema's BrandKit); a server refusal shows
// next to the field it names ("brandKit.claims.2: …").
import { BrandKit, BrandProfileInput } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime } from "../../lib/format.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { Field, FieldError, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { WebAddressField } from "../../ui/web-address-field.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import "./brand.css";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

type Profile = NonNullable<RouterOutputs["brand"]["get"]>;
type Kit = NonNullable<Profile["brandKit"]>;

const MAX_COLORS = 8;
const MAX_CLAIMS = 10;

/** Errors by kit path ("colors.1", "tone", "claims.0"), and the rest for the form. */
interface KitErrors {
  fields: Record<string, string>;
  form: string | null;
}
const NO_ERRORS: KitErrors = { fields: {}, form: null };

/** A colour or claim being edited: its id keeps its row (and its error) while others are removed. */
interface Item {
  id: number;
  value: string;
}
let lastItemId = 0;
const item = (value: string): Item => ({ id: ++lastItemId, value });

/** Which rows were sent, by list: a path such as `claims.2` names the third row sent. */
type SentRows = Record<"colors" | "claims", number[]>;

/** `colors.1` (a position in what was sent) → `colors#<row id>` (the row on screen); other paths as they are. */
function rowPath(path: string, sent: SentRows): string {
  const match = path.match(/^(colors|claims)\.(\d+)/);
  const id = match ? sent[match[1] as keyof SentRows][Number(match[2])] : undefined;
  return id === undefined ? path : `${match![1]}#${id}`;
}

function kitErrorsFromMessage(message: string, sent: SentRows): KitErrors {
  const errors: KitErrors = { fields: {}, form: null };
  const rest: string[] = [];
  for (const part of message.split("; ")) {
    const match = part.match(/^brandKit\.([\w.]+):?\s*(.*)$/);
    if (match) errors.fields[rowPath(match[1]!, sent)] = match[2] || part;
    else rest.push(part);
  }
  if (rest.length) errors.form = rest.join(" ");
  return errors;
}

export function BrandKitSection() {
  const trpc = useTRPC();
  const brand = useQuery(trpc.brand.get.queryOptions());
  const kit = brand.data?.brandKit;
  return (
    <SettingsCard
      title="Brand kit"
      id="brand-kit"
      testId="brand-kit"
      intro={
        <>
          A Brand Clone job reads your site for its colours, logo, fonts, tone and claims, and keeps them here. Your ads use them; you can
          correct them.
        </>
      }
    >
      <div className="brand-kit">
        {brand.isError ? (
          <InlineError error={brand.error} onRetry={() => void brand.refetch()} />
        ) : brand.isPending ? (
          <Skeleton height="160px" />
        ) : (
          <>
            <WebsiteForm profile={brand.data} />
            {kit ? (
              // A new kit (from another job) starts the form over from it.
              <KitForm key={kit.extractedAt} kit={kit} />
            ) : (
              <p className="muted brand-kit-empty" data-testid="brand-kit-empty">
                No brand kit yet. Launch a <Link href="/studio">Brand Clone</Link> in the studio with your site's address (or save it above)
                and its kit will appear here.
              </p>
            )}
          </>
        )}
      </div>
    </SettingsCard>
  );
}

/** The site a Brand Clone (or a local audit) reads when launched without a url. */
function WebsiteForm({ profile }: { profile: Profile | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [website, setWebsite] = useState(profile?.websiteUrl ?? "");
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.brand.save.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.brand.get.queryKey(), data) }),
  );
  const dirty = website.trim() !== (profile?.websiteUrl ?? "");

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!dirty || save.isPending) return;
    const parsed = BrandProfileInput.pick({ websiteUrl: true }).safeParse({ websiteUrl: website.trim() });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Enter the website's address, starting with https://");
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form className="form brand-website" noValidate onSubmit={handleSubmit} data-testid="brand-website-form">
      <WebAddressField
        label="Your website"
        placeholder="https://yourbrand.com"
        value={website}
        onChange={(e) => {
          setWebsite(e.target.value);
          setError(null);
        }}
        error={error}
        errorTestId="field-error-website"
        hint="What a Brand Clone reads when you launch it without a URL."
        testId="brand-website"
      />
      <FormActions
        label="Save website"
        busyLabel="Saving…"
        busy={save.isPending}
        disabled={!dirty}
        testId="save-website"
        className="btn btn-small"
      />
    </form>
  );
}

function KitForm({ kit }: { kit: Kit }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [colors, setColors] = useState<Item[]>(() => kit.colors.map(item));
  const [tone, setTone] = useState(kit.tone ?? "");
  const [claims, setClaims] = useState<Item[]>(() => kit.claims.map(item));
  const [errors, setErrors] = useState<KitErrors>(NO_ERRORS);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.brand.save.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.brand.get.queryKey(), data) }),
  );

  const touched = () => {
    setSaved(false);
    if (errors.form || Object.keys(errors.fields).length) setErrors(NO_ERRORS);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setSaved(false);
    // An emptied claim is a removed one.
    const keptClaims = claims.filter((c) => c.value.trim());
    const sent: SentRows = { colors: colors.map((c) => c.id), claims: keptClaims.map((c) => c.id) };
    const draft = {
      ...kit,
      colors: colors.map((c) => c.value.toLowerCase()),
      tone: tone.trim() || null,
      claims: keptClaims.map((c) => c.value.trim()),
    };
    const parsed = BrandKit.safeParse(draft);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[rowPath(issue.path.join("."), sent)] ??= issue.message;
      setErrors({ fields, form: null });
      return;
    }
    setErrors(NO_ERRORS);
    try {
      await save.mutateAsync({ brandKit: parsed.data });
      setSaved(true);
    } catch (failure) {
      setErrors(kitErrorsFromMessage(errorMessage(failure), sent));
    }
  }

  return (
    <form className="form" noValidate onSubmit={handleSubmit} data-testid="brand-kit-form" aria-busy={save.isPending}>
      <p className="muted brand-kit-source">
        Read from{" "}
        <a href={kit.sourceUrl} target="_blank" rel="noreferrer noopener">
          {kit.sourceUrl}
        </a>{" "}
        on {formatDateTime(kit.extractedAt)}.
      </p>
      {saved ? <FormSuccess testId="brand-kit-saved">Brand kit saved.</FormSuccess> : null}
      {errors.form ? <FormAlert testId="brand-kit-error">{errors.form}</FormAlert> : null}

      <ColorList colors={colors} setColors={setColors} errors={errors} touched={touched} />
      <KitReadings kit={kit} />
      <Field
        label="Tone"
        value={tone}
        maxLength={500}
        placeholder="e.g. warm, direct, concise"
        onChange={(e) => {
          setTone(e.target.value);
          touched();
        }}
        error={errors.fields.tone}
        hint="A few words on how your brand speaks."
        testId="brand-tone"
      />

      <ClaimList claims={claims} setClaims={setClaims} errors={errors} touched={touched} />
      <FormActions label="Save brand kit" busyLabel="Saving…" busy={save.isPending} testId="save-brand-kit" />
    </form>
  );
}

/** The kit's colours, in order (primary, secondary, accent): pick, remove or add one. */
function ColorList({
  colors,
  setColors,
  errors,
  touched,
}: {
  colors: Item[];
  setColors: (colors: Item[]) => void;
  errors: KitErrors;
  touched: () => void;
}) {
  return (
    <fieldset className="brand-kit-group">
      <legend className="field-label">Colours</legend>
      <ul className="brand-colors" data-testid="brand-colors">
        {colors.map((color, i) => (
          <li key={color.id} className="brand-color">
            <input
              type="color"
              value={/^#[0-9a-f]{6}$/i.test(color.value) ? color.value : "#000000"}
              aria-label={`Colour ${i + 1}`}
              onChange={(e) => {
                setColors(colors.map((c) => (c.id === color.id ? { ...c, value: e.target.value } : c)));
                touched();
              }}
              data-testid="brand-color-input"
            />
            <code className="brand-color-hex">{color.value}</code>
            <button
              type="button"
              className="btn btn-link btn-small btn-danger-text"
              aria-label={`Remove colour ${color.value}`}
              onClick={() => {
                setColors(colors.filter((c) => c.id !== color.id));
                touched();
              }}
            >
              Remove
            </button>
            <FieldError error={errors.fields[`colors#${color.id}`]} />
          </li>
        ))}
      </ul>
      {colors.length < MAX_COLORS ? (
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => {
            setColors([...colors, item("#888888")]);
            touched();
          }}
          data-testid="brand-color-add"
        >
          Add a colour
        </button>
      ) : null}
      <FieldError error={errors.fields.colors} />
      <p className="field-hint">The first is your primary colour, the second secondary, the third the accent.</p>
    </fieldset>
  );
}

/** What was read from the site and is shown as it is: the logo and the fonts. */
function KitReadings({ kit }: { kit: Kit }) {
  return (
    <>
      <div className="brand-kit-group">
        <p className="field-label">Logo</p>
        {kit.logoUrl ? (
          <a href={kit.logoUrl} target="_blank" rel="noreferrer noopener" className="brand-logo">
            <img src={kit.logoUrl} alt="Logo read from your site" referrerPolicy="no-referrer" data-testid="brand-logo" />
          </a>
        ) : (
          <p className="muted">No logo found on the site.</p>
        )}
      </div>

      <div className="brand-kit-group">
        <p className="field-label">Fonts</p>
        {kit.fonts.length ? (
          <ul className="brand-fonts" data-testid="brand-fonts">
            {kit.fonts.map((font) => (
              <li key={font} className="brand-font" style={{ fontFamily: `"${font}", var(--font-sans)` }}>
                {font}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">The site names no fonts of its own.</p>
        )}
      </div>
    </>
  );
}

/** Short sentences the ads may quote word for word: edit, remove or add one. */
function ClaimList({
  claims,
  setClaims,
  errors,
  touched,
}: {
  claims: Item[];
  setClaims: (claims: Item[]) => void;
  errors: KitErrors;
  touched: () => void;
}) {
  return (
    <fieldset className="brand-kit-group">
      <legend className="field-label">Claims</legend>
      {claims.length === 0 ? <p className="muted">No claims yet.</p> : null}
      <ol className="brand-claims" data-testid="brand-claims">
        {claims.map((claim, i) => (
          <li key={claim.id} className="brand-claim">
            <div className="brand-claim-row">
              <input
                className="input"
                value={claim.value}
                maxLength={200}
                aria-label={`Claim ${i + 1}`}
                aria-invalid={errors.fields[`claims#${claim.id}`] ? true : undefined}
                onChange={(e) => {
                  setClaims(claims.map((c) => (c.id === claim.id ? { ...c, value: e.target.value } : c)));
                  touched();
                }}
                data-testid="brand-claim"
              />
              <button
                type="button"
                className="btn btn-link btn-small btn-danger-text"
                aria-label={`Remove claim ${i + 1}`}
                onClick={() => {
                  setClaims(claims.filter((c) => c.id !== claim.id));
                  touched();
                }}
              >
                Remove
              </button>
            </div>
            <FieldError error={errors.fields[`claims#${claim.id}`]} />
          </li>
        ))}
      </ol>
      {claims.length < MAX_CLAIMS ? (
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => {
            setClaims([...claims, item("")]);
            touched();
          }}
          data-testid="brand-claim-add"
        >
          Add a claim
        </button>
      ) : null}
      <FieldError error={errors.fields.claims} />
      <p className="field-hint">Short sentences your ads may quote word for word. Keep only what is true.</p>
    </fieldset>
  );
}
