// Uploading to the brand media library (POST /api/user/brand/media), with progress: a product photo, a
// presenter (photo or selfie clip, with the shown person's consent) or product footage.
import type { BrandMedia, BrandMediaRole } from "@adgen/schema";
import { uploadFile } from "../../lib/upload-file.ts";

export interface UploadOptions {
  role: BrandMediaRole;
  /** Presenter: who is shown, and the ticked permission box. */
  consentName?: string;
  consent?: boolean;
}

export function uploadBrandMedia(file: File, onProgress: (fraction: number) => void, options: UploadOptions): Promise<BrandMedia> {
  const fields: Record<string, string> = { role: options.role };
  if (options.role === "presenter") {
    fields.consentName = options.consentName ?? "";
    if (options.consent) fields.consent = "on";
  }
  return uploadFile<BrandMedia>("/api/user/brand/media", file, onProgress, undefined, fields);
}
