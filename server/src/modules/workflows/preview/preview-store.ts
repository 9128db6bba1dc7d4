// Where a preview is kept for a day (PREVIEW_TTL_MS), to be launched or previewed again: its account, type and formats, and the
// pipeline's step outputs up to the art direction (the page read, the storyboard with its pictures), as one
// JSON file in the media store (local disk or S3, so every instance reads it). A launch naming the preview
// starts its job from these outputs: the job renders exactly the storyboard that was previewed.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AspectRatio } from "@adgen/schema";
import { AppError } from "../../../errors.ts";
import type { Services } from "../../../request-context.ts";
import { PREVIEW_TTL_MS } from "./preview-media.ts";

export interface StoredPreview {
  previewId: string;
  userId: string;
  type: string;
  formats: AspectRatio[];
  /** The pipeline's outputs by step name, up to and including the art direction. */
  steps: Record<string, unknown>;
  createdAt: string;
}

const keyOf = (previewId: string) => `previews/${previewId}.json`;

export async function storePreview(services: Services, preview: StoredPreview): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "adgen-preview-store-"));
  try {
    const file = join(dir, "preview.json");
    await writeFile(file, JSON.stringify(preview));
    await services.media.put(keyOf(preview.previewId), file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The account's preview; another account's, or one that is gone, is a 404 alike. */
export async function loadPreview(services: Services, userId: string, previewId: string): Promise<StoredPreview> {
  const missing = new AppError(
    "NOT_FOUND",
    "Preview not found: preview the ad again (POST /api/workflow/preview) and use the previewId it answers",
  );
  if (!(await services.media.stat(keyOf(previewId)))) throw missing;
  const preview = JSON.parse(await readFile(await services.media.localFile(keyOf(previewId)), "utf8")) as StoredPreview;
  if (preview.userId !== userId) throw missing;
  // Past its time the sweep (expirePreviews) throws it away with its pictures; until then it is refused alike.
  if (Date.now() - Date.parse(preview.createdAt) > PREVIEW_TTL_MS) {
    throw new AppError(
      "NOT_FOUND",
      "This preview has expired (a preview is kept 24 hours): preview the ad again and use its new previewId",
    );
  }
  return preview;
}

/** A launch or re-preview must ask for what was previewed: the same type and formats. */
export function assertSameAd(preview: StoredPreview, type: string, formats: AspectRatio[]): void {
  if (preview.type !== type) {
    throw new AppError(
      "BAD_REQUEST",
      `This preview is of a ${preview.type} ad: send type ${preview.type} with it, or preview a ${type} ad first`,
      {
        fields: [{ field: "previewId", message: `This preview is of a ${preview.type} ad` }],
      },
    );
  }
  if (preview.formats.join(",") !== formats.join(",")) {
    const message = `This preview was made for formats ${preview.formats.join(", ")}: send the same formats with it, or preview again`;
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "formats", message }] });
  }
}
