// Person ads front a person (CONTRACT "Person ads"): the Presenter (avatar) and the Influencer need a
// presenter photo or clip in the brand media library (stored with the shown person's consent), or a
// talking-presenter provider with a stock presenter. Without either the launch answers 400 before anything is
// charged, on every transport (admitLaunch runs it for the launch and the estimate alike), and says what to
// upload; the plan's 403 is checked before it. The field is `presenter`, so the studio can link the library.
import { type WorkflowRequest, workflowName } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { listBrandMedia } from "../../brand/brand-media.ts";

export const PERSON_TYPES: readonly WorkflowRequest["type"][] = ["avatar", "influencer"];

/** Whether this instance can show a stock presenter (a talking-presenter service with stock presenters). */
export function hasStockPresenter(services: Services): boolean {
  return !!services.config.providers.stockAvatar && services.providers.clips.some((clips) => clips.stockAvatars);
}

/** 400 (field `presenter`) for a person ad that would have no person in it. Reads the library only. */
export async function checkPersonAd(services: Services, userId: string, request: WorkflowRequest): Promise<void> {
  if (!PERSON_TYPES.includes(request.type) || hasStockPresenter(services)) return;
  const library = await listBrandMedia(services.prisma, userId);
  if (library.some((item) => item.role === "presenter")) return;
  const name = workflowName(request.type);
  const message = `A ${name} ad shows a person: upload a photo or short clip of the presenter to your media library (Brand → Media library, as a presenter, with their consent), then launch again. Nothing was charged.`;
  throw new AppError("BAD_REQUEST", message, { fields: [{ field: "presenter", message }] });
}
