// Connecting, listing and disconnecting the account's social accounts, and the rule a `publish: true`
// launch must pass before anything is charged: a connected account, on an instance set up to publish,
// and no project a moderation decision restricted as its source.
import { makesImagesOnly, type SocialAccount, SocialAccountIdInput, SocialAccountInput, type WorkflowRequest } from "@adgen/schema";
import type { Prisma } from "@adgen/prisma";
import type { Config } from "../../config/env.ts";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { GraphError, readPage } from "./meta-graph.ts";
import { assertPublishable } from "../moderation/media-gate.ts";
import { findSourceProject } from "../projects/source-project.ts";

export const PUBLISH_MESSAGE =
  "No social account is connected: connect one before publishing, or launch without publish (nothing was charged)";

/** The Meta app secret publishing signs its calls with (META_APP_SECRET), or null: publishing is off here. */
export function metaAppSecret(config: Config): string | null {
  return config.payments.webhookSecrets.meta;
}

const view = (row: { id: string; platform: string; pageId: string; pageName: string; createdAt: Date }): SocialAccount => ({
  id: row.id,
  platform: row.platform,
  pageId: row.pageId,
  pageName: row.pageName,
  connectedAt: row.createdAt.toISOString(),
});

export async function listSocialAccounts(services: Services, user: { id: string }): Promise<SocialAccount[]> {
  const rows = await services.prisma.socialAccount.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
  return rows.map(view);
}

/** Checks the Page and its token with the Graph API, then keeps them (a reconnect replaces the token). */
export async function connectSocialAccount(services: Services, user: { id: string }, input: unknown): Promise<SocialAccount> {
  const { platform, pageId, accessToken } = parseInput(SocialAccountInput, input);
  const secret = metaAppSecret(services.config);
  if (!secret)
    throw new AppError(
      "UNAVAILABLE",
      "Publishing is not set up on this instance (no Meta app is configured), so no account can be connected",
    );
  let page: { id: string; name: string };
  try {
    page = await readPage(secret, pageId, accessToken);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const message = `${error.message}. Check the Page id and that the token is a Page access token for it`;
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "accessToken", message }] });
  }
  const data = { pageName: page.name, accessToken } satisfies Prisma.SocialAccountUpdateInput;
  const row = await services.prisma.socialAccount.upsert({
    where: { userId_platform_pageId: { userId: user.id, platform, pageId } },
    create: { userId: user.id, platform, pageId, ...data },
    update: data,
  });
  return view(row);
}

export async function disconnectSocialAccount(services: Services, user: { id: string }, input: unknown): Promise<{ ok: true }> {
  const { id } = parseInput(SocialAccountIdInput, input);
  const removed = await services.prisma.socialAccount.deleteMany({ where: { id, userId: user.id } });
  if (removed.count === 0) throw new AppError("NOT_FOUND", "Connected account not found");
  return { ok: true };
}

/** 400 before any charge when a `publish: true` launch could not be published. */
export async function assertCanPublish(services: Services, userId: string, request: WorkflowRequest): Promise<void> {
  if (!request.publish) return;
  const refuse = (message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field: "publish", message }] });
  if (makesImagesOnly(request.type, request.imagesOnly)) {
    throw refuse("Publishing posts a video, and this launch makes still images only: launch without publish (nothing was charged)");
  }
  const account = await services.prisma.socialAccount.findFirst({ where: { userId }, select: { id: true } });
  if (!account) throw refuse(PUBLISH_MESSAGE);
  if (!metaAppSecret(services.config)) {
    throw refuse("Publishing is not set up on this instance (no Meta app is configured): launch without publish (nothing was charged)");
  }
  // An ad made from a project a moderation decision restricted would publish that project again: 403.
  if (request.type === "ad-optimizer") {
    const source = await findSourceProject(services.prisma, userId, request.project);
    await assertPublishable(services.prisma, source.job.id);
  }
}
