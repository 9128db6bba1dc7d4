// A launch that names a preview (`previewId`): checked before the charge (the account's own preview, of the
// same type and formats, else 404 / 400), and once the job exists its steps are the preview's step outputs,
// written as finished before it is queued, so the pipeline goes straight on to the voice and the renders:
// what was previewed (the storyboard, its pictures and look) is what is rendered.
import type { Prisma } from "@adgen/prisma";
import { formatsFor, type WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { assertSameAd, loadPreview } from "./preview-store.ts";

/** What to write into the new job before it is queued, or null for a launch that names no preview. */
export async function previewSeeding(
  services: Services,
  userId: string,
  request: WorkflowRequest,
): Promise<((jobId: string) => Promise<void>) | null> {
  if (!request.previewId) return null;
  const preview = await loadPreview(services, userId, request.previewId);
  assertSameAd(preview, request.type, formatsFor(request));
  return async (jobId) => {
    await services.prisma.jobStep.createMany({
      data: Object.entries(preview.steps).map(([name, output]) => ({ jobId, name, output: output as Prisma.InputJsonValue })),
    });
  };
}
