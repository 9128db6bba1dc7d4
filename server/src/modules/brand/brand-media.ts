// The brand media library: what an account uploads for its ads (PNG, JPEG or WebP photos; MP4, MOV or WebM
// clips; each judged by content and name), at most BRAND_MEDIA_LIMITS.maxCount items per account, each
// checked to decode and to be a usable size. Every item has a role: a product photo, a presenter (photo or
// selfie clip, stored only with the shown person's consent) or product footage. Clips are transcoded once,
// here, to H.264 MP4 without sound (video-probe.ts), with a JPEG poster frame. Files live in the media store
// under `brand/<userId>/`; only their owner can read or delete them (anyone else gets 404, as if they did
// not exist). Ads put them in through `listBrandMedia`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { BrandMedia as BrandMediaRow } from "@adgen/prisma";
import {
  BRAND_MEDIA_EXTENSIONS,
  BRAND_MEDIA_LIMITS,
  BRAND_MEDIA_ROLE_KINDS,
  BRAND_VIDEO_EXTENSIONS,
  BRAND_VIDEO_LIMITS,
  type BrandMedia,
  type BrandMediaDeleted,
  type BrandMediaRole,
  type BrandMediaType,
  type BrandMediaUpload,
  CHECKED_VALUES,
  type UploadedFile,
} from "@adgen/schema";
import { randomUUID } from "node:crypto";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { decodesCleanly, readImageHeader } from "./image-probe.ts";
import { probeVideo, transcodeClip } from "./video-probe.ts";

/** Namespace of the per-account upload locks (two-key advisory locks: this and a hash of the account id). */
const UPLOAD_LOCK = 4_277_001;

const EXTENSION: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "video/mp4": "mp4" };
const ACCEPTED = "a PNG, JPEG or WebP image";
const ACCEPTED_VIDEO = "an MP4, MOV or WebM video";
const MB = 1024 * 1024;

/** What each role is called in a message. */
const ROLE_NAME: Record<BrandMediaRole, string> = { product: "A product photo", presenter: "A presenter", footage: "Product footage" };

const bad = (message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field: "file", message }] });

/** The folder of one account's library in the media store. */
function libraryPrefix(userId: string): string {
  // A user id is one path segment; anything else could name another folder of the store.
  if (!/^[A-Za-z0-9_-]+$/.test(userId)) throw new Error(`not a user id: ${userId}`);
  return `brand/${userId}`;
}

export const brandMediaUrl = (services: Services, id: string) => `${services.config.publicUrl}/api/user/brand/media/${id}/file`;

const isVideo = (row: Pick<BrandMediaRow, "mime">) => row.mime.startsWith("video/");

function view(services: Services, row: BrandMediaRow): BrandMedia {
  return {
    id: row.id,
    url: brandMediaUrl(services, row.id),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    mime: row.mime,
    filename: row.filename,
    createdAt: row.createdAt.toISOString(),
    role: row.role as BrandMediaRole,
    kind: isVideo(row) ? "video" : "image",
    durationSec: row.durationSec,
    posterUrl: row.posterKey ? `${brandMediaUrl(services, row.id).replace(/\/file$/, "")}/poster` : null,
    consent:
      row.role === "presenter" && row.consentName && row.consentAt ? { name: row.consentName, givenAt: row.consentAt.toISOString() } : null,
  };
}

const countOf = (db: Tx, userId: string) => db.brandMedia.count({ where: { userId } });

function fullLibrary(): AppError {
  const { maxCount } = BRAND_MEDIA_LIMITS;
  return bad(`Your brand media library already holds ${maxCount} images, the most it can; delete one before uploading another`);
}

