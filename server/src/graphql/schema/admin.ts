import type { AdminUserList } from "@adgen/schema";
import { getUser, grantCredits, listUsers, resetPassword, setUserStatus, updateUser } from "../../modules/admin/users.ts";
import { AccountStatusEnum, builder, PlanIdEnum, ProviderPreferenceEnum, RoleEnum } from "../builder.ts";
import { UserRef } from "./user.ts";

const UserPageRef = builder.objectRef<AdminUserList>("UserPage").implement({
  fields: (t) => ({
    users: t.field({ type: [UserRef], resolve: (p) => p.users }),
    page: t.exposeInt("page"),
    pageSize: t.exposeInt("pageSize"),
    total: t.exposeInt("total"),
    totalPages: t.exposeInt("totalPages"),
  }),
});

const AdminUserUpdateInput = builder.inputType("AdminUserUpdateInput", {
  description: "Only these fields are writable (CONTRACT).",
  fields: (t) => ({
    role: t.field({ type: RoleEnum }),
    status: t.field({ type: AccountStatusEnum }),
    currentPlanId: t.field({ type: PlanIdEnum }),
    trialEndsAt: t.field({ type: "DateTime", description: "null clears the trial end" }),
    providerPreference: t.field({ type: ProviderPreferenceEnum }),
  }),
});

const CreditGrantRef = builder.objectRef<{ balance: number; entryId: string }>("CreditGrant").implement({
  fields: (t) => ({ balance: t.exposeInt("balance"), entryId: t.exposeID("entryId") }),
});

builder.queryFields((t) => ({
  adminUsers: t.field({
    type: UserPageRef,
    description: "Admin: accounts, newest first; `search` matches part of the e-mail.",
    args: { page: t.arg.int(), pageSize: t.arg.int(), search: t.arg.string() },
    resolve: (_, args, ctx) =>
      listUsers(ctx, { page: args.page ?? undefined, pageSize: args.pageSize ?? undefined, search: args.search ?? undefined }),
  }),
  adminUser: t.field({
    type: UserRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, args, ctx) => getUser(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  adminUpdateUser: t.field({
    type: UserRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AdminUserUpdateInput, required: true }) },
    resolve: (_, { id, input }, ctx) => {
      const patch: Record<string, unknown> = {};
      if (input.role != null) patch.role = input.role;
      if (input.status != null) patch.status = input.status;
      if (input.currentPlanId != null) patch.current_plan_id = input.currentPlanId;
      if (input.trialEndsAt !== undefined) patch.trial_ends_at = input.trialEndsAt;
      if (input.providerPreference != null) patch.provider_preference = input.providerPreference;
      return updateUser(ctx, String(id), patch);
    },
  }),
  adminSetUserStatus: t.field({
    type: UserRef,
    args: { id: t.arg.id({ required: true }), status: t.arg({ type: AccountStatusEnum, required: true }) },
    resolve: (_, { id, status }, ctx) => setUserStatus(ctx, String(id), { status }),
  }),
  adminGrantCredits: t.field({
    type: CreditGrantRef,
    args: { id: t.arg.id({ required: true }), amount: t.arg.int({ required: true }), reason: t.arg.string() },
    resolve: (_, { id, amount, reason }, ctx) => grantCredits(ctx, String(id), { amount, reason: reason ?? undefined }),
  }),
  adminResetPassword: t.boolean({
    args: { userId: t.arg.id({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: async (_, { userId, newPassword }, ctx) => (await resetPassword(ctx, { userId: String(userId), newPassword })).reset,
  }),
}));
