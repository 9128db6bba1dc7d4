// The brand media library on the settings page: upload product photos, a presenter (photo or selfie clip,
// with the shown person's consent) and product footage (with progress), see them as a grid of thumbnails
// with their role, delete them. Every error shows where it happened: under the upload for a refused file,
// on the tile for a failed delete. The limits come from @adgen/schema, so the form says what the server enforces.
import {
  BRAND_MEDIA_EXTENSIONS,
  BRAND_MEDIA_LIMITS,
  BRAND_MEDIA_ROLE_KINDS,
  BRAND_MEDIA_TYPES,
  BRAND_VIDEO_EXTENSIONS,
  BRAND_VIDEO_LIMITS,
  type BrandMedia,
  type BrandMediaRole,
} from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { describeBytes, UploadList, useFileUploads } from "./file-uploads.tsx";
import { uploadBrandMedia } from "./upload-photo.ts";
import { UploadPanel } from "../../ui/upload-panel.tsx";
import "./brand.css";
import { SettingsCard } from "../../ui/settings-card.tsx";

const ROLES: { id: BrandMediaRole; label: string; hint: string }[] = [
  { id: "product", label: "Product photo", hint: "Shown under the copy of your ads." },
  { id: "presenter", label: "Presenter", hint: "The person who fronts presenter and creator ads: a photo or a short selfie clip." },
  { id: "footage", label: "Product footage", hint: "Short clips of your product; ads cut them to their beats." },
];

const ROLE_NAMES: Record<BrandMediaRole, string> = { product: "Product", presenter: "Presenter", footage: "Footage" };

const acceptFor = (role: BrandMediaRole) => {
  const kinds = BRAND_MEDIA_ROLE_KINDS[role];
  return [
    ...(kinds.includes("image") ? [...BRAND_MEDIA_EXTENSIONS, ...BRAND_MEDIA_TYPES] : []),
    ...(kinds.includes("video") ? [...BRAND_VIDEO_EXTENSIONS, "video/mp4", "video/quicktime", "video/webm"] : []),
  ].join(",");
};

/** What the browser can tell before sending: the name and the size (the server also checks the content). */
function precheckFor(role: BrandMediaRole) {
  return (file: File, room: number): string | null => {
    const name = file.name.toLowerCase();
    const kinds = BRAND_MEDIA_ROLE_KINDS[role];
    const isImage = BRAND_MEDIA_EXTENSIONS.some((ending) => name.endsWith(ending));
    const isVideo = BRAND_VIDEO_EXTENSIONS.some((ending) => name.endsWith(ending));
    if (isImage && kinds.includes("image")) {
      if (file.size > BRAND_MEDIA_LIMITS.maxBytes) {
        return `This file is ${describeBytes(file.size)}; photos may be at most ${describeBytes(BRAND_MEDIA_LIMITS.maxBytes)}.`;
      }
    } else if (isVideo && kinds.includes("video")) {
      if (file.size > BRAND_VIDEO_LIMITS.maxBytes) {
        return `This clip is ${describeBytes(file.size)}; clips may be at most ${describeBytes(BRAND_VIDEO_LIMITS.maxBytes)}.`;
      }
    } else {
      return role === "product"
        ? "Only PNG, JPEG or WebP photos can be added as product photos."
        : role === "footage"
          ? "Product footage is a video clip: MP4, MOV or WebM."
          : "A presenter is a photo (PNG, JPEG or WebP) or a video clip (MP4, MOV or WebM).";
    }
    if (room <= 0) return `Your library is full (${BRAND_MEDIA_LIMITS.maxCount} items). Delete one to add another.`;
    return null;
  };
}

/** The image's path on this origin (the API answers absolute URLs; the SPA may be served elsewhere in development). */
const samePath = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