/** A presenter's consent from the upload's fields, or why it is missing. */
function consentOf(input: Omit<BrandMediaUpload, "file">): { consentName: string; consentAt: Date } | null {
  if (input.role !== "presenter") return null;
  const consentBad = (field: string, message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field, message }] });
  if (!(CHECKED_VALUES as readonly string[]).includes(input.consent ?? "")) {
    throw consentBad(
      "consent",
      'A presenter needs their consent: tick "I have this person\'s permission to use their likeness in ads" (send consent=on) and give their name',
    );
  }
  if (!input.consentName)
    throw consentBad("consentName", "A presenter needs the name of the person shown (consentName), who gave their consent");
  const consentAt = input.consentAt ? new Date(input.consentAt) : new Date();
  if (consentAt.getTime() > Date.now() + 24 * 3600_000)
    throw consentBad("consentAt", "consentAt is in the future; give the date the person agreed");
  return { consentName: input.consentName, consentAt };
}

interface Inspected {
  kind: "image" | "video";
  mime: string;
  width: number;
  height: number;
  durationSec: number | null;
}

/** What a role accepts, in words, and the name endings that go with it. */
function acceptedFor(role: BrandMediaRole): { what: string; endings: readonly string[] } {
  const kinds = BRAND_MEDIA_ROLE_KINDS[role];
  const what = kinds.map((k) => (k === "image" ? ACCEPTED : ACCEPTED_VIDEO)).join(" or ");
  return { what, endings: kinds.flatMap((k) => (k === "image" ? BRAND_MEDIA_EXTENSIONS : BRAND_VIDEO_EXTENSIONS)) };
}

/** The checks an upload passes before anything is stored: the kind its role takes, then the kind's own checks. */
async function inspect(file: UploadedFile, role: BrandMediaRole): Promise<Inspected> {
  const ending = extname(file.filename).toLowerCase();
  const accepted = acceptedFor(role);
  const named = file.filename ? `"${file.filename}"` : "The file has no name; it";
  const kind = (BRAND_MEDIA_EXTENSIONS as readonly string[]).includes(ending)
    ? "image"
    : (BRAND_VIDEO_EXTENSIONS as readonly string[]).includes(ending)
      ? "video"
      : null;
  if (!kind) throw bad(`${named} must be ${accepted.what} with a name ending in ${accepted.endings.join(", ")}`);
  if (!BRAND_MEDIA_ROLE_KINDS[role].includes(kind)) {
    const instead = kind === "video" ? "choose Product footage or Presenter for a clip" : "choose Product photo or Presenter for a photo";
    throw bad(`${ROLE_NAME[role]} must be ${accepted.what}; ${named} is a ${kind === "video" ? "video" : "photo"}: ${instead}`);
  }
  if (file.bytes === 0) throw bad(`"${file.filename}" is empty; upload ${accepted.what}`);
  if (kind === "video") return { kind, mime: "video/mp4", ...(await inspectVideo(file)) };
  if (file.bytes > BRAND_MEDIA_LIMITS.maxBytes) {
    throw bad(
      `"${file.filename}" is ${(file.bytes / MB).toFixed(1)} MB; photos may be at most ${BRAND_MEDIA_LIMITS.maxBytes / MB} MB, so export a smaller one`,
    );
  }
  return { kind, durationSec: null, ...(await inspectImage(file)) };
}

/** A clip's checks: by its content (ffmpeg's report), its size in bytes and pixels, and its length. */
async function inspectVideo(file: UploadedFile): Promise<{ width: number; height: number; durationSec: number }> {
  const { maxBytes, minSeconds, maxSeconds, minSide } = BRAND_VIDEO_LIMITS;
  if (file.bytes > maxBytes) {
    throw bad(`"${file.filename}" is ${(file.bytes / MB).toFixed(1)} MB; clips may be at most ${maxBytes / MB} MB, so trim or compress it`);
  }
  const header = await probeVideo(file.path);
  if (!header) {
    throw bad(`"${file.filename}" is not ${ACCEPTED_VIDEO} (judged by its content, not its name); export it again as MP4 and upload that`);
  }
  const length = `${header.durationSec.toFixed(1)} s`;
  if (header.durationSec < minSeconds) throw bad(`"${file.filename}" is ${length} long; clips must be at least ${minSeconds} s`);
  if (header.durationSec > maxSeconds)
    throw bad(`"${file.filename}" is ${length} long; clips may be at most ${maxSeconds} s, so trim it first`);
  if (Math.min(header.width, header.height) < minSide) {
    throw bad(
      `"${file.filename}" is ${header.width}×${header.height} px; clips must be at least ${minSide} px on each side to look sharp in an ad`,
    );
  }
  return { width: header.width, height: header.height, durationSec: header.durationSec };
}

