// moderation.*: DSA notice and action. Notices and appeals come from signed-in accounts; the queue and
// decisions are admin operations (403 `admin access required` to anyone else), audited.
import {
  ModerationAppealInput,
  ModerationDecisionList,
  ModerationDecisionsQuery,
  ModerationDecisionView,
  ModerationQueue,
  ModerationQueueQuery,
  ModerationReportInput,
  ModerationReportReceipt,
  ModerationResolveInput,
  ModerationResolveResult,
} from "@adgen/schema";
import { listModerationQueue } from "../modules/moderation/admin-queue.ts";
import { appealDecision, listOwnDecisions } from "../modules/moderation/own-decisions.ts";
import { resolveModerationItem } from "../modules/moderation/resolve-item.ts";
import { submitNotice } from "../modules/moderation/submit-notice.ts";
import { defineOperation } from "./operation.ts";
import { actorOf, signedIn } from "./signed-in.ts";
import { auditSourceOf } from "../request-context.ts";

const tag = "Moderation";
const adminErrors = { 403: "admin access required" };

export const moderationOperations = {
  report: defineOperation({
    summary: "Report a project or media address as illegal or against the terms (DSA notice); answers a reference",
    access: "user",
    kind: "mutation",
    input: ModerationReportInput,
    output: ModerationReportReceipt,
    rest: { method: "POST", path: "/moderation/report", tag },
    handler: (ctx, input) => submitNotice(ctx.services, signedIn(ctx), auditSourceOf(ctx), input),
  }),
  appeal: defineOperation({
    summary: "Appeal a decision about one of your projects, with your explanation",
    access: "user",
    kind: "mutation",
    input: ModerationAppealInput,
    output: ModerationDecisionView,
    rest: { method: "POST", path: "/moderation/appeal", tag, errors: { 404: "Decision not found", 409: "Already appealed" } },
    handler: (ctx, input) => appealDecision(ctx.services, signedIn(ctx), auditSourceOf(ctx), input),
  }),
  decisions: defineOperation({
    summary: "Moderation decisions about your projects, with their statements of reasons and appeals",
    access: "user",
    kind: "query",
    input: ModerationDecisionsQuery,
    output: ModerationDecisionList,
    rest: { method: "GET", path: "/moderation/decisions", tag },
    handler: (ctx, input) => listOwnDecisions(ctx.services, signedIn(ctx), input),
  }),
  queue: defineOperation({
    summary: "The moderation queue: notices and appeals, pending first; filter by status, kind, category, project",
    access: "admin",
    kind: "query",
    input: ModerationQueueQuery,
    output: ModerationQueue,
    rest: { method: "GET", path: "/admin/moderation", tag, errors: adminErrors },
    handler: (ctx, input) => listModerationQueue(ctx.services, input),
  }),
  resolve: defineOperation({
    summary: "Resolve a notice or an appeal: remove, restrict or dismiss, with a statement of reasons",
    access: "admin",
    kind: "mutation",
    input: ModerationResolveInput,
    output: ModerationResolveResult,
    rest: {
      method: "PATCH",
      path: "/admin/moderation",
      tag,
      errors: { ...adminErrors, 404: "Moderation item not found", 409: "Already resolved" },
    },
    handler: (ctx, input) => resolveModerationItem(ctx.services, actorOf(ctx), auditSourceOf(ctx), input),
  }),
};