export function MediaLibrarySection() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const media = useQuery(trpc.brand.media.queryOptions());
  const items = media.data ?? [];
  const [role, setRole] = useState<BrandMediaRole>("product");
  const [consentName, setConsentName] = useState("");
  const [consent, setConsent] = useState(false);
  // A presenter is stored only with the shown person's permission: the upload waits for both.
  const needsConsent = role === "presenter" && (!consentName.trim() || !consent);
  const { uploads, sending, handleFiles } = useFileUploads({
    room: () => BRAND_MEDIA_LIMITS.maxCount - items.length,
    precheck: precheckFor(role),
    upload: (file, onProgress) => uploadBrandMedia(file, onProgress, { role, consentName, consent }),
    onUploaded: () => queryClient.invalidateQueries({ queryKey: trpc.brand.media.queryKey() }),
  });

  return (
    <SettingsCard
      title="Brand media library"
      id="brand-media"
      testId="brand-media"
      intro={
        <>
          Photos, a presenter and product clips your ads can show. Photos: PNG, JPEG or WebP, up to{" "}
          {describeBytes(BRAND_MEDIA_LIMITS.maxBytes)} each, at least {BRAND_MEDIA_LIMITS.minSide} px on each side. Clips: MP4, MOV or WebM,{" "}
          {BRAND_VIDEO_LIMITS.minSeconds}–{BRAND_VIDEO_LIMITS.maxSeconds} s, up to {describeBytes(BRAND_VIDEO_LIMITS.maxBytes)}. Up to{" "}
          {BRAND_MEDIA_LIMITS.maxCount} items.
        </>
      }
    >
      <div className="media-library">
        <fieldset className="media-role" data-testid="media-role">
          <legend className="field-label">What are you adding?</legend>
          {ROLES.map((r) => (
            <label key={r.id} className="media-role-option">
              <input
                type="radio"
                name={`${uid}-role`}
                value={r.id}
                checked={role === r.id}
                onChange={() => setRole(r.id)}
                data-testid={`media-role-${r.id}`}
              />
              <span>
                <strong>{r.label}</strong> <span className="muted">{r.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {role === "presenter" ? (
          <div className="media-consent" data-testid="media-consent">
            <p className="muted">
              Ads will show this person's face and make them speak your script. We record who they are and that you have their permission.
            </p>
            <label className="field">
              <span className="field-label">Name of the person shown</span>
              <input
                type="text"
                value={consentName}
                maxLength={200}
                onChange={(event) => setConsentName(event.target.value)}
                data-testid="media-consent-name"
              />
            </label>
            <label className="media-consent-check">
              <input
                type="checkbox"
                checked={consent}
                onChange={(event) => setConsent(event.target.checked)}
                data-testid="media-consent-check"
              />
              <span>I have this person's permission to use their likeness in ads.</span>
            </label>
          </div>
        ) : null}
        <UploadPanel
          inputId={`${uid}-file`}
          accept={acceptFor(role)}
          testId="media"
          label={role === "product" ? "Add photos" : role === "presenter" ? "Add presenter" : "Add clips"}
          count={media.isPending ? "" : `${items.length} of ${BRAND_MEDIA_LIMITS.maxCount}`}
          sending={sending}
          loading={media.isPending}
          blocked={items.length >= BRAND_MEDIA_LIMITS.maxCount || needsConsent}
          onFiles={(event) => void handleFiles(event)}
        />
        <UploadList uploads={uploads} testId="media" />
        {media.isError ? (
          <InlineError error={media.error} onRetry={() => void media.refetch()} />
        ) : media.isPending ? (
          <Skeleton height="96px" />
        ) : items.length === 0 ? (
          <p className="muted media-empty" data-testid="media-empty">
            Nothing yet. Add your product shots, a presenter or product clips and ads can feature them.
          </p>
        ) : (
          <ul className="media-grid" data-testid="media-grid">
            {items.map((item) => (
              <MediaTile key={item.id} item={item} />
            ))}
          </ul>
        )}
      </div>
    </SettingsCard>
  );
}

function MediaTile({ item }: { item: BrandMedia }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.brand.deleteMedia.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.brand.media.queryKey() }),
    }),
  );
  return (
    <li className="media-tile" data-testid="media-tile" data-role={item.role}>
      <img
        src={samePath(item.kind === "video" && item.posterUrl ? item.posterUrl : item.url)}
        alt={item.filename}
        width={item.width}
        height={item.height}
        loading="lazy"
      />
      <span className="media-tile-role" data-testid="media-tile-role">
        {ROLE_NAMES[item.role]}
        {item.kind === "video" && item.durationSec !== null ? ` · ${item.durationSec.toFixed(0)} s clip` : ""}
      </span>
      <div className="media-tile-meta">
        <span className="media-tile-size">
          {item.width}×{item.height} · {describeBytes(item.bytes)}
          {item.consent ? ` · consent: ${item.consent.name}` : ""}
        </span>
        <button
          type="button"
          className="btn btn-link btn-small btn-danger-text"
          onClick={() => remove.mutate({ id: item.id })}
          disabled={remove.isPending}
          aria-label={`Delete ${item.filename}`}
          data-testid="media-delete"
        >
          {remove.isPending ? "Deleting…" : "Delete"}
        </button>
      </div>
      {remove.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(remove.error)}
        </p>
      ) : null}
    </li>
  );
}
