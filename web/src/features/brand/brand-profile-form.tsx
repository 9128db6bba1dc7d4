// One brand's profile: name, colours (pickers with their hex), logo (with a preview), voice, audience,
// what it sells and values, website, style guide and language. Checked with the schema the server uses;
// a server refusal shows under the field it names. Saving a new brand creates it (the first becomes the
// default); an existing one is updated, made the default or deleted.
import { BrandProfileInput } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { Field, FieldError, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { LogoUpload } from "./logo-upload.tsx";
import "./brand.css";

export type BrandRow = RouterOutputs["brand"]["list"][number];

const TEXT_FIELDS = [
  "name",
  "industry",
  "tone",
  "targetAudience",
  "productDescription",
  "brandValues",
  "websiteUrl",
  "logoUrl",
  "styleGuide",
  "preferredLanguage",
] as const;
const FIELDS = [...TEXT_FIELDS, "colors", "colors.primary", "colors.secondary", "colors.accent"] as const;
type FormField = (typeof FIELDS)[number];
type TextField = (typeof TEXT_FIELDS)[number];
const COLOR_KEYS = ["primary", "secondary", "accent"] as const;
type ColorKey = (typeof COLOR_KEYS)[number];
const NO_ERRORS: SplitErrors<FormField> = { fields: {}, form: null };

const LABELS: Record<TextField, { label: string; hint?: string; long?: boolean; placeholder?: string }> = {
  name: { label: "Brand name", placeholder: "Brewly" },
  industry: { label: "Industry", placeholder: "Beverages" },
  tone: { label: "Voice and tone", hint: "How your ads sound, e.g. warm, wry, plain-spoken.", long: true },
  targetAudience: { label: "Who it is for", placeholder: "night-shift nurses", long: true },
  productDescription: { label: "What you sell", hint: "A sentence or two; ads may quote it.", long: true },
  brandValues: { label: "What you stand for", long: true },
  websiteUrl: { label: "Website", placeholder: "https://yourbrand.com", hint: "What a Brand Clone or local audit reads without a URL." },
  logoUrl: { label: "Logo address", placeholder: "https://yourbrand.com/logo.png", hint: "A PNG, JPEG or WebP the closing scene shows." },
  styleGuide: { label: "Style guide notes", long: true },
  preferredLanguage: { label: "Language", placeholder: "en", hint: "A language code such as en, de or fr." },
};

const toHex = (value: string | undefined) => (value ? (value.startsWith("#") ? value : `#${value}`).toLowerCase() : "");

function initial(brand: BrandRow | null) {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ""])) as Record<TextField, string>;
  if (brand) {
    for (const f of TEXT_FIELDS) text[f] = String((brand as Record<string, unknown>)[f] ?? "");
    text.name ||= brand.brandName ?? "";
    text.tone ||= brand.brandVoice ?? "";
  }
  const colors = {
    primary: toHex(brand?.colors?.primary),
    secondary: toHex(brand?.colors?.secondary),
    accent: toHex(brand?.colors?.accent),
  };
  return { text, colors };
}

/** The request the form describes: the filled-in texts and colours, trimmed. */
function draftOf(text: Record<TextField, string>, colors: Record<ColorKey, string>): Record<string, unknown> {
  const draft: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) if (text[f].trim()) draft[f] = text[f].trim();
  const chosen = Object.fromEntries(COLOR_KEYS.filter((k) => colors[k].trim()).map((k) => [k, colors[k].trim()]));
  if (Object.keys(chosen).length) draft.colors = chosen;
  return draft;
}

export function BrandProfileForm({ brand, onSaved, onDeleted }: { brand: BrandRow | null; onSaved(id: string): void; onDeleted(): void }) {
  const uid = useId();
  const start = initial(brand);
  const [text, setText] = useState(start.text);
  const [colors, setColors] = useState<Record<ColorKey, string>>(start.colors);
  const [errors, setErrors] = useState(NO_ERRORS);
  const [saved, setSaved] = useState(false);
  const { create, update, remove } = useBrandMutations();
  const busy = create.isPending || update.isPending || remove.isPending;

  const edit = (field: TextField, value: string) => {
    setText((t) => ({ ...t, [field]: value }));
    setSaved(false);
    if (errors.fields[field] || errors.form) setErrors(NO_ERRORS);
  };
  const editColor = (key: ColorKey, value: string) => {
    setColors((c) => ({ ...c, [key]: value }));
    setSaved(false);
    if (errors.fields[`colors.${key}`] || errors.form) setErrors(NO_ERRORS);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSaved(false);
    const draft = draftOf(text, colors);
    // The short field set's name and tone are also sent as the full set's, so both read alike.
    const parsed = BrandProfileInput.safeParse(draft);
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      return;
    }
    if (!parsed.data.name) {
      setErrors({ fields: { name: "Give the brand a name." }, form: null });
      return;
    }
    setErrors(NO_ERRORS);
    try {
      const result = brand ? await update.mutateAsync({ id: brand.id, ...parsed.data }) : await create.mutateAsync(parsed.data);
      setSaved(true);
      onSaved(result.id);
    } catch (error) {
      setErrors(splitServerError(error, FIELDS));
    }
  }

  async function makeDefault() {
    if (!brand || busy) return;
    try {
      await update.mutateAsync({ id: brand.id, makeDefault: true });
    } catch (error) {
      setErrors({ fields: {}, form: errorMessage(error) });
    }
  }

  async function handleDelete() {
    if (!brand || busy) return;
    if (!window.confirm(`Delete the brand "${text.name || "this brand"}"? Its profile is removed; your ads already made stay.`)) return;
    try {
      await remove.mutateAsync({ id: brand.id });
      onDeleted();
    } catch (error) {
      setErrors({ fields: {}, form: errorMessage(error) });
    }
  }

  const field = (f: TextField) => <ProfileText key={f} uid={uid} field={f} value={text[f]} error={errors.fields[f]} onEdit={edit} />;

  const logo = text.logoUrl.trim();
  return (
    <form className="form brand-profile-form" noValidate onSubmit={handleSubmit} data-testid="brand-profile-form" aria-busy={busy}>
      {saved ? <FormSuccess testId="brand-saved">Brand saved. Your next ads use it.</FormSuccess> : null}
      {errors.form ? <FormAlert testId="brand-form-error">{errors.form}</FormAlert> : null}
      <div className="brand-form-grid">
        {field("name")}
        {field("industry")}
      </div>
      <ProfileColors colors={colors} errors={errors} editColor={editColor} />
      <div className="brand-logo-row">
        {field("logoUrl")}
        <div className="brand-logo-preview" data-testid="brand-logo-preview">
          {logo && /^https?:\/\//.test(logo) ? <img src={logo} alt="Logo preview" /> : <span className="muted">No logo</span>}
        </div>
      </div>
      <LogoUpload brandId={brand?.id ?? null} onUploaded={(url) => edit("logoUrl", url)} />
      {field("tone")}
      {field("targetAudience")}
      {field("productDescription")}
      {field("brandValues")}
      {field("websiteUrl")}
      {field("styleGuide")}
      {field("preferredLanguage")}
      <ProfileActions
        brand={brand}
        busy={busy}
        create={create}
        update={update}
        remove={remove}
        makeDefault={makeDefault}
        handleDelete={handleDelete}
      />
    </form>
  );
}

