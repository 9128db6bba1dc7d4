// Moderation under the EU Digital Services Act: a notice (Art. 16), the statement of reasons of a decision
// (Art. 17) and the internal complaint, here called an appeal (Art. 20).
import { z } from "zod";
import { Email, EmailAddress, IsoDateTime } from "./common.ts";

export const MODERATION_CATEGORIES = [
  "illegal_hate_speech",
  "violence_or_terrorism",
  "child_sexual_abuse",
  "intellectual_property",
  "privacy_or_personal_data",
  "fraud_or_scam",
  "misleading_advertising",
  "terms_violation",
  "other_illegal",
] as const;
export const ModerationCategory = z.enum(MODERATION_CATEGORIES, {
  error: `category must be one of: ${MODERATION_CATEGORIES.join(", ")}`,
});
export type ModerationCategory = z.infer<typeof ModerationCategory>;

/** DSA Art. 16(2)(c): a notice about child sexual abuse material may be anonymous; every other needs a name and e-mail. */
export const ANONYMOUS_CATEGORIES: readonly ModerationCategory[] = ["child_sexual_abuse"];

export const ModerationAction = z.enum(["remove", "restrict", "dismiss"], { error: "action must be remove, restrict or dismiss" });
export type ModerationAction = z.infer<typeof ModerationAction>;

export const ModerationReportInput = z
  .object({
    target: z
      .string({ error: "target must be a project id or a media address of this service" })
      .trim()
      .min(1, { error: "Say what you report: a project id or a media address of this service" })
      .max(2048, { error: "target must be at most 2048 characters" }),
    category: ModerationCategory,
    explanation: z
      .string({ error: "Explain why the content is illegal or breaks the terms" })
      .trim()
      .min(10, { error: "Explain in at least 10 characters why the content is illegal or breaks the terms" })
      .max(2000, { error: "The explanation must be at most 2000 characters" }),
    reporterName: z.string().trim().max(200, { error: "Your name must be at most 200 characters" }).optional(),
    reporterEmail: Email.optional(),
    goodFaith: z.literal(true, {
      error: "Confirm that you believe in good faith that the information in this notice is accurate and complete",
    }),
  })
  .superRefine((notice, ctx) => {
    if (ANONYMOUS_CATEGORIES.includes(notice.category)) return;
    if (!notice.reporterName)
      ctx.addIssue({
        code: "custom",
        path: ["reporterName"],
        message: "Give your name (only child sexual abuse notices may be anonymous)",
      });
    if (!notice.reporterEmail)
      ctx.addIssue({
        code: "custom",
        path: ["reporterEmail"],
        message: "Give your e-mail address (only child sexual abuse notices may be anonymous)",
      });
  })
  // The rule above, where a JSON Schema reader sees it (OpenAPI): name and e-mail unless the category may be anonymous.
  .meta({
    title: "ModerationReportInput",
    if: { properties: { category: { enum: [...ANONYMOUS_CATEGORIES] } }, required: ["category"] },
    else: {
      properties: { reporterName: { type: "string", minLength: 1 }, reporterEmail: { type: "string", format: "email" } },
      required: ["reporterName", "reporterEmail"],
    },
  });
export type ModerationReportInput = z.input<typeof ModerationReportInput>;

export const ModerationReportReceipt = z
  .object({
    reference: z.string().describe("quote it in any correspondence about this notice"),
    status: z.literal("pending"),
    submittedAt: IsoDateTime,
  })
  .meta({ title: "ModerationReportReceipt" });

export const ModerationAppealInput = z.object({
  decisionId: z
    .string({ error: "decisionId must name the decision you contest" })
    .trim()
    .min(1, { error: "Give the decisionId of the decision you contest" }),
  explanation: z
    .string({ error: "Explain why the decision is wrong" })
    .trim()
    .min(10, { error: "Explain in at least 10 characters why the decision is wrong" })
    .max(2000, { error: "The explanation must be at most 2000 characters" }),
});

export const AppealStatus = z.enum(["pending", "upheld", "reversed"]);

/** What the affected account sees of a decision about its content (DSA Art. 17 statement of reasons). */
export const ModerationDecisionView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    action: ModerationAction,
    category: ModerationCategory,
    statement: z.string(),
    decidedAt: IsoDateTime,
    appeal: z
      .object({ status: AppealStatus, explanation: z.string(), submittedAt: IsoDateTime, resolution: z.string().nullable() })
      .meta({ title: "ModerationAppealView" })
      .nullable(),
    canAppeal: z.boolean(),
  })
  .meta({ title: "ModerationDecisionView" });
export type ModerationDecisionView = z.infer<typeof ModerationDecisionView>;

export const ModerationDecisionsQuery = z.object({ projectId: z.string().trim().min(1).optional() });
export const ModerationDecisionList = z.object({ decisions: z.array(ModerationDecisionView) }).meta({ title: "ModerationDecisionList" });

export const ModerationQueueStatus = z.enum(["pending", "resolved", "all"], { error: "status must be pending, resolved or all" });

export const ModerationQueueQuery = z.object({
  status: ModerationQueueStatus.default("all"),
  kind: z.enum(["notice", "appeal", "all"], { error: "kind must be notice, appeal or all" }).default("all"),
  category: ModerationCategory.optional(),
  projectId: z.string().trim().min(1).optional(),
  page: z.coerce.number().int().min(1, { error: "page must be 1 or more" }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { error: "pageSize must be between 1 and 100" }).default(20),
});

/** One item of the admin queue: a notice to decide, or an appeal against a decision. */
export const ModerationQueueItem = z
  .object({
    id: z.string().describe("the notice id, or for an appeal the decision id"),
    kind: z.enum(["notice", "appeal"]),
    reference: z.string().nullable(),
    status: z.enum(["pending", "resolved"]),
    projectId: z.string(),
    projectName: z.string(),
    ownerEmail: EmailAddress,
    category: ModerationCategory,
    explanation: z.string(),
    reporterName: z.string().nullable(),
    reporterEmail: EmailAddress.nullable(),
    target: z.string().nullable(),
    submittedAt: IsoDateTime,
    decision: z
      .object({ id: z.string(), action: ModerationAction, statement: z.string(), decidedAt: IsoDateTime })
      .meta({ title: "ModerationQueueDecision" })
      .nullable(),
  })
  .meta({ title: "ModerationQueueItem" });
export type ModerationQueueItem = z.infer<typeof ModerationQueueItem>;

export const ModerationQueue = z
  .object({
    items: z.array(ModerationQueueItem),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    pending: z.number().int(),
  })
  .meta({ title: "ModerationQueue" });
export type ModerationQueue = z.infer<typeof ModerationQueue>;

export const ModerationResolveInput = z.object({
  id: z.string({ error: "id must name a queue item" }).trim().min(1, { error: "Give the id of the queue item to resolve" }),
  action: ModerationAction.describe("for an appeal: dismiss reverses the decision, remove or restrict upholds or changes it"),
  statement: z
    .string({ error: "Give a statement of reasons" })
    .trim()
    .min(10, { error: "The statement of reasons must be at least 10 characters: say what was decided and why" })
    .max(4000, { error: "The statement of reasons must be at most 4000 characters" }),
});

export const ModerationResolveResult = z
  .object({ id: z.string(), kind: z.enum(["notice", "appeal"]), decision: ModerationDecisionView, reportersNotified: z.number().int() })
  .meta({ title: "ModerationResolveResult" });
