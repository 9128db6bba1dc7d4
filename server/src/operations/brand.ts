// brand.*: the account's brand profile, which art direction reads, and its brand media library (product
// photos that ads show).
import {
  BRAND_MEDIA_LIMITS,
  BrandMedia,
  BrandMediaDeleted,
  BrandMediaId,
  BrandMediaUpload,
  BrandProfile,
  BrandProfileInput,
} from "@adgen/schema";
import { z } from "zod";
import { deleteBrandMedia, listOwnBrandMedia, openBrandMedia, uploadBrandMedia } from "../modules/brand/brand-media.ts";
import { getBrandProfile, saveBrandProfile } from "../modules/brand/brand-profile.ts";
import { defineOperation, type FileResult, NoInput } from "./operation.ts";

const NOT_SERVED_UPLOAD = "a file upload (multipart) over REST only";

export const brandOperations = {
  get: defineOperation({
    summary: "Your brand profile (both field sets), or null",
    access: "user",
    kind: "query",
    input: NoInput,
    output: BrandProfile.nullable(),
    rest: { method: "GET", path: "/user/brand", tag: "Brand" },
    handler: (ctx) => getBrandProfile(ctx),
  }),
  save: defineOperation({
    summary: "Save your brand profile (either field set); answers it with its id, which the workflow field `brand` takes",
    access: "user",
    kind: "mutation",
    input: BrandProfileInput,
    output: BrandProfile,
    rest: { method: "POST", path: "/user/brand", tag: "Brand" },
    handler: (ctx, input) => saveBrandProfile(ctx, input),
  }),
  uploadMedia: defineOperation({
    summary: `Add a product photo to your brand media library (multipart part \`file\`: PNG, JPEG or WebP, at most ${BRAND_MEDIA_LIMITS.maxBytes / (1024 * 1024)} MB, ${BRAND_MEDIA_LIMITS.minSide}–${BRAND_MEDIA_LIMITS.maxSide} px a side, ${BRAND_MEDIA_LIMITS.maxCount} per account)`,
    access: "user",
    kind: "upload",
    input: BrandMediaUpload,
    output: BrandMedia,
    rest: {
      method: "POST",
      path: "/user/brand/media",
      tag: "Brand",
      upload: { field: "file", maxBytes: BRAND_MEDIA_LIMITS.maxBytes },
      errors: { 413: "The file is larger than 10 MB" },
    },
    trpc: { none: NOT_SERVED_UPLOAD },
    graphql: { none: NOT_SERVED_UPLOAD },
    handler: (ctx, input) => uploadBrandMedia(ctx, input.file),
  }),
  media: defineOperation({
    summary: "Your brand media library, oldest first",
    access: "user",
    kind: "query",
    input: NoInput,
    output: z.array(BrandMedia),
    rest: { method: "GET", path: "/user/brand/media", tag: "Brand" },
    handler: (ctx) => listOwnBrandMedia(ctx),
  }),
  deleteMedia: defineOperation({
    summary: "Delete a photo from your brand media library (its file too)",
    access: "user",
    kind: "mutation",
    input: BrandMediaId,
    output: BrandMediaDeleted,
    rest: { method: "DELETE", path: "/user/brand/media/{id}", tag: "Brand", from: "query", errors: { 404: "Brand media not found" } },
    handler: (ctx, input) => deleteBrandMedia(ctx, input.id),
  }),
  mediaFile: defineOperation({
    summary: "The image of one of your brand media, with byte ranges",
    access: "user",
    kind: "download",
    input: BrandMediaId,
    output: null,
    rest: { method: "GET", path: "/user/brand/media/{id}/file", tag: "Brand", errors: { 404: "Brand media not found" } },
    trpc: { none: "image bytes: browsers load them over REST" },
    graphql: { none: "image bytes: browsers load them over REST" },
    handler: async (ctx, input): Promise<FileResult> => {
      const file = await openBrandMedia(ctx, input.id);
      return {
        kind: "file",
        filename: file.filename,
        contentType: file.mime,
        body: "",
        disposition: "inline",
        ranged: { bytes: file.bytes, modifiedAt: file.modifiedAt, read: (range) => ctx.services.media.read(file.key, range) },
      };
    },
  }),
};