/** A photo's checks: content type, pixel size, a clean decode. */
async function inspectImage(file: UploadedFile): Promise<{ mime: BrandMediaType; width: number; height: number }> {
  const header = await readImageHeader(file.path);
  if (!header) throw bad(`"${file.filename}" is not ${ACCEPTED} (judged by its content, not its name); upload a PNG, JPEG or WebP photo`);
  if (header.animated) throw bad(`"${file.filename}" is an animated WebP; upload a still PNG, JPEG or WebP photo`);
  const { minSide, maxSide } = BRAND_MEDIA_LIMITS;
  const size = `${header.width}×${header.height} px`;
  if (Math.min(header.width, header.height) < minSide) {
    throw bad(`"${file.filename}" is ${size}; photos must be at least ${minSide} px on each side to look sharp in an ad`);
  }
  if (Math.max(header.width, header.height) > maxSide) {
    throw bad(`"${file.filename}" is ${size}; photos may be at most ${maxSide} px on a side, so scale it down first`);
  }
  if (!(await decodesCleanly(file.path))) {
    throw bad(`"${file.filename}" could not be read as a picture (it is damaged or incomplete); export it again and upload the new file`);
  }
  return header;
}

/**
 * A clip's stored form: transcoded to H.264 MP4 (no sound, ≤ 1080 px, 30 fps) with a poster frame, both in a
 * scratch folder the caller removes.
 */
async function transcodeUpload(file: UploadedFile, dir: string) {
  const output = join(dir, "clip.mp4");
  const poster = join(dir, "poster.jpg");
  try {
    const stored = await transcodeClip(file.path, output, poster);
    return { output, poster, stored };
  } catch (error) {
    throw bad(`"${file.filename}" could not be converted (${(error as Error).message}); export it again as MP4 (H.264) and upload that`);
  }
}

