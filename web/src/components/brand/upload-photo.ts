// Uploading a product photo to the brand media library (POST /api/user/brand/media), with progress.
import type { BrandMedia } from "@adgen/schema";
import { uploadFile } from "../../lib/upload-file.ts";

export function uploadBrandPhoto(file: File, onProgress: (fraction: number) => void): Promise<BrandMedia> {
  return uploadFile<BrandMedia>("/api/user/brand/media", file, onProgress);
}
