// A brand's logo, uploaded as a file (PNG, WebP or SVG) instead of given by URL. It is stored as a PNG
// (an SVG is drawn, never served as SVG) and its address becomes the brand's `logoUrl`.
import { z } from "zod";
import { UploadedFile } from "./brand-media.ts";

export const BRAND_LOGO_LIMITS = {
  /** The uploaded file. */
  maxBytes: 2 * 1024 * 1024,
  /** Smallest side of a PNG or WebP, in pixels (an end card needs something to show). */
  minSide: 32,
  /** Largest side accepted from a PNG or WebP, in pixels. */
  maxSide: 4096,
  /** Longest side of the stored PNG (larger logos are scaled down; an SVG is drawn at this size). */
  storedLongSide: 1024,
} as const;

export const BRAND_LOGO_EXTENSIONS = [".png", ".webp", ".svg"] as const;

export const BrandLogoUpload = z.object({
  file: UploadedFile,
  /** The brand the logo is for (one of yours); your default brand when left out. */
  brandId: z.string().trim().min(1).max(100).optional(),
});
export type BrandLogoUpload = z.infer<typeof BrandLogoUpload>;

export const BrandLogo = z
  .object({
    brandId: z.string(),
    /** Where the stored PNG is served; the brand's `logoUrl` from now on. */
    logoUrl: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    /** What was uploaded: png, webp or svg. */
    uploaded: z.enum(["png", "webp", "svg"]),
  })
  .meta({ title: "BrandLogo" });
export type BrandLogo = z.infer<typeof BrandLogo>;

export const BrandLogoFile = z.object({
  /** `<id>.png`, as in the logo's URL. */
  file: z.string().regex(/^[0-9a-f-]{36}\.png$/, { error: "Name the logo file as in its URL (<id>.png)" }),
});
