// The brand media library: what an account uploads for its ads: product photos, a presenter (photo or short
// selfie clip, with the shown person's consent recorded) and product footage (short clips the director cuts
// to the ad's beats). The limits are stated once here: the server enforces them and the SPA's upload form
// shows and pre-checks them.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

/** The image types the library accepts, checked by the file's content (its first bytes), not its name. */
export const BRAND_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type BrandMediaType = (typeof BRAND_MEDIA_TYPES)[number];

/** The file-name endings a picker offers (the content decides; a renamed file is still refused). */
export const BRAND_MEDIA_EXTENSIONS = [".png", ".jpg", ".jpeg", ".webp"] as const;

/** The video containers the library accepts (judged by what ffmpeg finds in the file); stored as H.264 MP4. */
export const BRAND_VIDEO_EXTENSIONS = [".mp4", ".mov", ".webm"] as const;

/**
 * What an item is for. `product`: a product photo shown under the copy (the default, and all items made
 * before roles existed). `presenter`: the person fronting avatar and influencer ads (a photo or a short
 * selfie clip). `footage`: a product video clip the ad cuts to its beats.
 */
export const BRAND_MEDIA_ROLES = ["product", "presenter", "footage"] as const;
export const BrandMediaRole = z.enum(BRAND_MEDIA_ROLES, { error: "role must be product, presenter or footage" });
export type BrandMediaRole = z.infer<typeof BrandMediaRole>;

/** Which kinds of file each role takes. */
export const BRAND_MEDIA_ROLE_KINDS: Record<BrandMediaRole, readonly ("image" | "video")[]> = {
  product: ["image"],
  presenter: ["image", "video"],
  footage: ["video"],
};

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

export const BRAND_VIDEO_LIMITS = {
  /** Largest video file accepted (refused while it streams in). */
  maxBytes: 50 * 1024 * 1024,
  /** Shortest clip, in seconds: anything shorter is a still. */
  minSeconds: 2,
  /** Longest clip, in seconds. */
  maxSeconds: 60,
  /** Smallest side in pixels. */
  minSide: 200,
  /** The stored copy: H.264 MP4 without sound, at most this many pixels on its long side ... */
  storedLongSide: 1080,
  /** ... at this frame rate. */
  storedFps: 30,
} as const;

/** The largest upload of any kind (the REST body limit; each kind's own limit is then checked). */
export const BRAND_UPLOAD_MAX_BYTES = Math.max(BRAND_MEDIA_LIMITS.maxBytes, BRAND_VIDEO_LIMITS.maxBytes);

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

/** The multipart text values that tick a checkbox (a browser sends "on"). */
export const CHECKED_VALUES = ["on", "true", "yes", "1"] as const;

export const BrandMediaUpload = z.object({
  file: UploadedFile,
  /** What the item is for (default `product`). */
  role: BrandMediaRole.optional(),
  /** Presenter: the name of the person shown (required for a presenter). */
  consentName: z.string().trim().max(200, { error: "consentName may be at most 200 characters" }).optional(),
  /** Presenter: when they gave their consent (ISO date or date-time; default: now). */
  consentAt: z.iso.datetime({ offset: true, error: "consentAt must be an ISO date-time" }).or(z.iso.date()).optional(),
  /** Presenter: "I have this person's permission to use their likeness in ads" (required for a presenter). */
  consent: z
    .string()
    .trim()
    .toLowerCase()
    .max(10)
    .optional()
    .describe(`Ticked: one of ${CHECKED_VALUES.join(", ")}`),
});
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
    /** What it is for (items made before roles existed are `product`). */
    role: BrandMediaRole,
    kind: z.enum(["image", "video"]),
    /** A video's length in seconds (null for a photo). */
    durationSec: z.number().nullable(),
    /** A video's first frame as a JPEG, served to its owner only (null for a photo). */
    posterUrl: z.string().nullable(),
    /** A presenter's recorded consent: who is shown and when they agreed (null for other roles). */
    consent: z.object({ name: z.string(), givenAt: IsoDateTime }).nullable(),
  })
  .meta({ title: "BrandMedia" });
export type BrandMedia = z.infer<typeof BrandMedia>;

export const BrandMediaDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ title: "BrandMediaDeleted" });
export type BrandMediaDeleted = z.infer<typeof BrandMediaDeleted>;