/** Adds an uploaded photo or clip to the caller's library; answers it as listed. */
export async function uploadBrandMedia(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: BrandMediaUpload,
): Promise<BrandMedia> {
  const { prisma, media } = services;
  const { file } = input;
  const role = input.role ?? "product";
  const consent = consentOf({ ...input, role });
  // Refused early when the library is full (checked again under the lock below, which is what counts).
  if ((await countOf(prisma, user.id)) >= BRAND_MEDIA_LIMITS.maxCount) throw fullLibrary();
  const item = await inspect(file, role);
  const id = randomUUID();
  const fileKey = `${libraryPrefix(user.id)}/${id}.${EXTENSION[item.mime]}`;
  const posterKey = item.kind === "video" ? `${libraryPrefix(user.id)}/${id}-poster.jpg` : null;
  const scratch = item.kind === "video" ? await mkdtemp(join(tmpdir(), "adgen-clip-")) : null;
  let stored = false;
  try {
    // Transcoded before the lock: it takes seconds, and another upload of the account need not wait for it.
    const clip = scratch ? await transcodeUpload(file, scratch) : null;
    const size = clip
      ? { width: clip.stored.width, height: clip.stored.height, durationSec: Math.round(clip.stored.durationSec * 100) / 100 }
      : item;
    const row = await prisma.$transaction(async (tx) => {
      // One account's uploads take turns, so two at once cannot both be the 20th.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${UPLOAD_LOCK}::int, hashtext(${user.id}))`;
      if ((await countOf(tx, user.id)) >= BRAND_MEDIA_LIMITS.maxCount) throw fullLibrary();
      stored = true;
      const { bytes } = await media.put(fileKey, clip?.output ?? file.path);
      if (clip && posterKey) await media.put(posterKey, clip.poster);
      const created = await tx.brandMedia.create({
        data: {
          id,
          userId: user.id,
          fileKey,
          filename: file.filename.slice(0, 255),
          mime: item.mime,
          bytes,
          width: size.width,
          height: size.height,
          role,
          durationSec: size.durationSec,
          posterKey,
          ...(consent ?? {}),
        },
      });
      await recordAudit(tx, source, {
        action: "brand.media_uploaded",
        targetType: "brand_media",
        targetId: id,
        metadata: {
          bytes,
          mime: item.mime,
          role,
          ...(consent ? { consentName: consent.consentName, consentAt: consent.consentAt.toISOString() } : {}),
        },
      });
      return created;
    });
    return view(services, row);
  } catch (error) {
    // The row was not written: the files must not linger.
    if (stored) {
      await media.remove(fileKey);
      if (posterKey) await media.remove(posterKey);
    }
    throw error;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/** The caller's library, oldest first (the order they were added). */
export async function listOwnBrandMedia(services: Services, user: { id: string }): Promise<BrandMedia[]> {
  const rows = await services.prisma.brandMedia.findMany({
    where: { userId: user.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => view(services, row));
}

/** One of the caller's photos; another account's (or none) is a 404. */
async function findOwn(services: Services, user: { id: string }, id: string): Promise<BrandMediaRow> {
  const row = await services.prisma.brandMedia.findFirst({ where: { id, userId: user.id } });
  if (!row) throw Errors.notFound("Brand media");
  return row;
}

export async function deleteBrandMedia(
  services: Services,
  user: { id: string },
  source: AuditSource,
  id: string,
): Promise<BrandMediaDeleted> {
  const row = await findOwn(services, user, id);
  await services.prisma.$transaction(async (tx) => {
    await tx.brandMedia.delete({ where: { id: row.id } });
    await recordAudit(tx, source, { action: "brand.media_deleted", targetType: "brand_media", targetId: row.id });
  });
  await services.media.remove(row.fileKey);
  if (row.posterKey) await services.media.remove(row.posterKey);
  return { id: row.id, deleted: true };
}

/** The stored file of one of the caller's photos, for serving (byte ranges). */
export async function openBrandMedia(services: Services, user: { id: string }, id: string) {
  const row = await findOwn(services, user, id);
  const info = await services.media.stat(row.fileKey);
  if (!info) throw Errors.notFound("Brand media");
  return { key: row.fileKey, mime: row.mime, filename: `${row.id}.${EXTENSION[row.mime] ?? "bin"}`, ...info };
}

/** The poster frame (JPEG) of one of the caller's clips; a photo (or another account's clip) has none: 404. */
export async function openBrandMediaPoster(services: Services, user: { id: string }, id: string) {
  const row = await findOwn(services, user, id);
  const info = row.posterKey ? await services.media.stat(row.posterKey) : null;
  if (!row.posterKey || !info) throw Errors.notFound("Poster frame");
  return { key: row.posterKey, mime: "image/jpeg", filename: `${row.id}-poster.jpg`, ...info };
}

/** One library item as the pipeline sees it. */
export interface LibraryItem {
  id: string;
  /** Media-store key of the file (read it with `await services.media.localFile(key)`). */
  key: string;
  width: number;
  height: number;
  role: BrandMediaRole;
  kind: "image" | "video";
  /** A clip's length (null for a photo). */
  durationSec: number | null;
  /** A clip's poster frame (JPEG) in the media store (null for a photo). */
  posterKey: string | null;
  filename: string;
}

/** The account's library for the pipeline to place in ads: every item with its role and kind, oldest first. */
export async function listBrandMedia(prisma: Tx, userId: string): Promise<LibraryItem[]> {
  const rows = await prisma.brandMedia.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((row) => ({
    id: row.id,
    key: row.fileKey,
    width: row.width,
    height: row.height,
    role: row.role as BrandMediaRole,
    kind: isVideo(row) ? "video" : "image",
    durationSec: row.durationSec,
    posterKey: row.posterKey,
    filename: row.filename,
  }));
}
