// The brand media library: product photos an account uploads for its ads. The limits are stated once
// here: the server enforces them and the SPA's upload form shows and pre-checks them.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

/** The image types the library accepts, checked by the file's content (its first bytes), not its name. */
export const BRAND_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type BrandMediaType = (typeof BRAND_MEDIA_TYPES)[number];

/** The file-name endings a picker offers (the content decides; a renamed file is still refused). */
export const BRAND_MEDIA_EXTENSIONS = [".png", ".jpg", ".jpeg", ".webp"] as const;

export const BRAND_MEDIA_LIMITS = {
  /** Largest file accepted (refused while it streams in). */
  maxBytes: 10 * 1024 * 1024,
  /** Images per account. */
  maxCount: 20,
  /** Smallest side in pixels: smaller pictures look blurred in a 1080 px ad. */
  minSide: 200,
  /** Largest side in pixels. */
  maxSide: 8000,
} as const;

/**
 * A file received by an upload operation: the REST adapter streams the multipart part to a temporary file
 * (never held in memory) and hands the operation this description. `contentType` is what the client
 * declared, so rules read the file's content instead.
 */
export const UploadedFile = z
  .object(
    {
      path: z.string(),
      filename: z.string(),
      contentType: z.string(),
      bytes: z.number().int().nonnegative(),
    },
    { error: "file is required: send the image as the multipart/form-data part named file" },
  )
  .meta({ title: "UploadedFile" });
export type UploadedFile = z.infer<typeof UploadedFile>;

export const BrandMediaUpload = z.object({ file: UploadedFile });
export type BrandMediaUpload = z.infer<typeof BrandMediaUpload>;

export const BrandMediaId = z.object({
  id: z.string({ error: "id must be a media id" }).trim().min(1, { error: "id must be a media id" }).max(100),
});

export const BrandMedia = z
  .object({
    id: z.string(),
    /** The image, served to its owner only. */
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    /** One of BRAND_MEDIA_TYPES, from the file's content (a string, not an enum: GraphQL enum values cannot hold "/"). */
    mime: z.string(),
    filename: z.string(),
    createdAt: IsoDateTime,
  })
  .meta({ title: "BrandMedia" });
export type BrandMedia = z.infer<typeof BrandMedia>;

export const BrandMediaDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ title: "BrandMediaDeleted" });
export type BrandMediaDeleted = z.infer<typeof BrandMediaDeleted>;
