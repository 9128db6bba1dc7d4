// The brand media library: product photos an account uploads (PNG, JPEG or WebP, judged by content and
// name), at most BRAND_MEDIA_LIMITS.maxCount per account, each checked to decode and to be a usable size.
// Files live in the media store under `brand/<userId>/`; only their owner can read or delete them
// (anyone else gets 404, as if they did not exist). Ads put them in through `listBrandMedia`.
import { extname } from "node:path";
import type { BrandMedia as BrandMediaRow } from "@adgen/prisma";
import {
  BRAND_MEDIA_EXTENSIONS,
  BRAND_MEDIA_LIMITS,
  type BrandMedia,
  type BrandMediaDeleted,
  type BrandMediaType,
  type UploadedFile,
} from "@adgen/schema";
import { randomUUID } from "node:crypto";
import type { RequestContext, Services, Tx } from "../../context.ts";
import { AppError, Errors } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";
import { decodesCleanly, readImageHeader } from "./image-probe.ts";

/** Namespace of the per-account upload locks (two-key advisory locks: this and a hash of the account id). */
const UPLOAD_LOCK = 4_277_001;

const EXTENSION: Record<BrandMediaType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };
const ACCEPTED = "a PNG, JPEG or WebP image";

const bad = (message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field: "file", message }] });

/** The folder of one account's library in the media store. */
function libraryPrefix(userId: string): string {
  // A user id is one path segment; anything else could name another folder of the store.
  if (!/^[A-Za-z0-9_-]+$/.test(userId)) throw new Error(`not a user id: ${userId}`);
  return `brand/${userId}`;
}

export const brandMediaUrl = (services: Services, id: string) => `${services.config.publicUrl}/api/user/brand/media/${id}/file`;

function view(services: Services, row: BrandMediaRow): BrandMedia {
  return {
    id: row.id,
    url: brandMediaUrl(services, row.id),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    mime: row.mime as BrandMediaType,
    filename: row.filename,
    createdAt: row.createdAt.toISOString(),
  };
}

const countOf = (db: Tx, userId: string) => db.brandMedia.count({ where: { userId } });

function fullLibrary(): AppError {
  const { maxCount } = BRAND_MEDIA_LIMITS;
  return bad(`Your brand media library already holds ${maxCount} images, the most it can; delete one before uploading another`);
}

/** The checks an upload passes before anything is stored: name, content type, pixel size, a clean decode. */
async function inspect(file: UploadedFile): Promise<{ mime: BrandMediaType; width: number; height: number }> {
  const ending = extname(file.filename).toLowerCase();
  if (!(BRAND_MEDIA_EXTENSIONS as readonly string[]).includes(ending)) {
    const named = file.filename ? `"${file.filename}"` : "The file has no name; it";
    throw bad(`${named} must be ${ACCEPTED} with a name ending in ${BRAND_MEDIA_EXTENSIONS.join(", ")}`);
  }
  if (file.bytes === 0) throw bad(`"${file.filename}" is empty; upload ${ACCEPTED}`);
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

/** Adds an uploaded photo to the caller's library; answers it as listed. */
export async function uploadBrandMedia(ctx: RequestContext, file: UploadedFile): Promise<BrandMedia> {
  const user = requireUser(ctx);
  const { prisma, media } = ctx.services;
  // Refused early when the library is full (checked again under the lock below, which is what counts).
  if ((await countOf(prisma, user.id)) >= BRAND_MEDIA_LIMITS.maxCount) throw fullLibrary();
  const image = await inspect(file);
  const id = randomUUID();
  const fileKey = `${libraryPrefix(user.id)}/${id}.${EXTENSION[image.mime]}`;
  let stored = false;
  try {
    const row = await prisma.$transaction(async (tx) => {
      // One account's uploads take turns, so two at once cannot both be the 20th.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${UPLOAD_LOCK}::int, hashtext(${user.id}))`;
      if ((await countOf(tx, user.id)) >= BRAND_MEDIA_LIMITS.maxCount) throw fullLibrary();
      const { bytes } = await media.put(fileKey, file.path);
      stored = true;
      const created = await tx.brandMedia.create({
        data: {
          id,
          userId: user.id,
          fileKey,
          filename: file.filename.slice(0, 255),
          mime: image.mime,
          bytes,
          width: image.width,
          height: image.height,
        },
      });
      await recordAudit(tx, ctx, {
        action: "brand.media_uploaded",
        targetType: "brand_media",
        targetId: id,
        metadata: { bytes, mime: image.mime },
      });
      return created;
    });
    return view(ctx.services, row);
  } catch (error) {
    // The row was not written: the file must not linger.
    if (stored) await media.remove(fileKey);
    throw error;
  }
}

/** The caller's library, oldest first (the order they were added). */
export async function listOwnBrandMedia(ctx: RequestContext): Promise<BrandMedia[]> {
  const user = requireUser(ctx);
  const rows = await ctx.services.prisma.brandMedia.findMany({
    where: { userId: user.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => view(ctx.services, row));
}

/** One of the caller's photos; another account's (or none) is a 404. */
async function findOwn(ctx: RequestContext, id: string): Promise<BrandMediaRow> {
  const user = requireUser(ctx);
  const row = await ctx.services.prisma.brandMedia.findFirst({ where: { id, userId: user.id } });
  if (!row) throw Errors.notFound("Brand media");
  return row;
}

export async function deleteBrandMedia(ctx: RequestContext, id: string): Promise<BrandMediaDeleted> {
  const row = await findOwn(ctx, id);
  await ctx.services.prisma.$transaction(async (tx) => {
    await tx.brandMedia.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, { action: "brand.media_deleted", targetType: "brand_media", targetId: row.id });
  });
  await ctx.services.media.remove(row.fileKey);
  return { id: row.id, deleted: true };
}

/** The stored file of one of the caller's photos, for serving (byte ranges). */
export async function openBrandMedia(ctx: RequestContext, id: string) {
  const row = await findOwn(ctx, id);
  const info = await ctx.services.media.stat(row.fileKey);
  if (!info) throw Errors.notFound("Brand media");
  return { key: row.fileKey, mime: row.mime, filename: `${row.id}.${EXTENSION[row.mime as BrandMediaType] ?? "bin"}`, ...info };
}

/**
 * The account's library photos for the pipeline to place in ads: their media-store keys (read them with
 * `await services.media.localFile(key)`) and pixel sizes, oldest first.
 */
export async function listBrandMedia(prisma: Tx, userId: string): Promise<{ key: string; width: number; height: number }[]> {
  const rows = await prisma.brandMedia.findMany({
    where: { userId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { fileKey: true, width: true, height: true },
  });
  return rows.map((row) => ({ key: row.fileKey, width: row.width, height: row.height }));
}
