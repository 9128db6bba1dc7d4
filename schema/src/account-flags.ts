// Account flags for the admin (GET and PATCH /api/admin/flags): a refund or chargeback whose credits had
// already been spent flags the account, and so does a confirmed payment that granted nothing (an
// unmatched payment: on no account when it names none this service knows); an admin lists them (open by
// default) and resolves each with a note.
import { z } from "zod";
import { EmailAddress, IsoDateTime } from "./common.ts";

export const AccountFlagStatus = z.enum(["open", "resolved", "all"], { error: "status must be open, resolved or all" });
export type AccountFlagStatus = z.infer<typeof AccountFlagStatus>;

export const AccountFlagListQuery = z.object({
  status: AccountFlagStatus.default("open").describe("open (default), resolved or all"),
  userId: z.string().trim().min(1, { error: "userId must not be empty" }).max(64, { error: "userId is too long" }).optional(),
  page: z.coerce.number({ error: "page must be a number" }).int().min(1, { error: "page must be 1 or more" }).default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .int()
    .min(1, { error: "pageSize must be between 1 and 100" })
    .max(100, { error: "pageSize must be between 1 and 100" })
    .default(25),
});
export type AccountFlagListQuery = z.infer<typeof AccountFlagListQuery>;

/** The order a flag is about, in words: what was bought, for how much, and where it stands now. */
export const AccountFlagOrder = z.object({
  id: z.string(),
  description: z.string(),
  provider: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.string(),
});

export const AccountFlagView = z
  .object({
    id: z.string(),
    /** null: an unmatched payment that names no account this service knows (the message says what it names). */
    userId: z.string().nullable(),
    email: EmailAddress.nullable(),
    kind: z.string().describe("refund_after_spend, chargeback_after_spend or unmatched_payment"),
    message: z.string(),
    orderId: z.string().nullable(),
    order: AccountFlagOrder.nullable(),
    createdAt: IsoDateTime,
    resolvedAt: IsoDateTime.nullable(),
    resolvedByEmail: EmailAddress.nullable(),
    resolutionNote: z.string().nullable(),
  })
  .meta({ title: "AccountFlag" });
export type AccountFlagView = z.infer<typeof AccountFlagView>;

export const AccountFlagList = z.object({
  flags: z.array(AccountFlagView),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  /** Open flags on every account, whatever the filter: the number the console shows beside the section. */
  openTotal: z.number().int(),
});
export type AccountFlagList = z.infer<typeof AccountFlagList>;

export const AccountFlagResolveInput = z.object({
  flagId: z.string({ error: "flagId must name a flag" }).trim().min(1, { error: "Give the flagId of the flag to resolve" }).max(64, {
    error: "flagId is too long",
  }),
  note: z
    .string({ error: "Give a note saying what was done" })
    .trim()
    .min(3, { error: "The note must be at least 3 characters: say what was done" })
    .max(1000, { error: "The note must be at most 1000 characters" }),
});
export type AccountFlagResolveInput = z.infer<typeof AccountFlagResolveInput>;
