// A launch that names a preview (`previewId`): checked before the charge (the account's own preview, of the
// same type and formats, else 404 / 400), and once the job exists its steps are the preview's step outputs,
// written as finished before it is queued, so the pipeline goes straight on to the voice and the renders:
// what was previewed (the storyboard, its pictures and look) is what is rendered. The pictures are copied
// among the job's own media: the preview is thrown away after a day, the job keeps them.
import type { Prisma } from "@adgen/prisma";
import { formatsFor, type WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { keepPreviewMediaUnder } from "./preview-media.ts";
import { assertSameAd, loadPreview } from "./preview-store.ts";

export interface PreviewSeeding {
  /** Writes the preview's step outputs into the job (once it exists, after the charge). */
  write(): Promise<void>;
  /** Takes the copied media away again: the launch did not make the job (refused, or a replay). */
  discard(): Promise<void>;
}

/**
 * For a launch naming a preview: the preview's media copied under the job's id `jobId` (before the charge, so
 * a preview whose pictures are gone is refused without charging), and what to write into the job before it
 * is queued; null for a launch that names no preview.
 */
export async function previewSeeding(
  services: Services,
  userId: string,
  request: WorkflowRequest,
  jobId: string,
): Promise<PreviewSeeding | null> {
  if (!request.previewId) return null;
  const preview = await loadPreview(services, userId, request.previewId);
  assertSameAd(preview, request.type, formatsFor(request));
  const steps = await keepPreviewMediaUnder(services, preview.steps, jobId);
  return {
    async write() {
      await services.prisma.jobStep.createMany({
        data: Object.entries(steps).map(([name, output]) => ({ jobId, name, output: output as Prisma.InputJsonValue })),
      });
    },
    discard: () => services.media.remove(`jobs/${jobId}`),
  };
}
