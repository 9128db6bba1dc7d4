import { z } from "zod";
import { IsoDateTime } from "./common.ts";
import { AccountStatus, PlanId, ProviderPreference, Role } from "./enums.ts";
import { UserProfile } from "./auth.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./auth.ts";

export const AdminUserListQuery = z.object({
  page: z.coerce.number().int().min(1, { error: "page must be 1 or more" }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { error: "pageSize must be between 1 and 100" }).default(20),
  search: z.string().trim().max(254).optional().describe("part of an e-mail address, case-insensitive"),
});
export type AdminUserListQuery = z.infer<typeof AdminUserListQuery>;

export const AdminUser = UserProfile;
export const AdminUserList = z.object({
  users: z.array(AdminUser),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type AdminUserList = z.infer<typeof AdminUserList>;

export const UserIdParam = z.object({ id: z.string().min(1) });

const writableUserFields = {
  role: Role.optional(),
  status: AccountStatus.optional(),
  current_plan_id: PlanId.optional(),
  trial_ends_at: z.iso.datetime({ offset: true, error: "trial_ends_at must be an ISO date-time or null" }).nullable().optional(),
  provider_preference: ProviderPreference.optional(),
};

/** A strict object of the writable fields (plus `extra`), with at least one writable field given. */
function userUpdate<E extends z.core.$ZodLooseShape>(extra: E) {
  return z
    .strictObject(
      { ...extra, ...writableUserFields },
      { error: (issue) => (issue.code === "unrecognized_keys" ? `not writable here: ${issue.keys.join(", ")}` : undefined) },
    )
    .refine((value) => Object.keys(writableUserFields).some((key) => key in value), {
      error: "give at least one of role, status, current_plan_id, trial_ends_at, provider_preference",
      // Only for an otherwise valid body: a body with unknown fields already says what to fix.
      when: (payload) => payload.issues.length === 0,
    });
}

/** CONTRACT: only these fields are writable through PATCH /api/admin/users/{id}. */
export const AdminUserUpdate = userUpdate({});
/** The whole admin.updateUser input: the account's id (the REST path parameter) and the writable fields. */
export const AdminUserUpdateRequest = userUpdate({ id: z.string({ error: "id is required" }).min(1, { error: "id is required" }) }).meta({
  title: "AdminUserUpdateRequest",
});
export type AdminUserUpdate = z.infer<typeof AdminUserUpdate>;

export const AdminStatusUpdate = z.object({ status: AccountStatus });
export type AdminStatusUpdate = z.infer<typeof AdminStatusUpdate>;

export const AdminCreditGrant = z.object({
  amount: z
    .number({ error: "amount must be an integer" })
    .int({ error: "amount must be an integer" })
    .refine((n) => n !== 0, { error: "amount must not be zero" })
    .refine((n) => Math.abs(n) <= 1_000_000, { error: "amount must be between -1000000 and 1000000" }),
  reason: z.string().trim().max(500, { error: "reason must be at most 500 characters" }).optional(),
});
export type AdminCreditGrant = z.infer<typeof AdminCreditGrant>;
export const AdminCreditGrantResult = z.object({ balance: z.number().int(), entryId: z.string() });

export const AdminResetPassword = z.object({
  userId: z.string({ error: "userId is required" }).min(1, { error: "userId is required" }),
  newPassword: z
    .string({ error: "The new password is required" })
    .min(PASSWORD_MIN, { error: `The new password must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `The new password must be at most ${PASSWORD_MAX} characters` }),
});
export type AdminResetPassword = z.infer<typeof AdminResetPassword>;

export const AuditEntry = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: IsoDateTime,
});
export type AuditEntry = z.infer<typeof AuditEntry>;
