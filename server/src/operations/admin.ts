// admin.*: account administration. Every one answers 403 `admin access required` to a non-admin.
import {
  AdminCreditGrant,
  AdminCreditGrantResult,
  AdminResetPassword,
  AdminStatusUpdate,
  AdminUser,
  AdminUserList,
  AdminUserListQuery,
  AdminUserUpdateRequest,
  UserIdParam,
} from "@adgen/schema";
import { z } from "zod";
import { getUser, grantCredits, listUsers, resetPassword, setUserStatus, updateUser } from "../modules/admin/users.ts";
import { defineOperation } from "./operation.ts";

const admin = { access: "admin" } as const;
const rest = { tag: "Admin", errors: { 403: "admin access required" } } as const;
const userNotFound = { 403: "admin access required", 404: "User not found" };

export const adminOperations = {
  users: defineOperation({
    ...admin,
    summary: "Accounts, newest first, paginated; `search` matches part of the e-mail",
    kind: "query",
    input: AdminUserListQuery,
    output: AdminUserList,
    rest: { ...rest, method: "GET", path: "/admin/users" },
    handler: (ctx, input) => listUsers(ctx, input),
  }),
  user: defineOperation({
    ...admin,
    summary: "One account",
    kind: "query",
    input: UserIdParam,
    output: AdminUser,
    rest: { ...rest, method: "GET", path: "/admin/users/{id}", errors: userNotFound },
    handler: (ctx, input) => getUser(ctx, input.id),
  }),
  updateUser: defineOperation({
    ...admin,
    summary: "Update role, status, current_plan_id, trial_ends_at or provider_preference (nothing else is writable)",
    kind: "mutation",
    input: AdminUserUpdateRequest,
    output: AdminUser,
    rest: { ...rest, method: "PATCH", path: "/admin/users/{id}", errors: userNotFound },
    handler: (ctx, { id, ...patch }) => updateUser(ctx, id, patch),
  }),
  setUserStatus: defineOperation({
    ...admin,
    summary: "Suspend (ends the account's live sessions) or reactivate an account",
    kind: "mutation",
    input: UserIdParam.extend(AdminStatusUpdate.shape),
    output: AdminUser,
    rest: { ...rest, method: "PATCH", path: "/admin/users/{id}/status", errors: userNotFound },
    handler: (ctx, { id, ...input }) => setUserStatus(ctx, id, input),
  }),
  grantCredits: defineOperation({
    ...admin,
    summary: "Add (positive) or remove (negative) credits through the ledger; never below zero",
    kind: "mutation",
    input: UserIdParam.extend(AdminCreditGrant.shape),
    output: AdminCreditGrantResult,
    rest: { ...rest, method: "POST", path: "/admin/users/{id}/credits", errors: userNotFound },
    handler: (ctx, { id, ...input }) => grantCredits(ctx, id, input),
  }),
  resetPassword: defineOperation({
    ...admin,
    summary: "Set a new password for an account and end its sessions",
    kind: "mutation",
    input: AdminResetPassword,
    output: z.object({ userId: z.string(), reset: z.literal(true) }),
    rest: { ...rest, method: "POST", path: "/admin/reset-password", errors: userNotFound },
    handler: (ctx, input) => resetPassword(ctx, input),
  }),
};
