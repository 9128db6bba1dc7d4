// The brand media library: what an account uploads for its ads (PNG, JPEG or WebP photos; MP4, MOV or WebM
// clips; each judged by content and name), at most BRAND_MEDIA_LIMITS.maxCount items per account, each
// checked to decode and to be a usable size (brand-media-inspect.ts). Every item has a role: a product photo,
// a presenter (photo or selfie clip, stored only with the shown person's consent) or product footage. Clips
// are transcoded once, here, to H.264 MP4 without sound (video-probe.ts), with a JPEG poster frame; photos
// over 2048 px are kept as a downscaled working copy, so no render decodes a huge picture. Files live in the media store
// under `brand/<userId>/`; only their owner can read or delete them (anyone else gets 404, as if they did
// not exist). Ads put them in through `listBrandMedia`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrandMedia as BrandMediaRow } from "@adgen/prisma";
import {
  BRAND_MEDIA_LIMITS,
  type BrandMedia,
  type BrandMediaDeleted,
  type BrandMediaRole,
  type BrandMediaUpload,
  CHECKED_VALUES,
} from "@adgen/schema";
import { randomUUID } from "node:crypto";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { bad, inspect, prepare } from "./brand-media-inspect.ts";

/** Namespace of the per-account upload locks (two-key advisory locks: this and a hash of the account id). */
const UPLOAD_LOCK = 4_277_001;

const EXTENSION: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "video/mp4": "mp4" };

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
  const scratch = await mkdtemp(join(tmpdir(), "adgen-upload-"));
  let fileKey = "";
  let posterKey: string | null = null;
  let stored = false;
  try {
    // Decoded and converted before the lock: it takes seconds, and another upload of the account need not wait for it.
    const prepared = await prepare(file, item, user.id, scratch);
    fileKey = `${libraryPrefix(user.id)}/${id}.${EXTENSION[prepared.mime]}`;
    posterKey = prepared.poster ? `${libraryPrefix(user.id)}/${id}-poster.jpg` : null;
    const row = await prisma.$transaction(async (tx) => {
      // One account's uploads take turns, so two at once cannot both be the 20th.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${UPLOAD_LOCK}::int, hashtext(${user.id}))`;
      if ((await countOf(tx, user.id)) >= BRAND_MEDIA_LIMITS.maxCount) throw fullLibrary();
      stored = true;
      const { bytes } = await media.put(fileKey, prepared.path);
      if (prepared.poster && posterKey) await media.put(posterKey, prepared.poster);
      const created = await tx.brandMedia.create({
        data: {
          id,
          userId: user.id,
          fileKey,
          filename: file.filename.slice(0, 255),
          mime: prepared.mime,
          bytes,
          width: prepared.width,
          height: prepared.height,
          role,
          durationSec: prepared.durationSec,
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
          mime: prepared.mime,
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
    await rm(scratch, { recursive: true, force: true });
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
  /** A presenter's name as given with their consent (null for other roles). */
  consentName?: string | null;
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
    consentName: row.consentName,
  }));
}
