// The brand media library on the settings page: upload product photos (with progress), see them as a grid
// of thumbnails, delete them. Every error shows where it happened: under the upload for a refused file,
// on the tile for a failed delete. The limits come from @adgen/schema, so the form says what the server enforces.
import { BRAND_MEDIA_EXTENSIONS, BRAND_MEDIA_LIMITS, BRAND_MEDIA_TYPES, type BrandMedia } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Skeleton } from "../status.tsx";
import { describeBytes, UploadList, useFileUploads } from "./file-uploads.tsx";
import { uploadBrandPhoto } from "./upload-photo.ts";
import "./brand.css";

const ACCEPT = [...BRAND_MEDIA_EXTENSIONS, ...BRAND_MEDIA_TYPES].join(",");

/** What the browser can tell before sending: the name and the size (the server also checks the content). */
function precheck(file: File, room: number): string | null {
  const name = file.name.toLowerCase();
  if (!BRAND_MEDIA_EXTENSIONS.some((ending) => name.endsWith(ending))) return "Only PNG, JPEG or WebP photos can be added.";
  if (file.size > BRAND_MEDIA_LIMITS.maxBytes) {
    return `This file is ${describeBytes(file.size)}; photos may be at most ${describeBytes(BRAND_MEDIA_LIMITS.maxBytes)}.`;
  }
  if (room <= 0) return `Your library is full (${BRAND_MEDIA_LIMITS.maxCount} photos). Delete one to add another.`;
  return null;
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
  const input = useRef<HTMLInputElement>(null);
  const items = media.data ?? [];
  const { uploads, sending, handleFiles } = useFileUploads({
    room: () => BRAND_MEDIA_LIMITS.maxCount - items.length,
    precheck,
    upload: uploadBrandPhoto,
    onUploaded: () => queryClient.invalidateQueries({ queryKey: trpc.brand.media.queryKey() }),
  });

  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`} id="brand-media" data-testid="brand-media">
      <div className="settings-card-intro">
        <h2 id={`${uid}-title`} className="card-title">
          Brand media library
        </h2>
        <p className="muted">
          Product photos your ads can show. PNG, JPEG or WebP, up to {describeBytes(BRAND_MEDIA_LIMITS.maxBytes)} each, at least{" "}
          {BRAND_MEDIA_LIMITS.minSide} px on each side; up to {BRAND_MEDIA_LIMITS.maxCount} photos.
        </p>
      </div>
      <div className="media-library">
        <div className="media-upload">
          <input
            ref={input}
            id={`${uid}-file`}
            type="file"
            accept={ACCEPT}
            multiple
            className="visually-hidden"
            onChange={(event) => void handleFiles(event)}
            disabled={sending || media.isPending}
            data-testid="media-file-input"
          />
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={() => input.current?.click()}
            disabled={sending || media.isPending || items.length >= BRAND_MEDIA_LIMITS.maxCount}
            aria-describedby={`${uid}-count`}
            data-testid="media-upload"
          >
            {sending ? "Uploading…" : "Add photos"}
          </button>
          <span id={`${uid}-count`} className="muted media-count" data-testid="media-count">
            {media.isPending ? "" : `${items.length} of ${BRAND_MEDIA_LIMITS.maxCount}`}
          </span>
        </div>
        <UploadList uploads={uploads} testId="media" />
        {media.isError ? (
          <InlineError error={media.error} onRetry={() => void media.refetch()} />
        ) : media.isPending ? (
          <Skeleton height="96px" />
        ) : items.length === 0 ? (
          <p className="muted media-empty" data-testid="media-empty">
            No photos yet. Add your product shots and ads can feature them.
          </p>
        ) : (
          <ul className="media-grid" data-testid="media-grid">
            {items.map((item) => (
              <MediaTile key={item.id} item={item} />
            ))}
          </ul>
        )}
      </div>
    </section>
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
    <li className="media-tile" data-testid="media-tile">
      <img src={samePath(item.url)} alt={item.filename} width={item.width} height={item.height} loading="lazy" />
      <div className="media-tile-meta">
        <span className="media-tile-size">
          {item.width}×{item.height} · {describeBytes(item.bytes)}
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
