// The operation catalogue: every operation of the service, by area. An operation's name is
// `<area>.<key>`, and its definition is in `./<area>.ts`. The REST table (and OpenAPI), the tRPC router
// and the GraphQL root fields are generated from this object; the parity test reads it too.
import { accountFlagsOperations } from "./account-flags.ts";
import { adminOperations } from "./admin.ts";
import { authOperations } from "./auth.ts";
import { billingOperations } from "./billing.ts";
import { brandOperations } from "./brand.ts";
import { chatOperations } from "./chat.ts";
import { eventsOperations } from "./events.ts";
import { exportOperations } from "./export.ts";
import { healthOperations } from "./health.ts";
import { mediaOperations } from "./media.ts";
import { moderationOperations } from "./moderation.ts";
import { notificationsOperations } from "./notifications.ts";
import { performanceOperations } from "./performance.ts";
import { loopOperations } from "./loop.ts";
import type { AnyOperation } from "./operation.ts";
import { indexOperations } from "./operation-index.ts";
import { projectsOperations } from "./projects.ts";
import { promptBuilderOperations } from "./prompt-builder.ts";
import { providerWebhookOperations } from "./provider-webhooks.ts";
import { publicOperations } from "./public.ts";
import { socialOperations } from "./social.ts";
import { userOperations } from "./user.ts";
import { voiceOperations } from "./voice.ts";
import { webhookOperations } from "./webhook.ts";
import { workflowOperations } from "./workflow.ts";

export const catalogue = {
  auth: authOperations,
  user: userOperations,
  workflow: workflowOperations,
  projects: projectsOperations,
  export: exportOperations,
  media: mediaOperations,
  events: eventsOperations,
  brand: brandOperations,
  webhook: webhookOperations,
  social: socialOperations,
  billing: billingOperations,
  providerWebhook: providerWebhookOperations,
  public: publicOperations,
  promptBuilder: promptBuilderOperations,
  health: healthOperations,
  admin: adminOperations,
  moderation: moderationOperations,
  notifications: notificationsOperations,
  chat: chatOperations,
  voice: voiceOperations,
  performance: performanceOperations,
  loop: loopOperations,
  accountFlags: accountFlagsOperations,
};

export type Catalogue = typeof catalogue;

/** Every operation, named `<area>.<key>`. */
export const operations: readonly AnyOperation[] = Object.entries(catalogue).flatMap(([area, entries]) =>
  Object.entries(entries as Record<string, AnyOperation>).map(([key, operation]) => {
    operation.name = `${area}.${key}`;
    return operation;
  }),
);

export const operationByName = indexOperations(operations);
