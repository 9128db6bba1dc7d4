// A launch that names a preview: charged and queued like any launch (launchWorkflow), and its job starts
// from the preview's step outputs, written as the job's finished steps before it is queued, so the pipeline
// goes straight to the voice and the renders: what was previewed (the storyboard, its pictures and look) is
// what is rendered.
import type { Prisma } from "@adgen/prisma";
import { formatsFor, type WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { type LaunchAccount, type LaunchOutcome, launchWorkflow } from "../launch/launch-workflow.ts";
import { assertSameAd, loadPreview } from "./preview-store.ts";

export async function launchFromPreview(
  services: Services,
  account: LaunchAccount,
  request: WorkflowRequest,
  previewId: string,
  options: { idempotencyKey?: string | null } = {},
): Promise<LaunchOutcome> {
  const preview = await loadPreview(services, account.id, previewId);
  assertSameAd(preview, request.type, formatsFor(request));
  return launchWorkflow(services, account, request, {
    ...options,
    beforeQueue: async (jobId) => {
      await services.prisma.jobStep.createMany({
        data: Object.entries(preview.steps).map(([name, output]) => ({ jobId, name, output: output as Prisma.InputJsonValue })),
      });
    },
  });
}