/** The brand's primary, secondary and accent colours: picked, or typed as hex. */
function ProfileColors({
  colors,
  errors,
  editColor,
}: {
  colors: Record<ColorKey, string>;
  errors: typeof NO_ERRORS;
  editColor: (key: ColorKey, value: string) => void;
}) {
  return (
    <fieldset className="brand-kit-group">
      <legend className="field-label">Colours</legend>
      <ul className="brand-colors brand-profile-colors">
        {COLOR_KEYS.map((key) => (
          <li key={key} className="brand-color">
            <input
              type="color"
              aria-label={`${key} colour picker`}
              value={/^#[0-9a-f]{6}$/i.test(colors[key]) ? colors[key] : "#000000"}
              onChange={(e) => editColor(key, e.target.value)}
              data-testid={`brand-color-picker-${key}`}
            />
            <label className="brand-color-label">
              <span className="muted">{key}</span>
              <input
                className="input"
                value={colors[key]}
                placeholder="#0a84ff"
                onChange={(e) => editColor(key, e.target.value)}
                aria-invalid={errors.fields[`colors.${key}`] ? true : undefined}
                data-testid={`brand-color-${key}`}
              />
            </label>
            <FieldError error={errors.fields[`colors.${key}`]} testId={`field-error-color-${key}`} />
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Save (or create), make the brand the default, delete it. */
function ProfileActions({
  brand,
  busy,
  create,
  update,
  remove,
  makeDefault,
  handleDelete,
}: {
  brand: BrandRow | null;
  busy: boolean;
  create: { isPending: boolean };
  update: { isPending: boolean };
  remove: { isPending: boolean };
  makeDefault: () => Promise<void>;
  handleDelete: () => Promise<void>;
}) {
  return (
    <div className="form-actions brand-form-actions">
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="brand-save">
        {create.isPending || update.isPending ? "Saving…" : brand ? "Save brand" : "Create brand"}
      </button>
      {brand && !brand.isDefault ? (
        <button type="button" className="btn" onClick={() => void makeDefault()} disabled={busy} data-testid="brand-make-default">
          Make default
        </button>
      ) : null}
      {brand ? (
        <button
          type="button"
          className="btn btn-link btn-danger-text"
          onClick={() => void handleDelete()}
          disabled={busy}
          data-testid="brand-delete"
        >
          {remove.isPending ? "Deleting…" : "Delete brand"}
        </button>
      ) : null}
    </div>
  );
}

/** Creating, changing and deleting a brand; each refreshes the list and the default brand. */
function useBrandMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.brand.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.brand.get.queryKey() });
  };
  const create = useMutation(trpc.brand.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.brand.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.brand.delete.mutationOptions({ onSuccess: refresh }));
  return { create, update, remove };
}

interface ProfileTextProps {
  uid: string;
  field: TextField;
  value: string;
  error: string | undefined;
  onEdit: (field: TextField, value: string) => void;
}

/** One of the profile's text fields, with its label, placeholder and hint. */
function ProfileText({ uid, field: f, value, error, onEdit }: ProfileTextProps) {
  const meta = LABELS[f];
  return (
    <Field
      id={`${uid}-${f}`}
      label={meta.label}
      name={f}
      value={value}
      placeholder={meta.placeholder}
      hint={meta.hint}
      type={f === "websiteUrl" || f === "logoUrl" ? "url" : "text"}
      onChange={(e) => onEdit(f, e.target.value)}
      error={error}
      errorTestId={`field-error-${f}`}
      data-testid={`brand-${f}`}
    />
  );
}
